package prt

import (
	"encoding/binary"
	"fmt"
	"math"

	"snowtools/formats/half"
)

// The Put methods store values into a particle record (a byte slice of
// Header.ParticleSize bytes) at the channel's offset, little-endian, so that
// callers never do byte arithmetic. Each takes exactly Arity values and
// requires the channel to be of the named type; like the Put methods of
// encoding/binary they panic on misuse (wrong type, wrong number of values,
// record too short), which is a programming error since the caller built
// the header.

// field returns the bytes of c in rec after checking the type and count.
func (c Channel) field(rec []byte, t DataType, n int, method string) []byte {
	if c.Type != t {
		panic(fmt.Sprintf("prt: Channel.%s on %s channel %s", method, c.Type, c.Name))
	}
	if n != c.Arity {
		panic(fmt.Sprintf("prt: Channel.%s: %d values for channel %s of arity %d", method, n, c.Name, c.Arity))
	}
	if c.Offset < 0 || c.End() > len(rec) {
		panic(fmt.Sprintf("prt: Channel.%s: record of %d bytes too short for channel %s", method, len(rec), c))
	}
	return rec[c.Offset:c.End()]
}

// PutFloat16s stores v, rounded to IEEE half precision, in a Float16 channel.
func (c Channel) PutFloat16s(rec []byte, v ...float32) {
	b := c.field(rec, Float16, len(v), "PutFloat16s")
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], half.FromFloat32(x))
	}
}

// PutFloat32s stores v in a Float32 channel.
func (c Channel) PutFloat32s(rec []byte, v ...float32) {
	b := c.field(rec, Float32, len(v), "PutFloat32s")
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
}

// PutFloat64s stores v in a Float64 channel.
func (c Channel) PutFloat64s(rec []byte, v ...float64) {
	b := c.field(rec, Float64, len(v), "PutFloat64s")
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
}

// PutFloats stores v in a channel of any floating-point type, converting
// (and rounding) to it. It suits channels whose precision is a user choice,
// such as Velocity as float16 or float32.
func (c Channel) PutFloats(rec []byte, v ...float64) {
	if !c.Type.IsFloat() {
		panic(fmt.Sprintf("prt: Channel.PutFloats on %s channel %s", c.Type, c.Name))
	}
	b := c.field(rec, c.Type, len(v), "PutFloats")
	for i, x := range v {
		switch c.Type {
		case Float16:
			binary.LittleEndian.PutUint16(b[2*i:], half.FromFloat32(float32(x)))
		case Float32:
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(x)))
		default:
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
	}
}

// PutInt8s stores v in an Int8 channel.
func (c Channel) PutInt8s(rec []byte, v ...int8) {
	b := c.field(rec, Int8, len(v), "PutInt8s")
	for i, x := range v {
		b[i] = byte(x)
	}
}

// PutUint8s stores v in a Uint8 channel.
func (c Channel) PutUint8s(rec []byte, v ...uint8) {
	b := c.field(rec, Uint8, len(v), "PutUint8s")
	copy(b, v)
}

// PutInt16s stores v in an Int16 channel.
func (c Channel) PutInt16s(rec []byte, v ...int16) {
	b := c.field(rec, Int16, len(v), "PutInt16s")
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
	}
}

// PutUint16s stores v in a Uint16 channel.
func (c Channel) PutUint16s(rec []byte, v ...uint16) {
	b := c.field(rec, Uint16, len(v), "PutUint16s")
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
}

// PutInt32s stores v in an Int32 channel.
func (c Channel) PutInt32s(rec []byte, v ...int32) {
	b := c.field(rec, Int32, len(v), "PutInt32s")
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
}

// PutUint32s stores v in a Uint32 channel.
func (c Channel) PutUint32s(rec []byte, v ...uint32) {
	b := c.field(rec, Uint32, len(v), "PutUint32s")
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
}

// PutInt64s stores v in an Int64 channel.
func (c Channel) PutInt64s(rec []byte, v ...int64) {
	b := c.field(rec, Int64, len(v), "PutInt64s")
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
}

// PutUint64s stores v in a Uint64 channel.
func (c Channel) PutUint64s(rec []byte, v ...uint64) {
	b := c.field(rec, Uint64, len(v), "PutUint64s")
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
}

// The Append methods decode a channel from a record read from a file. As
// the channel types come from the file, a type that does not fit is an
// error, not a panic.

// view returns the bytes of c in rec, checking the kind of type.
func (c Channel) view(rec []byte, ok bool, want string) ([]byte, error) {
	if !ok {
		return nil, fmt.Errorf("prt: channel %s is %s, not %s", c.Name, c.Type, want)
	}
	if c.Arity <= 0 || c.Offset < 0 || c.End() > len(rec) {
		return nil, fmt.Errorf("prt: record of %d bytes too short for channel %s", len(rec), c)
	}
	return rec[c.Offset:c.End()], nil
}

// AppendFloat32s appends the Arity values of c in rec to dst, converted
// from float16, float32 or float64 (float64 rounds to the nearest float32).
func (c Channel) AppendFloat32s(dst []float32, rec []byte) ([]float32, error) {
	b, err := c.view(rec, c.Type.IsFloat(), "a floating-point type")
	if err != nil {
		return dst, err
	}
	le := binary.LittleEndian
	for i := range c.Arity {
		switch c.Type {
		case Float16:
			dst = append(dst, half.ToFloat32(le.Uint16(b[2*i:])))
		case Float32:
			dst = append(dst, math.Float32frombits(le.Uint32(b[4*i:])))
		default:
			dst = append(dst, float32(math.Float64frombits(le.Uint64(b[8*i:]))))
		}
	}
	return dst, nil
}

// AppendFloat64s appends the Arity values of c in rec to dst, converted
// exactly from float16, float32 or float64.
func (c Channel) AppendFloat64s(dst []float64, rec []byte) ([]float64, error) {
	b, err := c.view(rec, c.Type.IsFloat(), "a floating-point type")
	if err != nil {
		return dst, err
	}
	size := c.Type.Size()
	for i := range c.Arity {
		dst = append(dst, decodeFloat64(c.Type, b[i*size:]))
	}
	return dst, nil
}

// AppendInt64s appends the Arity values of c in rec to dst, converted from
// any integer type. A uint64 value above math.MaxInt64 is an error.
func (c Channel) AppendInt64s(dst []int64, rec []byte) ([]int64, error) {
	b, err := c.view(rec, c.Type.IsInt(), "an integer type")
	if err != nil {
		return dst, err
	}
	size := c.Type.Size()
	for i := range c.Arity {
		x, ok := decodeInt64(c.Type, b[i*size:])
		if !ok {
			return dst, fmt.Errorf("prt: channel %s: value %d does not fit in an int64", c.Name, binary.LittleEndian.Uint64(b[i*size:]))
		}
		dst = append(dst, x)
	}
	return dst, nil
}
