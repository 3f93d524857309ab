package abc

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"

	"snowtools/formats/half"
)

// A Property is a scalar or array property open for reading its samples.
type Property struct {
	a            *Archive
	Header       PropertyHeader
	Path         string
	TimeSampling TimeSampling
	g            *group
}

// NumSamples returns the number of samples.
func (p *Property) NumSamples() int { return int(p.Header.NumSamples) }

// IsConstant reports whether every sample is the same.
func (p *Property) IsConstant() bool { return p.Header.FirstChanged == 0 }

// SampleTime returns the time of sample i in seconds.
func (p *Property) SampleTime(i int) float64 { return p.TimeSampling.SampleTime(i) }

// A Sample is one sample of a property: its values' little-endian bytes as the file
// holds them.
type Sample struct {
	Type DataType
	// Dims are an array sample's dimensions (one entry for a plain array, whose
	// element count it is); nil for a scalar sample.
	Dims []uint64
	// Data holds the elements' values back to back, little-endian; for the string
	// types, each string is ended by a NUL (a 32-bit 0 for Wstring).
	Data []byte
	// Key is the digest the file stores with the sample.
	Key Digest
}

// Len returns the number of elements: 1 for a scalar sample, the product of Dims for
// an array sample.
func (s *Sample) Len() int {
	if s.Dims == nil {
		return 1
	}
	n := 1
	for _, d := range s.Dims {
		n *= int(d)
	}
	return n
}

// Read returns sample i (below NumSamples). buf, if large enough, holds the returned
// Data, so that a loop over samples can reuse one buffer. Every size is checked
// against the data block that holds the sample before it sizes an allocation.
func (p *Property) Read(i int, buf []byte) (*Sample, error) {
	if i < 0 || i >= p.NumSamples() {
		return nil, formatError(-1, p.Path, "sample "+strconv.Itoa(i)+" asked for, the property has "+strconv.Itoa(p.NumSamples()))
	}
	return p.readStored(int(p.Header.storedIndex(uint32(i))), buf)
}

// NumStored returns the number of distinct samples the property's group holds: the
// only ones a reader must visit to see every value.
func (p *Property) NumStored() int { return int(p.Header.storedSamples()) }

// readStored reads stored sample j.
func (p *Property) readStored(j int, buf []byte) (*Sample, error) {
	h := &p.Header
	c := p.a.c
	dataIndex := j
	if h.Kind == ArrayProperty {
		dataIndex = 2 * j
	}
	d, err := c.data(p.g, dataIndex, p.Path)
	if err != nil {
		return nil, err
	}
	s := &Sample{Type: h.DataType}
	var payload int64
	switch {
	case d.size == 0:
		// The empty sample: an array of no elements.
	case d.size < 16:
		return nil, formatError(d.pos-8, p.Path, "sample of "+strconv.FormatInt(d.size, 10)+" bytes, too small for its 16-byte key")
	default:
		key, err := c.read(d, 0, 16, nil, p.Path)
		if err != nil {
			return nil, err
		}
		copy(s.Key[:], key)
		payload = d.size - 16
	}
	if s.Data, err = c.read(d, 16, payload, buf, p.Path); payload > 0 && err != nil {
		return nil, err
	}
	s.Data = s.Data[:payload]
	count, err := p.countElements(s, d)
	if err != nil {
		return nil, err
	}
	if h.Kind == ScalarProperty {
		if count != 1 {
			return nil, formatError(d.pos-8, p.Path, "scalar sample holds "+strconv.FormatInt(count, 10)+" elements of "+h.DataType.String())
		}
		return s, nil
	}
	dims, err := c.data(p.g, dataIndex+1, p.Path)
	if err != nil {
		return nil, err
	}
	if dims.size == 0 {
		if h.DataType.Bytes() == 0 && payload > 0 {
			return nil, formatError(dims.pos, p.Path, "string array sample without dimensions")
		}
		s.Dims = []uint64{uint64(count)}
		return s, nil
	}
	if dims.size%8 != 0 || dims.size > 8*64 {
		return nil, formatError(dims.pos-8, p.Path, "dimensions block of "+strconv.FormatInt(dims.size, 10)+" bytes")
	}
	raw, err := c.readAll(dims, p.Path)
	if err != nil {
		return nil, err
	}
	s.Dims = make([]uint64, len(raw)/8)
	product := uint64(1)
	for k := range s.Dims {
		s.Dims[k] = binary.LittleEndian.Uint64(raw[8*k:])
		if s.Dims[k] != 0 && product > math.MaxInt64/s.Dims[k] {
			return nil, formatError(dims.pos-8, p.Path, "dimensions overflow")
		}
		product *= s.Dims[k]
	}
	if product != uint64(count) {
		return nil, formatError(dims.pos-8, p.Path, "dimensions hold "+strconv.FormatUint(product, 10)+
			" elements, the sample "+strconv.FormatInt(count, 10))
	}
	return s, nil
}

