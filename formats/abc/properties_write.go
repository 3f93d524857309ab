package abc

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// A CompoundWriter is a compound property being written: add properties to it.
type CompoundWriter struct {
	w      *Writer
	header PropertyHeader
	path   string
	props  []propertyWriter
}

// propertyWriter is a property of a compound being written.
type propertyWriter interface {
	// finish writes the property's group and returns its reference, its final
	// header and its hash.
	finish() (uint64, PropertyHeader, Digest)
	name() string
}

func (c *CompoundWriter) name() string { return c.header.Name }

// Path returns the compound's path.
func (c *CompoundWriter) Path() string { return c.path }

func (c *CompoundWriter) add(name string) (string, error) {
	if err := checkName(name, c.path); err != nil {
		return "", err
	}
	if c.w.closed {
		return "", errors.New("abc: " + c.path + ": property added after Close")
	}
	for _, p := range c.props {
		if p.name() == name {
			return "", errors.New("abc: " + c.path + " already has a property called " + strconv.Quote(name))
		}
	}
	if c.path == "/" {
		return "/" + name, nil
	}
	return c.path + "/" + name, nil
}

// AddCompound adds a compound property called name with metadata md.
func (c *CompoundWriter) AddCompound(name string, md Metadata) (*CompoundWriter, error) {
	path, err := c.add(name)
	if err != nil {
		return nil, err
	}
	if _, err := md.serialize(); err != nil {
		return nil, err
	}
	cw := &CompoundWriter{w: c.w, header: PropertyHeader{Name: name, Kind: CompoundProperty, Metadata: md}, path: path}
	c.props = append(c.props, cw)
	return cw, nil
}

// AddScalar adds a scalar property: one element of type dt per sample, at time
// sampling ts (an index from Writer.AddTimeSampling; 0 is the identity sampling).
func (c *CompoundWriter) AddScalar(name string, dt DataType, md Metadata, ts uint32) (*PropertyWriter, error) {
	return c.addProperty(name, ScalarProperty, dt, md, ts)
}

// AddArray adds an array property: any number of elements of type dt per sample.
func (c *CompoundWriter) AddArray(name string, dt DataType, md Metadata, ts uint32) (*PropertyWriter, error) {
	return c.addProperty(name, ArrayProperty, dt, md, ts)
}

func (c *CompoundWriter) addProperty(name string, kind PropertyKind, dt DataType, md Metadata, ts uint32) (*PropertyWriter, error) {
	path, err := c.add(name)
	if err != nil {
		return nil, err
	}
	if dt.POD >= numPODs || dt.Extent == 0 {
		return nil, errors.New("abc: " + path + ": invalid data type " + dt.String())
	}
	if int(ts) >= len(c.w.timeSamplings) {
		return nil, errors.New("abc: " + path + ": no time sampling " + strconv.FormatUint(uint64(ts), 10))
	}
	if _, err := md.serialize(); err != nil {
		return nil, err
	}
	p := &PropertyWriter{w: c.w, path: path, header: PropertyHeader{Name: name, Kind: kind, Metadata: md, DataType: dt,
		TimeSampling: ts, Homogenous: true, ScalarLike: kind == ArrayProperty}}
	c.props = append(c.props, p)
	return p, nil
}

// finish writes the compound's properties, then its header block and its group.
func (c *CompoundWriter) finish() (uint64, PropertyHeader, Digest) {
	var refs []uint64
	var headers, hashes []byte
	for _, p := range c.props {
		ref, h, hash := p.finish()
		refs = append(refs, ref)
		hashes = append(hashes, hash[:]...)
		headers = c.w.appendPropertyHeader(headers, &h)
	}
	if len(headers) > 0 {
		refs = append(refs, c.w.o.data(headers))
	}
	var hash Digest
	if len(hashes) > 0 {
		hash = Sum128(hashes)
	}
	return c.w.o.group(refs), c.header, hash
}

