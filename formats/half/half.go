// Package half converts between IEEE 754 binary16 ("half precision")
// numbers and float32.
//
// A half is held in a uint16 with the layout of the standard: 1 sign bit,
// 5 exponent bits (bias 15) and 10 fraction bits. Every half is exactly
// representable as a float32, so ToFloat32 is exact; FromFloat32 rounds to
// the nearest half, ties to even, as the hardware conversions do.
package half

import "math"

// Bit patterns of a few notable halves.
const (
	PosInf  uint16 = 0x7c00 // +Inf
	NegInf  uint16 = 0xfc00 // -Inf
	NaN     uint16 = 0x7e00 // the canonical quiet NaN
	MaxHalf uint16 = 0x7bff // 65504, the largest finite half
)

// FromFloat32 returns the half nearest to f, rounding ties to even.
//
// Values too large for a half become ±Inf (any value of magnitude 65520 or
// more, since 65520 is halfway between 65504 and the next power of two);
// values too small for the smallest subnormal (2^-24) round to ±0 or to it;
// the sign of zero is kept. A NaN stays a NaN with the same sign and the
// top ten bits of its payload; if those are all zero the quiet bit is set
// so that the result is still a NaN.
func FromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	frac := b & 0x7fffff

	if exp == 0xff { // Inf or NaN
		if frac == 0 {
			return sign | PosInf
		}
		m := uint16(frac >> 13)
		if m == 0 {
			m = 0x200
		}
		return sign | PosInf | m
	}

	e := exp - 127 + 15 // biased half exponent
	switch {
	case e >= 0x1f:
		return sign | PosInf
	case e <= 0:
		// Subnormal half (or zero). The value is frac24 * 2^(exp-150) and a
		// subnormal half counts units of 2^-24, so shift right by 14-e.
		// Below e = -10 the value is under half the smallest subnormal.
		if e < -10 {
			return sign
		}
		frac |= 0x800000 // implicit leading one (exp > 0 here since e > -11)
		shift := uint32(14 - e)
		return sign | uint16(roundShift(frac, shift))
	}
	// Normal half. A carry out of the fraction correctly bumps the exponent,
	// and a carry out of exponent 30 correctly gives Inf (0x7c00).
	return sign | uint16(uint32(e)<<10+roundShift(frac, 13))
}

// roundShift returns x >> s rounded to the nearest integer, ties to even.
// s is in 1..31.
func roundShift(x, s uint32) uint32 {
	q := x >> s
	rem := x & (1<<s - 1)
	halfway := uint32(1) << (s - 1)
	if rem > halfway || rem == halfway && q&1 == 1 {
		q++
	}
	return q
}

// ToFloat32 returns the float32 equal to the half h. It is exact: NaNs
// keep their sign and payload, infinities and signed zeros are kept.
func ToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h & 0x3ff)
	switch exp {
	case 0:
		if frac == 0 {
			return math.Float32frombits(sign)
		}
		// Subnormal: frac * 2^-24; shift the leading one into place.
		e := uint32(127 - 14)
		for frac&0x400 == 0 {
			frac <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (frac&0x3ff)<<13)
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// IsNaN reports whether h is a NaN.
func IsNaN(h uint16) bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }
