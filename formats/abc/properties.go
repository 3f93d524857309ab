package abc

import (
	"strconv"
	"strings"
)

// A compound property's group has one child group per property, in the order of its
// headers, then a data block with the headers (none when it has no properties).
// Each header starts with a uint32 info word:
//
//	bits 0-1    kind: 0 compound, 1 scalar, 2 array whose samples all hold one
//	            element ("scalar like"), 3 other array
//	bits 2-3    size hint: the later sizes and indices take 1, 2 or 4 bytes (0, 1, 2)
//	bits 4-7    POD (datatype.go)                                    } not for
//	bit  8      a time-sampling index follows (else sampling 0)       } compounds
//	bit  9      first and last changed indices follow                 }
//	bit  10     homogenous: every sample holds the same number of elements
//	bit  11     constant: one stored sample (first = last = 0)
//	bits 12-19  extent
//	bits 20-27  metadata index: 0 empty, 0xff written in the header, else indexed
//
// then, for scalar and array properties, the sample count, [first changed, last
// changed], [time-sampling index]; then, for all, the name length and name, and when
// the metadata index is 0xff the metadata length and string. Without bit 9 or 11,
// first changed is 1 and last changed is count-1.
//
// A property stores sample 0, then every sample from first changed to last changed
// (Alembic does not store repeats of the sample before): samples before first
// changed are sample 0, samples after last changed are the last stored one. A scalar
// property's group has one data block per stored sample; an array property's has two,
// the sample and its dimensions (empty for one dimension: the element count follows
// from the size). A sample's data block is its 16-byte Digest, then its values.
const (
	infoKind          = 0x0003
	infoSizeHint      = 0x000c
	infoPOD           = 0x00f0
	infoHasTimeSample = 0x0100
	infoHasFirstLast  = 0x0200
	infoHomogenous    = 0x0400
	infoConstant      = 0x0800
	infoExtent        = 0xff000
	infoMetadata      = 0xff00000
	metadataInline    = 0xff
)

// PropertyKind says whether a property holds properties, one value per sample, or
// an array of values per sample.
type PropertyKind uint8

const (
	CompoundProperty PropertyKind = iota
	ScalarProperty
	ArrayProperty
)

func (k PropertyKind) String() string {
	return [...]string{"compound", "scalar", "array"}[k]
}

// PropertyHeader describes a property as its compound's header block does.
type PropertyHeader struct {
	Name     string
	Kind     PropertyKind
	Metadata Metadata
	// The fields below are zero for compound properties.
	DataType     DataType
	TimeSampling uint32 // index into Archive.TimeSamplings
	NumSamples   uint32
	// FirstChanged and LastChanged bound the stored samples (see above); both are 0
	// for a constant property.
	FirstChanged, LastChanged uint32
	Homogenous                bool // every sample has the same number of elements
	ScalarLike                bool // an array property whose samples all hold one element
}

// storedSamples returns the number of samples the property's group holds.
func (h *PropertyHeader) storedSamples() uint32 {
	switch {
	case h.NumSamples == 0:
		return 0
	case h.FirstChanged == 0 && h.LastChanged == 0:
		return 1
	default:
		return h.LastChanged - h.FirstChanged + 2
	}
}

// storedIndex maps sample i (below NumSamples) to its stored sample.
func (h *PropertyHeader) storedIndex(i uint32) uint32 {
	switch {
	case i < h.FirstChanged || (h.FirstChanged == 0 && h.LastChanged == 0):
		return 0
	case i >= h.LastChanged:
		return h.LastChanged - h.FirstChanged + 1
	default:
		return i - h.FirstChanged + 1
	}
}

// A Compound is a compound property: a named group of properties. Every object has a
// top compound; schemas keep their properties in a compound such as .geom.
type Compound struct {
	a       *Archive
	Header  PropertyHeader
	Path    string // the owning object's path, then the compound names
	g       *group
	headers []PropertyHeader
	depth   int
}

// openCompound reads the compound property whose group ref (stored at byte at)
// points to.
func (a *Archive) openCompound(ref uint64, at int64, h PropertyHeader, path string, depth int) (*Compound, error) {
	if depth > MaxDepth {
		return nil, formatError(at, path, "properties nested more than "+strconv.Itoa(MaxDepth)+" deep")
	}
	if err := a.claim(ref, at, "compound "+path); err != nil {
		return nil, err
	}
	g, err := a.c.group(ref, at, path)
	if err != nil {
		return nil, err
	}
	c := &Compound{a: a, Header: h, Path: path, g: g, depth: depth}
	n := g.len()
	if n == 0 || !g.isData(n-1) {
		return c, nil
	}
	d, err := a.c.data(g, n-1, path)
	if err != nil {
		return nil, err
	}
	raw, err := a.c.readAll(d, path)
	if err != nil {
		return nil, err
	}
	if c.headers, err = c.parseHeaders(raw, d.pos); err != nil {
		return nil, err
	}
	if len(c.headers) > n-1 {
		return nil, formatError(g.pos, path, strconv.Itoa(len(c.headers))+" property headers for "+strconv.Itoa(n-1)+" property groups")
	}
	return c, nil
}

// headerReader decodes one header block, starting at byte off of the file.
type headerReader struct {
	b    []byte
	pos  int
	off  int64
	path string
}

func (r *headerReader) uint(hint uint32) (uint32, error) {
	n := 1 << hint // bytes: 1, 2 or 4
	if hint > 2 || len(r.b)-r.pos < n {
		return 0, formatError(r.off+int64(r.pos), r.path, "property header cut short")
	}
	var v uint32
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint32(r.b[r.pos+i])
	}
	r.pos += n
	return v, nil
}

func (c *Compound) parseHeaders(b []byte, off int64) ([]PropertyHeader, error) {
	var hs []PropertyHeader
	names := map[string]bool{}
	r := &headerReader{b: b, off: off, path: c.Path}
	for r.pos < len(b) {
		start := r.off + int64(r.pos)
		info, err := r.uint(2)
		if err != nil {
			return nil, err
		}
		hint := (info & infoSizeHint) >> 2
		var h PropertyHeader
		switch info & infoKind {
		case 0:
			h.Kind = CompoundProperty
		case 1:
			h.Kind = ScalarProperty
		default:
			h.Kind = ArrayProperty
			h.ScalarLike = info&1 != 0
		}
		if h.Kind != CompoundProperty {
			if err := r.sampleFields(&h, info, hint, start); err != nil {
				return nil, err
			}
		}
		n, err := r.uint(hint)
		if err != nil {
			return nil, err
		}
		if n == 0 || uint64(n) > uint64(len(b)-r.pos) {
			return nil, formatError(start, c.Path, "property name of "+strconv.FormatUint(uint64(n), 10)+" bytes does not fit its header")
		}
		h.Name = string(b[r.pos : r.pos+int(n)])
		r.pos += int(n)
		if strings.Contains(h.Name, "/") || names[h.Name] {
			return nil, formatError(start, c.Path, "property name "+strconv.Quote(h.Name)+" is repeated or holds '/'")
		}
		names[h.Name] = true
		if idx := int((info & infoMetadata) >> 20); idx == metadataInline {
			m, err := r.uint(hint)
			if err != nil {
				return nil, err
			}
			if uint64(m) > uint64(len(b)-r.pos) {
				return nil, formatError(start, c.Path+"/"+h.Name, "metadata of "+strconv.FormatUint(uint64(m), 10)+" bytes overruns the headers")
			}
			h.Metadata = parseMetadata(string(b[r.pos : r.pos+int(m)]))
			r.pos += int(m)
		} else if h.Metadata, err = c.a.metadataAt(idx, start, c.Path+"/"+h.Name); err != nil {
			return nil, err
		}
		hs = append(hs, h)
	}
	return hs, nil
}