// appendPropertyHeader encodes h as properties.go describes, with the smallest size
// hint that holds its sizes and indices.
func (w *Writer) appendPropertyHeader(b []byte, h *PropertyHeader) []byte {
	md, _ := h.Metadata.serialize()
	largest := max(uint32(len(md)), uint32(len(h.Name)), h.NumSamples, h.TimeSampling)
	var hint uint32
	switch {
	case largest >= 65536:
		hint = 2
	case largest > 255:
		hint = 1
	}
	idx := w.metadataIndex(md)
	info := hint<<2 | uint32(idx)<<20
	put := func(v uint32) {
		for i := 0; i < 1<<hint; i++ {
			b = append(b, byte(v>>(8*i)))
		}
	}
	if h.Kind == CompoundProperty {
		b = binary.LittleEndian.AppendUint32(b, info)
	} else {
		info |= uint32(h.Kind)
		if h.Kind == ArrayProperty && h.ScalarLike {
			info |= 1
		}
		info |= uint32(h.DataType.POD) << 4
		info |= uint32(h.DataType.Extent) << 12
		if h.TimeSampling != 0 {
			info |= infoHasTimeSample
		}
		if h.Homogenous {
			info |= infoHomogenous
		}
		firstLast := false
		switch {
		case h.FirstChanged == 0 && h.LastChanged == 0:
			info |= infoConstant
		case h.FirstChanged != 1 || h.LastChanged != h.NumSamples-1:
			info |= infoHasFirstLast
			firstLast = true
		}
		b = binary.LittleEndian.AppendUint32(b, info)
		put(h.NumSamples)
		if firstLast {
			put(h.FirstChanged)
			put(h.LastChanged)
		}
		if h.TimeSampling != 0 {
			put(h.TimeSampling)
		}
	}
	put(uint32(len(h.Name)))
	b = append(b, h.Name...)
	if idx == metadataInline {
		put(uint32(len(md)))
		b = append(b, md...)
	}
	return b
}

// A PropertyWriter is a scalar or array property being written, one sample at a
// time.
type PropertyWriter struct {
	w        *Writer
	path     string
	header   PropertyHeader
	children []uint64 // per stored sample: its data (and, for arrays, its dimensions)
	prev     sampleKey
	prevRefs []uint64 // the children of the last stored sample
	prevLen  uint64   // its element count
	hash     Digest   // running digest of every sample's key
}

func (p *PropertyWriter) name() string { return p.header.Name }

// Path returns the property's path.
func (p *PropertyWriter) Path() string { return p.path }

// NumSamples returns the number of samples written so far.
func (p *PropertyWriter) NumSamples() int { return int(p.header.NumSamples) }

// WriteSample adds the next sample: data holds its elements' values back to back,
// little-endian (strings each ended by a NUL, wstrings by a 32-bit 0), and dims its
// dimensions when an array sample has more than one (nil otherwise). A scalar sample
// holds exactly one element.
func (p *PropertyWriter) WriteSample(data []byte, dims []uint64) error {
	if p.w.closed {
		return errors.New("abc: " + p.path + ": sample written after Close")
	}
	h := &p.header
	n, err := p.elements(data, dims)
	if err != nil {
		return p.w.fail(err)
	}
	if ts := p.w.timeSamplings[h.TimeSampling]; ts.IsAcyclic() && int(h.NumSamples) >= len(ts.Times) {
		return p.w.fail(errors.New("abc: " + p.path + ": more samples than the acyclic time sampling has times"))
	}
	if h.NumSamples == ^uint32(0) {
		return p.w.fail(errors.New("abc: " + p.path + ": too many samples"))
	}
	key := sampleKey{digest: Sum128(data), size: len(data), pod: Int8}
	if h.DataType.POD == String || h.DataType.POD == Wstring {
		key.pod = h.DataType.POD
	}
	if h.NumSamples == 0 || key != p.prev {
		// Store the repeats of the previous sample since the last change, then this one.
		if h.FirstChanged != 0 {
			for i := h.LastChanged + 1; i < h.NumSamples; i++ {
				p.children = append(p.children, p.prevRefs...)
			}
		}
		refs := []uint64{p.w.writeSample(key, data)}
		if h.Kind == ArrayProperty {
			refs = append(refs, p.dimsRef(dims, n))
			if n != 1 {
				h.ScalarLike = false
			}
			if h.NumSamples > 0 && n != p.prevLen {
				h.Homogenous = false
			}
		}
		p.children = append(p.children, refs...)
		p.prev, p.prevRefs, p.prevLen = key, refs, n
		if h.FirstChanged == 0 {
			h.FirstChanged = h.NumSamples
		}
		h.LastChanged = h.NumSamples
	}
	p.hash = Sum128(append(p.hash[:], key.digest[:]...))
	h.NumSamples++
	if p.w.o.err != nil {
		return p.w.fail(p.w.o.err)
	}
	return nil
}

