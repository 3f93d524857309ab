package prt

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"

	"snowtools/formats/half"
)

// Meta is one metadata value of a PRT 1.1 file: a string, or an array of
// one or more numbers of a channel data type. Channel is "" for file-level
// metadata (BoundBox, CoordSys, ...) and otherwise the name of the channel
// the value describes (for example Interpretation).
//
// Data holds the value as stored in the file: for numeric types the
// little-endian values back to back (len(Data) is a multiple of
// Type.Size()), for String the UTF-8 text without the terminating NUL.
// The constructors MetaFloat32, MetaString, ... fill it; the getters
// Float64s, Int64s and Text read it.
type Meta struct {
	Channel string
	Name    string
	Type    DataType
	Data    []byte
}

// Standard metadata names of PRT 1.1.
const (
	MetaBoundBox           = "BoundBox"           // file: float32[6] minX, minY, minZ, maxX, maxY, maxZ of Position
	MetaCoordSys           = "CoordSys"           // file: int32, one of the CoordSys constants
	MetaLengthUnitInMeters = "LengthUnitInMeters" // file: float64
	MetaFrameRate          = "FrameRate"          // file: uint32[2] numerator, denominator
	MetaInterpretation     = "Interpretation"     // channel: int32, one of the Interpretation constants
)

// Values of the CoordSys metadata (Krakatoa's coordinate system enum).
const (
	CoordSysUnspecified    = 0
	CoordSysRightHandedYUp = 1 // Maya, Houdini, glTF
	CoordSysRightHandedZUp = 2 // 3ds Max
	CoordSysLeftHandedYUp  = 3
	CoordSysLeftHandedZUp  = 4
)

// Values of the channel Interpretation metadata. Krakatoa refuses a file in
// which a Point, Vector or Normal channel is not float[3], an Orientation
// or Rotation channel not float[4], or a Scalar channel not float[1].
const (
	InterpretationUnspecified = 0
	InterpretationPoint       = 1
	InterpretationVector      = 2
	InterpretationNormal      = 3
	InterpretationOrientation = 4
	InterpretationRotation    = 5
	InterpretationScalar      = 6
)

// MaxMetaChunk is the largest Meta chunk payload (names, type and value)
// the reader accepts and the writer produces: 1 MiB.
const MaxMetaChunk = 1 << 20

// MetaString returns a string metadata entry.
func MetaString(channel, name, s string) Meta {
	return Meta{Channel: channel, Name: name, Type: String, Data: []byte(s)}
}

// MetaFloat32 returns a float32 array metadata entry.
func MetaFloat32(channel, name string, v ...float32) Meta {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return Meta{Channel: channel, Name: name, Type: Float32, Data: b}
}

// MetaFloat64 returns a float64 array metadata entry.
func MetaFloat64(channel, name string, v ...float64) Meta {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return Meta{Channel: channel, Name: name, Type: Float64, Data: b}
}

// MetaInt32 returns an int32 array metadata entry.
func MetaInt32(channel, name string, v ...int32) Meta {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return Meta{Channel: channel, Name: name, Type: Int32, Data: b}
}

// MetaUint32 returns a uint32 array metadata entry.
func MetaUint32(channel, name string, v ...uint32) Meta {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return Meta{Channel: channel, Name: name, Type: Uint32, Data: b}
}

// MetaInt64 returns an int64 array metadata entry.
func MetaInt64(channel, name string, v ...int64) Meta {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(x))
	}
	return Meta{Channel: channel, Name: name, Type: Int64, Data: b}
}

// Len returns the number of values (the arity) of a numeric entry, or 1
// for a string.
func (m Meta) Len() int {
	if m.Type == String {
		return 1
	}
	if s := m.Type.Size(); s > 0 {
		return len(m.Data) / s
	}
	return 0
}

// Float64s returns the values of a numeric entry of any type converted to
// float64 (exactly, except for 64-bit integers beyond 2^53). It reports
// false for strings and unknown types.
func (m Meta) Float64s() ([]float64, bool) {
	if !m.Type.Valid() {
		return nil, false
	}
	n := m.Len()
	v := make([]float64, n)
	for i := range v {
		v[i] = decodeFloat64(m.Type, m.Data[i*m.Type.Size():])
	}
	return v, true
}

// Int64s returns the values of an integer entry converted to int64. It
// reports false for strings, floating-point and unknown types, and for
// uint64 values beyond the int64 range.
func (m Meta) Int64s() ([]int64, bool) {
	if !m.Type.IsInt() {
		return nil, false
	}
	n := m.Len()
	v := make([]int64, n)
	for i := range v {
		x, ok := decodeInt64(m.Type, m.Data[i*m.Type.Size():])
		if !ok {
			return nil, false
		}
		v[i] = x
	}
	return v, true
}