// sampleFields decodes the fields of a scalar or array property's header.
func (r *headerReader) sampleFields(h *PropertyHeader, info, hint uint32, start int64) error {
	pod := POD((info & infoPOD) >> 4)
	if pod >= numPODs {
		return formatError(start, r.path, "unknown POD type "+strconv.Itoa(int(pod)))
	}
	h.DataType = DataType{POD: pod, Extent: uint8((info & infoExtent) >> 12)}
	if h.DataType.Extent == 0 {
		return formatError(start, r.path, "extent 0")
	}
	h.Homogenous = info&infoHomogenous != 0
	var err error
	if h.NumSamples, err = r.uint(hint); err != nil {
		return err
	}
	switch {
	case info&infoHasFirstLast != 0:
		if h.FirstChanged, err = r.uint(hint); err != nil {
			return err
		}
		if h.LastChanged, err = r.uint(hint); err != nil {
			return err
		}
	case info&infoConstant != 0:
		h.FirstChanged, h.LastChanged = 0, 0
	default:
		h.FirstChanged, h.LastChanged = 1, h.NumSamples-1
	}
	if h.NumSamples > 0 && !(h.FirstChanged == 0 && h.LastChanged == 0) &&
		(h.FirstChanged == 0 || h.FirstChanged > h.LastChanged || h.LastChanged >= h.NumSamples) {
		return formatError(start, r.path, "changed samples "+strconv.FormatUint(uint64(h.FirstChanged), 10)+".."+
			strconv.FormatUint(uint64(h.LastChanged), 10)+" do not lie within the "+strconv.FormatUint(uint64(h.NumSamples), 10)+" samples")
	}
	if info&infoHasTimeSample != 0 {
		if h.TimeSampling, err = r.uint(hint); err != nil {
			return err
		}
	}
	return nil
}

// Headers returns the headers of the compound's properties, in the order written.
func (c *Compound) Headers() []PropertyHeader { return c.headers }

// Has reports whether the compound has a property called name.
func (c *Compound) Has(name string) bool { return c.index(name) >= 0 }

// HeaderOf returns the header of the property called name, and whether it exists.
func (c *Compound) HeaderOf(name string) (PropertyHeader, bool) {
	if i := c.index(name); i >= 0 {
		return c.headers[i], true
	}
	return PropertyHeader{}, false
}

func (c *Compound) index(name string) int {
	for i := range c.headers {
		if c.headers[i].Name == name {
			return i
		}
	}
	return -1
}

// childPath returns the path of property name in c.
func (c *Compound) childPath(name string) string {
	if strings.HasSuffix(c.Path, "/") {
		return c.Path + name
	}
	return c.Path + "/" + name
}

// Compound opens the compound property called name.
func (c *Compound) Compound(name string) (*Compound, error) {
	i := c.index(name)
	if i < 0 {
		return nil, formatError(c.g.pos, c.Path, "no property "+strconv.Quote(name))
	}
	h := c.headers[i]
	if h.Kind != CompoundProperty {
		return nil, formatError(c.g.pos, c.childPath(name), "a "+h.Kind.String()+" property, not a compound")
	}
	if c.g.isData(i) {
		return nil, formatError(c.g.childOffset(i), c.childPath(name), "a data block where the property's group belongs")
	}
	return c.a.openCompound(c.g.children[i], c.g.childOffset(i), h, c.childPath(name), c.depth+1)
}

// Property opens the scalar or array property called name.
func (c *Compound) Property(name string) (*Property, error) {
	i := c.index(name)
	if i < 0 {
		return nil, formatError(c.g.pos, c.Path, "no property "+strconv.Quote(name))
	}
	h := c.headers[i]
	path := c.childPath(name)
	if h.Kind == CompoundProperty {
		return nil, formatError(c.g.pos, path, "a compound property, not a scalar or array")
	}
	ts, err := c.a.timeSampling(h.TimeSampling, path)
	if err != nil {
		return nil, err
	}
	if ts.IsAcyclic() && uint64(h.NumSamples) > uint64(len(ts.Times)) {
		return nil, formatError(c.g.pos, path, strconv.FormatUint(uint64(h.NumSamples), 10)+" samples for an acyclic time sampling of "+
			strconv.Itoa(len(ts.Times))+" times")
	}
	g, err := c.a.c.subgroup(c.g, i, path)
	if err != nil {
		return nil, err
	}
	perSample := 1
	if h.Kind == ArrayProperty {
		perSample = 2
	}
	if need := uint64(h.storedSamples()) * uint64(perSample); uint64(g.len()) < need {
		return nil, formatError(g.pos, path, "the header promises "+strconv.FormatUint(uint64(h.storedSamples()), 10)+
			" stored samples, the group holds "+strconv.Itoa(g.len()/perSample))
	}
	return &Property{a: c.a, Header: h, Path: path, TimeSampling: ts, g: g}, nil
}
