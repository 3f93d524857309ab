package abc

import (
	"encoding/binary"
	"strconv"
	"strings"
)

// An object's group (AbcCoreOgawa's layout) has these children:
//
//	0        group  the object's properties: its top compound property (properties.go)
//	1..n     group  the n child objects, in the order of their headers
//	last     data   the child objects' headers, then 32 bytes of hashes
//
// Each child header is: uint32 name length, the name, a uint8 metadata index, and,
// when that index is 0xff, a uint32 length and the metadata string itself; index 0 is
// the empty metadata and other indices name the archive's indexed metadata. The hashes
// (two 128-bit digests, of the properties and of the children) let a reader compare
// objects without reading them; this reader does not use them.
const objectHashBytes = 32

// An Object is a node of the archive's hierarchy: a transform, a mesh, points... Its
// schema (Metadata["schema"], such as AbcGeom_Xform_v3) says which properties it has.
type Object struct {
	a *Archive
	// Name is the object's name; Path is its full name, such as "/pCube1/pCubeShape1".
	Name, Path string
	Metadata   Metadata
	// Parent is nil for the top object.
	Parent *Object

	ref      uint64 // reference to the object's group
	refAt    int64  // offset of that reference in the file
	depth    int
	g        *group
	children []*Object
	props    *Compound

	// Opened once, on first use (xform.go, visibility.go), so that posing many
	// objects does not reread their ancestors' headers.
	xform      *Xform
	xformErr   error
	visibility *visibilityCache
}

// Schema returns the object's schema, such as "AbcGeom_PolyMesh_v1", or "".
func (o *Object) Schema() string { return o.Metadata[mdSchema] }

// load reads the object's group and its children's headers.
func (o *Object) load() error {
	if o.g != nil {
		return nil
	}
	if o.depth > MaxDepth {
		return formatError(o.refAt, o.Path, "objects nested more than "+strconv.Itoa(MaxDepth)+" deep")
	}
	if err := o.a.claim(o.ref, o.refAt, "object "+o.Path); err != nil {
		return err
	}
	g, err := o.a.c.group(o.ref, o.refAt, o.Path)
	if err != nil {
		return err
	}
	n := g.len()
	if n == 0 {
		o.g = g
		return nil
	}
	if g.isData(0) {
		return formatError(g.childOffset(0), o.Path, "the object's properties are a data block, not a group")
	}
	if g.isData(n - 1) {
		d, err := o.a.c.data(g, n-1, o.Path)
		if err != nil {
			return err
		}
		if d.size > objectHashBytes {
			raw, err := o.a.c.read(d, 0, d.size-objectHashBytes, nil, o.Path)
			if err != nil {
				return err
			}
			if o.children, err = o.parseHeaders(raw, d.pos); err != nil {
				return err
			}
		}
	}
	if len(o.children) > n-2 {
		return formatError(g.pos, o.Path, strconv.Itoa(len(o.children))+" child headers for "+strconv.Itoa(max(n-2, 0))+" child groups")
	}
	for i, c := range o.children {
		if g.isData(i + 1) {
			return formatError(g.childOffset(i+1), c.Path, "the object is a data block, not a group")
		}
		c.ref, c.refAt = g.children[i+1], g.childOffset(i+1)
	}
	o.g = g
	return nil
}

// parseHeaders decodes the child headers in b, which starts at byte off of the file.
func (o *Object) parseHeaders(b []byte, off int64) ([]*Object, error) {
	var kids []*Object
	names := map[string]bool{}
	for pos := 0; pos < len(b); {
		start := off + int64(pos)
		if len(b)-pos < 4 {
			return nil, formatError(start, o.Path, "child header cut short")
		}
		n := binary.LittleEndian.Uint32(b[pos:])
		pos += 4
		if n == 0 || uint64(n) >= uint64(len(b)-pos) {
			return nil, formatError(start, o.Path, "child name of "+strconv.FormatUint(uint64(n), 10)+" bytes does not fit its header")
		}
		name := string(b[pos : pos+int(n)])
		pos += int(n)
		path := o.Path + "/" + name
		if o.Path == "/" {
			path = "/" + name
		}
		if strings.Contains(name, "/") || names[name] {
			return nil, formatError(start, o.Path, "child name "+strconv.Quote(name)+" is repeated or holds '/'")
		}
		names[name] = true
		idx := int(b[pos])
		pos++
		var md Metadata
		if idx == 0xff {
			if len(b)-pos < 4 {
				return nil, formatError(start, path, "metadata size cut short")
			}
			m := binary.LittleEndian.Uint32(b[pos:])
			pos += 4
			if uint64(m) > uint64(len(b)-pos) {
				return nil, formatError(start, path, "metadata of "+strconv.FormatUint(uint64(m), 10)+" bytes overruns the headers")
			}
			md = parseMetadata(string(b[pos : pos+int(m)]))
			pos += int(m)
		} else {
			var err error
			if md, err = o.a.metadataAt(idx, start, path); err != nil {
				return nil, err
			}
		}
		kids = append(kids, &Object{a: o.a, Name: name, Path: path, Metadata: md, Parent: o, depth: o.depth + 1})
	}
	return kids, nil
}

// Children returns the object's children, in the order they were written.
func (o *Object) Children() ([]*Object, error) {
	if err := o.load(); err != nil {
		return nil, err
	}
	return o.children, nil
}

// Child returns the child called name, or nil when there is none.
func (o *Object) Child(name string) (*Object, error) {
	kids, err := o.Children()
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		if k.Name == name {
			return k, nil
		}
	}
	return nil, nil
}

// Find returns the object at path, such as "/pCube1/pCubeShape1", or nil when there is
// none. Path "/" is the top object.
func (a *Archive) Find(path string) (*Object, error) {
	o := a.top
	for _, name := range strings.Split(strings.Trim(path, "/"), "/") {
		if name == "" {
			continue
		}
		var err error
		if o, err = o.Child(name); err != nil || o == nil {
			return nil, err
		}
	}
	return o, nil
}

// Walk calls fn for o and each of its descendants, depth first in the order written,
// and stops at the first error.
func (o *Object) Walk(fn func(*Object) error) error {
	if err := fn(o); err != nil {
		return err
	}
	kids, err := o.Children()
	if err != nil {
		return err
	}
	for _, k := range kids {
		if err := k.Walk(fn); err != nil {
			return err
		}
	}
	return nil
}

// Properties returns the object's top compound property, the parent of its schema's
// compound (such as .geom or .xform) and of properties like "visible".
func (o *Object) Properties() (*Compound, error) {
	if o.props != nil {
		return o.props, nil
	}
	if err := o.load(); err != nil {
		return nil, err
	}
	ref, at := uint64(0), o.g.pos
	if o.g.len() > 0 {
		ref, at = o.g.children[0], o.g.childOffset(0)
	}
	c, err := o.a.openCompound(ref, at, PropertyHeader{Kind: CompoundProperty}, o.Path, o.depth)
	if err != nil {
		return nil, err
	}
	o.props = c
	return c, nil
}