// countElements returns the number of elements in s's payload: its size over the
// element size, or for strings the number of terminators over the extent.
func (p *Property) countElements(s *Sample, d block) (int64, error) {
	dt := p.Header.DataType
	if size := int64(dt.Bytes()); size > 0 {
		if int64(len(s.Data))%size != 0 {
			return 0, formatError(d.pos-8, p.Path, "sample of "+strconv.Itoa(len(s.Data))+" bytes is not a whole number of "+
				dt.String()+" elements")
		}
		return int64(len(s.Data)) / size, nil
	}
	var strings int64
	if dt.POD == String {
		strings = int64(bytes.Count(s.Data, []byte{0}))
		if len(s.Data) > 0 && s.Data[len(s.Data)-1] != 0 {
			return 0, formatError(d.pos-8, p.Path, "string sample does not end with a NUL")
		}
	} else {
		if len(s.Data)%4 != 0 {
			return 0, formatError(d.pos-8, p.Path, "wstring sample is not a whole number of 32-bit characters")
		}
		for k := 0; k < len(s.Data); k += 4 {
			if binary.LittleEndian.Uint32(s.Data[k:]) == 0 {
				strings++
			}
		}
		if len(s.Data) > 0 && binary.LittleEndian.Uint32(s.Data[len(s.Data)-4:]) != 0 {
			return 0, formatError(d.pos-8, p.Path, "wstring sample does not end with a 0")
		}
	}
	if strings%int64(dt.Extent) != 0 {
		return 0, formatError(d.pos-8, p.Path, strconv.FormatInt(strings, 10)+" strings for extent "+strconv.Itoa(int(dt.Extent)))
	}
	return strings / int64(dt.Extent), nil
}

// Float64s returns the sample's values (Len() * Extent of them) as float64, from any
// numeric type (bool as 0 or 1).
func (s *Sample) Float64s() ([]float64, error) {
	size := s.Type.POD.Size()
	if size == 0 {
		return nil, errNotNumeric(s.Type)
	}
	out := make([]float64, len(s.Data)/size)
	for i := range out {
		out[i] = decodeFloat(s.Type.POD, s.Data[size*i:])
	}
	return out, nil
}

// Float32s returns the sample's values as float32, from a floating-point type.
func (s *Sample) Float32s() ([]float32, error) {
	switch s.Type.POD {
	case Float32:
		out := make([]float32, len(s.Data)/4)
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(s.Data[4*i:]))
		}
		return out, nil
	case Float16, Float64:
		size := s.Type.POD.Size()
		out := make([]float32, len(s.Data)/size)
		for i := range out {
			out[i] = float32(decodeFloat(s.Type.POD, s.Data[size*i:]))
		}
		return out, nil
	}
	return nil, errNotFloat(s.Type)
}

