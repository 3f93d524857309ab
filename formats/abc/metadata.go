package abc

import (
	"errors"
	"sort"
	"strings"
)

// Metadata is the key/value metadata of an archive, object or property, such as
// schema=AbcGeom_PolyMesh_v1 or interpretation=point. On disk it is the string
// "key1=value1;key2=value2" with the keys in byte order and empty values left out.
// A writer refuses keys and values that hold ';' or '='; a reader keeps everything
// after a pair's first '=' as its value, as Alembic does.
type Metadata map[string]string

// parseMetadata decodes the on-disk string. Like Alembic, it stops at the first pair
// without '=' and keeps the first of two pairs with the same key.
func parseMetadata(s string) Metadata {
	md := Metadata{}
	for s != "" {
		pair, rest, more := strings.Cut(s, ";")
		key, value, ok := strings.Cut(pair, "=")
		if !ok {
			break
		}
		if _, dup := md[key]; !dup {
			md[key] = value
		}
		if !more {
			break
		}
		s = rest
	}
	return md
}

// serialize encodes md as Alembic does: sorted keys, empty values left out.
func (md Metadata) serialize() (string, error) {
	keys := make([]string, 0, len(md))
	for k, v := range md {
		if v == "" {
			continue
		}
		if strings.ContainsAny(k, ";=") || strings.ContainsAny(v, ";=") {
			return "", errors.New("abc: metadata " + k + "=" + v + " holds ';' or '='")
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(md[k])
	}
	return b.String(), nil
}

// Metadata keys that Alembic's schemas use.
const (
	mdSchema         = "schema"          // object and schema compound: AbcGeom_PolyMesh_v1, ...
	mdSchemaObjTitle = "schemaObjTitle"  // object: schema + ":" + the schema compound's name
	mdSchemaBaseType = "schemaBaseType"  // schema compound: AbcGeom_GeomBase_v1
	mdInterpretation = "interpretation"  // property: point, vector, box, ...
	mdGeoScope       = "geoScope"        // geometry parameter: con, uni, var, vtx, fvr
	mdArraySize      = "arrayExtent"     // geometry parameter: elements per point when more than the type's extent
	mdPodName        = "podName"         // geometry parameter: the element type's name
	mdPodExtent      = "podExtent"       // geometry parameter: the element type's extent
	mdIsGeomParam    = "isGeomParam"     // geometry parameter: true
	mdApplication    = "_ai_Application" // archive: the program that wrote it, which abcecho shows
)
