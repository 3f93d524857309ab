package vdb

import (
	"encoding/binary"
	"math"
	"slices"
)

// Metadata maps names to values, as a .vdb file's MetaMap. Values of the types
// OpenVDB names below round-trip; other types read as Unknown and are written back
// unchanged.
//
//	string  string     bool     bool      int32   int32     int64   int64
//	float   float32    double   float64   vec3i   [3]int32  vec3s   [3]float32
//	vec3d   [3]float64
type Metadata map[string]any

// Unknown is a metadata value of a type this package does not interpret.
type Unknown struct {
	TypeName string
	Data     []byte
}

// metaTypeName returns OpenVDB's type name for v and its encoding, or ok = false.
func encodeMeta(v any) (typeName string, data []byte, ok bool) {
	le := binary.LittleEndian
	switch x := v.(type) {
	case string:
		return "string", []byte(x), true
	case bool:
		b := byte(0)
		if x {
			b = 1
		}
		return "bool", []byte{b}, true
	case int32:
		return "int32", le.AppendUint32(nil, uint32(x)), true
	case int64:
		return "int64", le.AppendUint64(nil, uint64(x)), true
	case float32:
		return "float", le.AppendUint32(nil, math.Float32bits(x)), true
	case float64:
		return "double", le.AppendUint64(nil, math.Float64bits(x)), true
	case [3]int32:
		for _, c := range x {
			data = le.AppendUint32(data, uint32(c))
		}
		return "vec3i", data, true
	case [3]float32:
		for _, c := range x {
			data = le.AppendUint32(data, math.Float32bits(c))
		}
		return "vec3s", data, true
	case [3]float64:
		for _, c := range x {
			data = le.AppendUint64(data, math.Float64bits(c))
		}
		return "vec3d", data, true
	case Unknown:
		return x.TypeName, x.Data, true
	}
	return "", nil, false
}

// decodeMeta interprets a value of the named type; types it does not know, or data
// of the wrong size, come back as Unknown.
func decodeMeta(typeName string, data []byte) any {
	le := binary.LittleEndian
	size := map[string]int{"bool": 1, "int32": 4, "int64": 8, "float": 4, "double": 8,
		"vec3i": 12, "vec3s": 12, "vec3d": 24}
	if n, fixed := size[typeName]; typeName != "string" && (!fixed || len(data) != n) {
		return Unknown{TypeName: typeName, Data: data}
	}
	switch typeName {
	case "string":
		return string(data)
	case "bool":
		return data[0] != 0
	case "int32":
		return int32(le.Uint32(data))
	case "int64":
		return int64(le.Uint64(data))
	case "float":
		return math.Float32frombits(le.Uint32(data))
	case "double":
		return math.Float64frombits(le.Uint64(data))
	case "vec3i":
		return [3]int32{int32(le.Uint32(data)), int32(le.Uint32(data[4:])), int32(le.Uint32(data[8:]))}
	case "vec3s":
		return [3]float32{math.Float32frombits(le.Uint32(data)),
			math.Float32frombits(le.Uint32(data[4:])), math.Float32frombits(le.Uint32(data[8:]))}
	default: // vec3d
		return [3]float64{math.Float64frombits(le.Uint64(data)),
			math.Float64frombits(le.Uint64(data[8:])), math.Float64frombits(le.Uint64(data[16:]))}
	}
}

// sortedNames returns the names of m in increasing order: OpenVDB keeps a MetaMap
// sorted, and sorted output keeps files bit-identical from run to run.
func (m Metadata) sortedNames() []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
