package ply

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// Format is the encoding of the records that follow the header.
//
// The zero Format is invalid, so that a Header always says what it wants:
// NewWriter rejects it.
type Format uint8

const (
	ASCII              Format = iota + 1 // one text line per record
	BinaryLittleEndian                   // packed records, little-endian
	BinaryBigEndian                      // packed records, big-endian
)

var formatNames = [...]string{
	ASCII:              "ascii",
	BinaryLittleEndian: "binary_little_endian",
	BinaryBigEndian:    "binary_big_endian",
}

// Valid reports whether f is ASCII, BinaryLittleEndian or BinaryBigEndian.
func (f Format) Valid() bool { return f >= ASCII && f <= BinaryBigEndian }

// String returns the name of f as the format line of a header spells it
// ("ascii", "binary_little_endian", "binary_big_endian"), or "Format(n)".
func (f Format) String() string {
	if !f.Valid() {
		return "Format(" + strconv.Itoa(int(f)) + ")"
	}
	return formatNames[f]
}

// Type is the type of a scalar property, of the items of a list property,
// or of a list's item count.
//
// The zero Type is invalid.
type Type uint8

// The eight scalar types of PLY. The writer always spells them with these
// classic names, because Blender 3.4's importer (io_mesh_ply) knows no
// others; the reader also accepts the aliases int8, uint8, int16, uint16,
// int32, uint32, float32 and float64.
const (
	Char   Type = iota + 1 // int8
	Uchar                  // uint8
	Short                  // int16
	Ushort                 // uint16
	Int                    // int32
	Uint                   // uint32
	Float                  // float32
	Double                 // float64
)

var typeInfo = [...]struct {
	name, alias string
	size        int
	min, max    int64 // range of the integer types
}{
	Char:   {"char", "int8", 1, math.MinInt8, math.MaxInt8},
	Uchar:  {"uchar", "uint8", 1, 0, math.MaxUint8},
	Short:  {"short", "int16", 2, math.MinInt16, math.MaxInt16},
	Ushort: {"ushort", "uint16", 2, 0, math.MaxUint16},
	Int:    {"int", "int32", 4, math.MinInt32, math.MaxInt32},
	Uint:   {"uint", "uint32", 4, 0, math.MaxUint32},
	Float:  {"float", "float32", 4, 0, 0},
	Double: {"double", "float64", 8, 0, 0},
}

// typeNames lists the accepted spellings, for error messages.
const typeNames = "char uchar short ushort int uint float double, or int8 uint8 int16 uint16 int32 uint32 float32 float64"

// parseType returns the Type spelled s, by its classic name or its alias.
func parseType(s []byte) (Type, bool) {
	for t := Char; t <= Double; t++ {
		if string(s) == typeInfo[t].name || string(s) == typeInfo[t].alias {
			return t, true
		}
	}
	return 0, false
}

// Valid reports whether t is one of the eight PLY types.
func (t Type) Valid() bool { return t >= Char && t <= Double }

// Size returns the size in bytes of one value of type t, or 0 if t is
// invalid.
func (t Type) Size() int {
	if !t.Valid() {
		return 0
	}
	return typeInfo[t].size
}

// IsFloat reports whether t is Float or Double.
func (t Type) IsFloat() bool { return t == Float || t == Double }

// IsInt reports whether t is one of the six integer types, the types a
// list's item count may have.
func (t Type) IsInt() bool { return t.Valid() && !t.IsFloat() }

// String returns the classic name of t ("float", "uchar", ...), the name
// the writer puts in headers, or "Type(n)".
func (t Type) String() string {
	if !t.Valid() {
		return "Type(" + strconv.Itoa(int(t)) + ")"
	}
	return typeInfo[t].name
}

// The Append and decode methods below convert between Go numbers and the
// little-endian bytes of the packed record layout (see Element), so that
// callers build and take apart records without byte arithmetic.

// AppendInt appends v, converted to t, to dst as little-endian bytes. For
// an integer type an out-of-range v wraps around as a Go conversion does;
// for Float and Double it is rounded to the nearest value. It panics if t
// is invalid.
func (t Type) AppendInt(dst []byte, v int64) []byte {
	switch t {
	case Float:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v)))
	case Double:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(float64(v)))
	}
	return appendBits(dst, t, uint64(v))
}