// Int64s returns the sample's values as int64, from an integer type (a uint64 above
// the int64 range is an error).
func (s *Sample) Int64s() ([]int64, error) {
	size := s.Type.POD.Size()
	if s.Type.POD > Int64 || size == 0 {
		return nil, errNotInteger(s.Type)
	}
	out := make([]int64, len(s.Data)/size)
	for i := range out {
		v, ok := decodeInt(s.Type.POD, s.Data[size*i:])
		if !ok {
			return nil, &FormatError{Offset: -1, Msg: "value " + strconv.Itoa(i) + " does not fit an int64"}
		}
		out[i] = v
	}
	return out, nil
}

// Int32s returns the sample's values as int32, from an integer type; a value outside
// the int32 range is an error.
func (s *Sample) Int32s() ([]int32, error) {
	if s.Type.POD == Int32 {
		out := make([]int32, len(s.Data)/4)
		for i := range out {
			out[i] = int32(binary.LittleEndian.Uint32(s.Data[4*i:]))
		}
		return out, nil
	}
	wide, err := s.Int64s()
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(wide))
	for i, v := range wide {
		if v != int64(int32(v)) {
			return nil, &FormatError{Offset: -1, Msg: "value " + strconv.Itoa(i) + " does not fit an int32"}
		}
		out[i] = int32(v)
	}
	return out, nil
}

// Strings returns the sample's strings (Len() * Extent of them), from String or
// Wstring.
func (s *Sample) Strings() ([]string, error) {
	var out []string
	switch s.Type.POD {
	case String:
		for rest := s.Data; len(rest) > 0; {
			str, tail, _ := bytes.Cut(rest, []byte{0})
			out = append(out, string(str))
			rest = tail
		}
	case Wstring:
		var runes []rune
		for k := 0; k+4 <= len(s.Data); k += 4 {
			if c := binary.LittleEndian.Uint32(s.Data[k:]); c != 0 {
				runes = append(runes, rune(c))
				continue
			}
			out = append(out, string(runes))
			runes = runes[:0]
		}
	default:
		return nil, &FormatError{Offset: -1, Msg: s.Type.String() + " values are not strings"}
	}
	return out, nil
}

// decodeFloat returns the value of type pod at the start of b.
func decodeFloat(pod POD, b []byte) float64 {
	switch pod {
	case Float16:
		return float64(half.ToFloat32(binary.LittleEndian.Uint16(b)))
	case Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case Float64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case Uint64:
		return float64(binary.LittleEndian.Uint64(b))
	}
	v, _ := decodeInt(pod, b)
	return float64(v)
}

// decodeInt returns the integer of type pod at the start of b, and false for a
// uint64 beyond the int64 range.
func decodeInt(pod POD, b []byte) (int64, bool) {
	switch pod {
	case Bool:
		if b[0] != 0 {
			return 1, true
		}
		return 0, true
	case Uint8:
		return int64(b[0]), true
	case Int8:
		return int64(int8(b[0])), true
	case Uint16:
		return int64(binary.LittleEndian.Uint16(b)), true
	case Int16:
		return int64(int16(binary.LittleEndian.Uint16(b))), true
	case Uint32:
		return int64(binary.LittleEndian.Uint32(b)), true
	case Int32:
		return int64(int32(binary.LittleEndian.Uint32(b))), true
	case Uint64:
		v := binary.LittleEndian.Uint64(b)
		return int64(v), v <= math.MaxInt64
	case Int64:
		return int64(binary.LittleEndian.Uint64(b)), true
	}
	return 0, false
}

func errNotNumeric(t DataType) error {
	return &FormatError{Offset: -1, Msg: t.String() + " values are not numbers"}
}

func errNotFloat(t DataType) error {
	return &FormatError{Offset: -1, Msg: t.String() + " values are not floating point"}
}

func errNotInteger(t DataType) error {
	return &FormatError{Offset: -1, Msg: t.String() + " values are not integers"}
}