// elements checks a sample's size against the property's type and returns its
// element count.
func (p *PropertyWriter) elements(data []byte, dims []uint64) (uint64, error) {
	dt := p.header.DataType
	var n uint64
	if size := dt.Bytes(); size > 0 {
		if len(data)%size != 0 {
			return 0, errors.New("abc: " + p.path + ": " + strconv.Itoa(len(data)) + " bytes is not a whole number of " + dt.String())
		}
		n = uint64(len(data) / size)
	} else {
		var terminators int
		if dt.POD == String {
			for _, c := range data {
				if c == 0 {
					terminators++
				}
			}
			if len(data) > 0 && data[len(data)-1] != 0 {
				return 0, errors.New("abc: " + p.path + ": string data does not end with a NUL")
			}
		} else {
			if len(data)%4 != 0 {
				return 0, errors.New("abc: " + p.path + ": wstring data is not whole 32-bit characters")
			}
			for k := 0; k < len(data); k += 4 {
				if binary.LittleEndian.Uint32(data[k:]) == 0 {
					terminators++
				}
			}
			if len(data) > 0 && binary.LittleEndian.Uint32(data[len(data)-4:]) != 0 {
				return 0, errors.New("abc: " + p.path + ": wstring data does not end with a 0")
			}
		}
		if terminators%int(dt.Extent) != 0 {
			return 0, errors.New("abc: " + p.path + ": " + strconv.Itoa(terminators) + " strings for extent " + strconv.Itoa(int(dt.Extent)))
		}
		n = uint64(terminators / int(dt.Extent))
	}
	if p.header.Kind == ScalarProperty {
		if n != 1 || dims != nil {
			return 0, errors.New("abc: " + p.path + ": a scalar sample holds one " + dt.String() + ", not " + strconv.FormatUint(n, 10))
		}
		return n, nil
	}
	if dims != nil {
		product := uint64(1)
		for _, d := range dims {
			product *= d
		}
		if len(dims) == 0 || product != n {
			return 0, errors.New("abc: " + p.path + ": dimensions do not match the " + strconv.FormatUint(n, 10) + " elements")
		}
	}
	return n, nil
}

// dimsRef writes an array sample's dimensions: an empty block for one dimension of a
// numeric type, whose count follows from the data size; the uint64 dimensions
// otherwise (always for strings, whose sizes vary).
func (p *PropertyWriter) dimsRef(dims []uint64, n uint64) uint64 {
	numeric := p.header.DataType.Bytes() > 0
	if numeric && len(dims) <= 1 {
		return dataBit
	}
	if dims == nil {
		dims = []uint64{n}
	}
	var b []byte
	for _, d := range dims {
		b = binary.LittleEndian.AppendUint64(b, d)
	}
	return p.w.o.data(b)
}

// finish writes the property's group and updates its time sampling's sample count.
func (p *PropertyWriter) finish() (uint64, PropertyHeader, Digest) {
	h := p.header
	stored := h.NumSamples
	if h.LastChanged == 0 && stored > 0 {
		stored = 1
	}
	if stored > p.w.maxSamples[h.TimeSampling] {
		p.w.maxSamples[h.TimeSampling] = stored
	}
	md, _ := h.Metadata.serialize()
	hash := Sum128(append(append([]byte(h.Name+"\x00"+md+"\x00"), byte(h.DataType.POD), h.DataType.Extent, byte(h.Kind)), p.hash[:]...))
	return p.w.o.group(p.children), h, hash
}
