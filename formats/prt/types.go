package prt

import "strconv"

// DataType is the type of the values of a channel or a metadata entry, as
// stored in the file (an int32).
type DataType int32

// The data types of PRT 1.1. The numbering is the file's. String occurs
// only in metadata.
const (
	String  DataType = -1 // UTF-8 text, NUL-terminated in the file; metadata only
	Int16   DataType = 0
	Int32   DataType = 1
	Int64   DataType = 2
	Float16 DataType = 3 // IEEE 754 binary16, see package snowtools/formats/half
	Float32 DataType = 4
	Float64 DataType = 5
	Uint16  DataType = 6
	Uint32  DataType = 7
	Uint64  DataType = 8
	Int8    DataType = 9
	Uint8   DataType = 10
)

var typeInfo = [...]struct {
	name string
	size int
}{
	Int16:   {"int16", 2},
	Int32:   {"int32", 4},
	Int64:   {"int64", 8},
	Float16: {"float16", 2},
	Float32: {"float32", 4},
	Float64: {"float64", 8},
	Uint16:  {"uint16", 2},
	Uint32:  {"uint32", 4},
	Uint64:  {"uint64", 8},
	Int8:    {"int8", 1},
	Uint8:   {"uint8", 1},
}

// Valid reports whether t is one of the numeric types a channel may have
// (Int16 through Uint8). String is not valid for a channel.
func (t DataType) Valid() bool { return t >= 0 && int(t) < len(typeInfo) }

// Size returns the size in bytes of one value of type t, or 0 for String
// and for unknown types.
func (t DataType) Size() int {
	if !t.Valid() {
		return 0
	}
	return typeInfo[t].size
}

// String returns the name of t ("float32", "string", ...), or
// "DataType(n)" for an unknown type.
func (t DataType) String() string {
	if t == String {
		return "string"
	}
	if !t.Valid() {
		return "DataType(" + strconv.Itoa(int(t)) + ")"
	}
	return typeInfo[t].name
}

// IsFloat reports whether t is Float16, Float32 or Float64.
func (t DataType) IsFloat() bool { return t == Float16 || t == Float32 || t == Float64 }

// IsInt reports whether t is one of the signed or unsigned integer types.
func (t DataType) IsInt() bool { return t.Valid() && !t.IsFloat() }

// Channel describes one named field of every particle record: Arity values
// of type Type starting at byte Offset of the record.
type Channel struct {
	Name   string
	Type   DataType
	Arity  int
	Offset int
}

// Size returns the number of bytes the channel occupies in a record.
func (c Channel) Size() int { return c.Arity * c.Type.Size() }

// End returns the offset just past the channel's bytes in a record.
func (c Channel) End() int { return c.Offset + c.Size() }

// String returns a description such as "Position float32[3] @0".
func (c Channel) String() string {
	return c.Name + " " + c.Type.String() + "[" + strconv.Itoa(c.Arity) + "] @" + strconv.Itoa(c.Offset)
}

// maxNameLen is the longest channel or metadata name: the file stores names
// in 32 bytes including the terminating NUL.
const maxNameLen = 31

// validName reports whether s is a valid channel or metadata name:
// [A-Za-z_][A-Za-z0-9_]*, at most 31 bytes.
func validName(s string) bool {
	if len(s) == 0 || len(s) > maxNameLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// nameProblem explains why s is not a valid name (validName(s) is false).
func nameProblem(s string) string {
	switch {
	case len(s) == 0:
		return "empty name"
	case len(s) > maxNameLen:
		return "name " + strconv.Quote(s) + " is longer than 31 bytes"
	}
	return "name " + strconv.Quote(s) + " is not of the form [A-Za-z_][A-Za-z0-9_]*"
}
