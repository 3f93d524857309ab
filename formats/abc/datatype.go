package abc

import "strconv"

// POD is the element type of a property's values, as numbered on disk (bits 4-7 of
// a property's info word).
type POD uint8

// The element types. Bool is stored as one byte per value; String as UTF-8 bytes, each
// string ended by a NUL; Wstring as 32-bit code points, each ended by a 0.
const (
	Bool POD = iota
	Uint8
	Int8
	Uint16
	Int16
	Uint32
	Int32
	Uint64
	Int64
	Float16
	Float32
	Float64
	String
	Wstring
	numPODs
)

var podNames = [numPODs]string{"bool_t", "uint8_t", "int8_t", "uint16_t", "int16_t", "uint32_t",
	"int32_t", "uint64_t", "int64_t", "float16_t", "float32_t", "float64_t", "string", "wstring"}

var podSizes = [numPODs]int{1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8, 0, 0}

func (p POD) String() string {
	if p < numPODs {
		return podNames[p]
	}
	return "POD(" + strconv.Itoa(int(p)) + ")"
}

// Size returns the bytes of one value, or 0 for the string types, whose values vary.
func (p POD) Size() int {
	if p < numPODs {
		return podSizes[p]
	}
	return 0
}

// DataType is a property's element type and extent: a V3f is (Float32, 3), a Box3d
// is (Float64, 6). A scalar sample holds one element; an array sample holds any
// number of them.
type DataType struct {
	POD    POD
	Extent uint8
}

// Bytes returns the bytes of one element, or 0 for the string types.
func (d DataType) Bytes() int { return d.POD.Size() * int(d.Extent) }

func (d DataType) String() string {
	if d.Extent == 1 {
		return d.POD.String()
	}
	return d.POD.String() + "[" + strconv.Itoa(int(d.Extent)) + "]"
}