// AppendFloat appends v, converted to t, to dst as little-endian bytes.
// For an integer type v is truncated toward zero and must be within the
// type's range (else the result is unspecified, as for Go conversions). It
// panics if t is invalid.
func (t Type) AppendFloat(dst []byte, v float64) []byte {
	switch t {
	case Float:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v)))
	case Double:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
	case Uint:
		return appendBits(dst, t, uint64(uint32(v)))
	}
	return appendBits(dst, t, uint64(int64(v)))
}

// appendBits appends the low t.Size() bytes of u, little-endian.
func appendBits(dst []byte, t Type, u uint64) []byte {
	switch t.Size() {
	case 1:
		return append(dst, byte(u))
	case 2:
		return binary.LittleEndian.AppendUint16(dst, uint16(u))
	case 4:
		return binary.LittleEndian.AppendUint32(dst, uint32(u))
	case 8:
		return binary.LittleEndian.AppendUint64(dst, u)
	}
	panic("ply: AppendInt/AppendFloat with invalid " + t.String())
}

// Int64 decodes the little-endian value of type t at the start of b. Float
// and Double values are truncated toward zero (NaN and infinities give an
// unspecified result). It panics if b is shorter than t.Size() or t is
// invalid.
func (t Type) Int64(b []byte) int64 {
	le := binary.LittleEndian
	switch t {
	case Char:
		return int64(int8(b[0]))
	case Uchar:
		return int64(b[0])
	case Short:
		return int64(int16(le.Uint16(b)))
	case Ushort:
		return int64(le.Uint16(b))
	case Int:
		return int64(int32(le.Uint32(b)))
	case Uint:
		return int64(le.Uint32(b))
	case Float:
		return int64(math.Float32frombits(le.Uint32(b)))
	case Double:
		return int64(math.Float64frombits(le.Uint64(b)))
	}
	panic("ply: Int64 of invalid " + t.String())
}

// Float64 decodes the little-endian value of type t at the start of b. All
// eight types convert exactly. It panics if b is shorter than t.Size() or
// t is invalid.
func (t Type) Float64(b []byte) float64 {
	le := binary.LittleEndian
	switch t {
	case Float:
		return float64(math.Float32frombits(le.Uint32(b)))
	case Double:
		return math.Float64frombits(le.Uint64(b))
	}
	return float64(t.Int64(b))
}

// Property is one named field of the records of an element: a scalar of
// type Type, or, when IsList is set, a list whose item count (of the
// integer type CountType) precedes that many items of type Type.
type Property struct {
	Name      string
	Type      Type // the value's type; for a list, the type of each item
	IsList    bool
	CountType Type // for a list, the type of the item count; else 0
}

// Scalar returns a scalar property.
func Scalar(name string, t Type) Property { return Property{Name: name, Type: t} }

// List returns a list property whose item count has type count and whose
// items have type item, such as the faces' List("vertex_indices", Uchar, Int).
func List(name string, count, item Type) Property {
	return Property{Name: name, Type: item, IsList: true, CountType: count}
}

// String returns the property as a header declares it, without the
// "property " keyword: "float x" or "list uchar int vertex_indices".
func (p Property) String() string {
	if p.IsList {
		return "list " + p.CountType.String() + " " + p.Type.String() + " " + p.Name
	}
	return p.Type.String() + " " + p.Name
}

// Element is a named group of Count records that share the same properties,
// such as the vertices or the faces of a mesh.
//
// The package hands records over in one layout whatever the file's format:
// the packed record, which holds the properties in declared order, tightly
// packed, little-endian, without padding. A scalar property takes
// Type.Size() bytes; a list property takes its item count, as a
// CountType value, followed by that many Type items. This is exactly a
// record of a binary_little_endian file, so writing and reading that format
// is a copy. Records of an element without lists all have RecordSize bytes;
// records with lists vary in size (see RecordLen and Fields).
type Element struct {
	Name       string
	Count      int64
	Properties []Property
}

// HasList reports whether e has a list property.
func (e Element) HasList() bool {
	for _, p := range e.Properties {
		if p.IsList {
			return true
		}
	}
	return false
}