// Text returns the value of a String entry.
func (m Meta) Text() (string, bool) {
	if m.Type != String {
		return "", false
	}
	return string(m.Data), true
}

// String returns a description such as `Position.Interpretation int32[1]`.
func (m Meta) String() string {
	s := metaKey(m.Channel, m.Name)
	if m.Type == String {
		return s + " string " + strconv.Quote(string(m.Data))
	}
	return s + " " + m.Type.String() + "[" + strconv.Itoa(m.Len()) + "]"
}

// payloadSize returns the size of the Meta chunk payload that encodes m.
func (m Meta) payloadSize() int {
	n := len(m.Channel) + 1 + len(m.Name) + 1 + 4 + len(m.Data)
	if m.Type == String {
		n++ // NUL terminator
	}
	return n
}

// check returns a description of what is wrong with m, or "". It does not
// check that m.Channel names an existing channel.
func (m Meta) check() string {
	if m.Channel != "" && !validName(m.Channel) {
		return "metadata " + strconv.Quote(m.Name) + ": channel " + nameProblem(m.Channel)
	}
	if !validName(m.Name) {
		return "metadata " + nameProblem(m.Name)
	}
	switch {
	case m.Type == String:
		if !utf8.Valid(m.Data) {
			return "metadata " + m.Name + ": string is not valid UTF-8"
		}
		for _, c := range m.Data {
			if c == 0 {
				return "metadata " + m.Name + ": string contains a NUL byte"
			}
		}
	case !m.Type.Valid():
		return "metadata " + m.Name + ": unknown data type " + strconv.Itoa(int(m.Type))
	case len(m.Data) == 0 || len(m.Data)%m.Type.Size() != 0:
		return "metadata " + m.Name + ": " + strconv.Itoa(len(m.Data)) +
			" bytes is not a positive multiple of the size of " + m.Type.String()
	}
	if m.payloadSize() > MaxMetaChunk {
		return "metadata " + m.Name + ": value of " + strconv.Itoa(len(m.Data)) +
			" bytes exceeds the " + strconv.Itoa(MaxMetaChunk) + "-byte limit of a Meta chunk"
	}
	return ""
}

// interpretationProblem returns what is wrong with an Interpretation value
// for channel c, or "" if it is compatible (Krakatoa's rules).
func interpretationProblem(m Meta, c Channel) string {
	v, ok := m.Int64s()
	if !ok || len(v) != 1 {
		return "" // only the int32 form of PRT 1.1 is checked
	}
	want := 0
	switch v[0] {
	case InterpretationUnspecified:
		return ""
	case InterpretationPoint, InterpretationVector, InterpretationNormal:
		want = 3
	case InterpretationOrientation, InterpretationRotation:
		want = 4
	case InterpretationScalar:
		want = 1
	default:
		return "channel " + c.Name + ": unknown Interpretation " + strconv.FormatInt(v[0], 10)
	}
	if !c.Type.IsFloat() || c.Arity != want {
		return "channel " + c.Name + ": Interpretation " + strconv.FormatInt(v[0], 10) +
			" needs a float[" + strconv.Itoa(want) + "] channel, not " + c.Type.String() + "[" + strconv.Itoa(c.Arity) + "]"
	}
	return ""
}

// decodeFloat64 decodes one value of numeric type t from the front of b.
func decodeFloat64(t DataType, b []byte) float64 {
	switch t {
	case Float16:
		return float64(half.ToFloat32(binary.LittleEndian.Uint16(b)))
	case Float32:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case Float64:
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case Uint64:
		return float64(binary.LittleEndian.Uint64(b))
	}
	x, _ := decodeInt64(t, b)
	return float64(x)
}

// decodeInt64 decodes one value of integer type t from the front of b. It
// reports false if t is not an integer type or the value does not fit.
func decodeInt64(t DataType, b []byte) (int64, bool) {
	le := binary.LittleEndian
	switch t {
	case Int8:
		return int64(int8(b[0])), true
	case Uint8:
		return int64(b[0]), true
	case Int16:
		return int64(int16(le.Uint16(b))), true
	case Uint16:
		return int64(le.Uint16(b)), true
	case Int32:
		return int64(int32(le.Uint32(b))), true
	case Uint32:
		return int64(le.Uint32(b)), true
	case Int64:
		return int64(le.Uint64(b)), true
	case Uint64:
		x := le.Uint64(b)
		return int64(x), x <= math.MaxInt64
	}
	return 0, false
}

// metaKey names a metadata entry: "Name" for the file, "Channel.Name" for
// a channel.
func metaKey(channel, name string) string {
	if channel == "" {
		return name
	}
	return channel + "." + name
}
