package vdb

import (
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"

	"snowtools/formats/half"
	"snowtools/levelset"
)

// nodeMask is a node's bit mask as OpenVDB stores it: one bit per slot, in 64-bit
// words, least significant bit first. Leaves have 512 slots, lower internal nodes
// 16^3 = 4096 and upper internal nodes 32^3 = 32768.
type nodeMask []uint64

func (m nodeMask) isOn(i int) bool { return m[i>>6]&(1<<(i&63)) != 0 }
func (m nodeMask) set(i int)       { m[i>>6] |= 1 << (i & 63) }

func (m nodeMask) count() int {
	n := 0
	for _, w := range m {
		n += bits.OnesCount64(w)
	}
	return n
}

// components views values as their float32 components, one per float and three per
// Vec3f, so that byte and half-float conversions are written once for both types.
// Both value types are plain arrays of float32 without padding, which makes the view
// exact.
func components[T levelset.Value](v []T) []float32 {
	if len(v) == 0 {
		return nil
	}
	per := int(unsafe.Sizeof(v[0])) / 4
	return unsafe.Slice((*float32)(unsafe.Pointer(&v[0])), len(v)*per)
}

// valueSize returns the bytes of one full-precision value of type T.
func valueSize[T levelset.Value]() int {
	var v T
	return int(unsafe.Sizeof(v))
}

// negative returns -v, component by component (math::negative in OpenVDB).
func negative[T levelset.Value](v T) T {
	s := []T{v}
	c := components(s)
	for i := range c {
		c[i] = -c[i]
	}
	return s[0]
}

// roundedToHalf returns v rounded through IEEE half precision, as OpenVDB's
// truncateRealToHalf does for the values it keeps at full size in half-float grids.
func roundedToHalf[T levelset.Value](v T) T {
	s := []T{v}
	c := components(s)
	for i := range c {
		c[i] = half.ToFloat32(half.FromFloat32(c[i]))
	}
	return s[0]
}

// appendValues appends vals little endian, as float32 or as half floats.
func appendValues[T levelset.Value](dst []byte, vals []T, asHalf bool) []byte {
	le := binary.LittleEndian
	for _, c := range components(vals) {
		if asHalf {
			dst = le.AppendUint16(dst, half.FromFloat32(c))
		} else {
			dst = le.AppendUint32(dst, math.Float32bits(c))
		}
	}
	return dst
}

// decodeValues fills dst from src, which holds exactly len(dst) values as float32
// or as half floats.
func decodeValues[T levelset.Value](dst []T, src []byte, asHalf bool) {
	le := binary.LittleEndian
	c := components(dst)
	if asHalf {
		for i := range c {
			c[i] = half.ToFloat32(le.Uint16(src[2*i:]))
		}
		return
	}
	for i := range c {
		c[i] = math.Float32frombits(le.Uint32(src[4*i:]))
	}
}

// The byte before every node's values says how its inactive values are stored
// (io/Compression.h). Readers rebuild an inactive value as inactive[1] where the
// selection mask is on and inactive[0] elsewhere.
const (
	inactiveAreBackground      = 0 // all +background (or none): nothing stored
	inactiveAreMinusBackground = 1 // all -background
	inactiveAreOneValue        = 2 // one other value, stored
	inactiveArePlusMinusBg     = 3 // a selection mask picks +background over -background
	inactiveAreBgAndOneValue   = 4 // one value stored, a mask picks background over it
	inactiveAreTwoValues       = 5 // two values stored and a mask between them
	allValuesStored            = 6 // more than two distinct inactive values
)

// classifyInactive chooses how to store a node's inactive values under active-mask
// compression, exactly as OpenVDB's MaskCompress does, so that files match what
// OpenVDB itself writes: it looks at the first three distinct inactive values
// (slots holding children do not count) and returns the code above and the values
// to store.
func classifyInactive[T levelset.Value](vals []T, valueMask, childMask nodeMask, bg T) (code byte, inactive [2]T) {
	inactive = [2]T{bg, bg}
	unique := 0
	for i := 0; i < len(vals) && unique < 3; i++ {
		if valueMask.isOn(i) || (childMask != nil && childMask.isOn(i)) {
			continue
		}
		v := vals[i]
		if (unique > 0 && v == inactive[0]) || (unique > 1 && v == inactive[1]) {
			continue
		}
		if unique < 2 {
			inactive[unique] = v
		}
		unique++
	}
	minusBg := negative(bg)
	switch {
	case unique == 1 && inactive[0] == bg:
		return inactiveAreBackground, inactive
	case unique == 1 && inactive[0] == minusBg:
		return inactiveAreMinusBackground, inactive
	case unique == 1:
		return inactiveAreOneValue, inactive
	case unique == 2 && inactive[0] != bg && inactive[1] != bg:
		return inactiveAreTwoValues, inactive
	case unique == 2 && inactive[1] == bg && inactive[0] == minusBg:
		return inactiveArePlusMinusBg, inactive
	case unique == 2 && inactive[1] == bg:
		return inactiveAreBgAndOneValue, inactive
	case unique == 2 && inactive[1] == minusBg: // inactive[0] == bg
		return inactiveArePlusMinusBg, [2]T{inactive[1], inactive[0]}
	case unique == 2: // inactive[0] == bg
		return inactiveAreBgAndOneValue, [2]T{inactive[1], inactive[0]}
	case unique > 2:
		return allValuesStored, inactive
	}
	return inactiveAreBackground, inactive // no inactive values
}