// RecordSize returns the size in bytes of a packed record of e, or -1 if e
// has a list property, whose records vary in size.
func (e Element) RecordSize() int {
	n := 0
	for _, p := range e.Properties {
		if p.IsList {
			return -1
		}
		n += p.Type.Size()
	}
	return n
}

// Index returns the index in e.Properties of the property called name, or
// -1.
func (e Element) Index(name string) int {
	for i, p := range e.Properties {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Offset returns the byte offset in a packed record of the scalar property
// called name, or -1 if there is no such property, it is a list, or a list
// precedes it (so that its offset varies from record to record).
func (e Element) Offset(name string) int {
	off := 0
	for _, p := range e.Properties {
		if p.IsList {
			return -1
		}
		if p.Name == name {
			return off
		}
		off += p.Type.Size()
	}
	return -1
}

// RecordLen returns the length of the packed record of e at the start of
// b, which may hold more records after it. It fails if b ends inside the
// record or a list has a negative item count.
func (e Element) RecordLen(b []byte) (int, error) {
	n, msg := recordLen(e.Properties, b)
	if msg != "" {
		return 0, errors.New("ply: element " + e.Name + ": " + msg)
	}
	return n, nil
}

// recordLen returns the length of the packed record of props at the start
// of b, or explains why there is none.
func recordLen(props []Property, b []byte) (int, string) {
	n := 0
	for _, p := range props {
		l, msg := fieldLen(p, b[n:])
		if msg != "" {
			return 0, msg
		}
		n += l
	}
	return n, ""
}

// fieldLen returns the length of property p, count included, at the start
// of b, or explains why b does not hold it.
func fieldLen(p Property, b []byte) (int, string) {
	if !p.IsList {
		if sz := p.Type.Size(); len(b) >= sz {
			return sz, ""
		}
		return 0, "the record ends inside property " + p.Name
	}
	cs := p.CountType.Size()
	if len(b) < cs {
		return 0, "the record ends inside the item count of property " + p.Name
	}
	count := p.CountType.Int64(b)
	if count < 0 {
		return 0, "property " + p.Name + ": negative list count " + strconv.FormatInt(count, 10)
	}
	if int64(len(b)-cs) < count*int64(p.Type.Size()) {
		return 0, "property " + p.Name + ": the record ends inside the list of " +
			strconv.FormatInt(count, 10) + " " + p.Type.String() + " items"
	}
	return cs + int(count)*p.Type.Size(), ""
}

// Fields appends to dst the bytes of each property of the packed record
// rec in declared order, and returns the extended slice: for a scalar the
// value's bytes, for a list its items' bytes (without the count). Decode
// them with Type.Float64 or Type.Int64; a list holds len(f)/Type.Size()
// items. The slices alias rec.
func (e Element) Fields(dst [][]byte, rec []byte) ([][]byte, error) {
	n := 0
	for _, p := range e.Properties {
		l, msg := fieldLen(p, rec[n:])
		if msg != "" {
			return dst, errors.New("ply: element " + e.Name + ": " + msg)
		}
		start := n
		if p.IsList {
			start += p.CountType.Size()
		}
		n += l
		dst = append(dst, rec[start:n:n])
	}
	return dst, nil
}

// Header is the content of a PLY header.
//
// The file interleaves comment and obj_info lines with the element
// declarations; Header keeps them in their own order but not their
// position, and the writer puts them before the first element.
type Header struct {
	Format   Format
	Comments []string // text of the comment lines, without the keyword
	ObjInfo  []string // text of the obj_info lines, without the keyword
	Elements []Element
}

// Element returns the element called name and its index, or -1.
func (h Header) Element(name string) (Element, int) {
	for i, e := range h.Elements {
		if e.Name == name {
			return e, i
		}
	}
	return Element{}, -1
}

// Clone returns a copy of h that shares no memory with it.
func (h Header) Clone() Header {
	c := Header{Format: h.Format}
	if h.Comments != nil {
		c.Comments = append([]string{}, h.Comments...)
	}
	if h.ObjInfo != nil {
		c.ObjInfo = append([]string{}, h.ObjInfo...)
	}
	if h.Elements != nil {
		c.Elements = make([]Element, len(h.Elements))
		for i, e := range h.Elements {
			e.Properties = append([]Property(nil), e.Properties...)
			c.Elements[i] = e
		}
	}
	return c
}
