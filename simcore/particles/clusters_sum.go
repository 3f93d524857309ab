package particles

import "math"

// An exactSum adds non-negative finite float32 values without rounding, so that the
// total is the same in any order of the values (a float64 sum is not: its rounding
// depends on the order, and a frame's particles come in any order).
//
// Every float32 is an integer multiple of 2^-149 below 2^128, so the sum is a 277-bit
// integer plus carries: limb k counts units of 2^(32k-149). A value lands in two limbs,
// 32 bits each after carrying; the limbs' 64 bits leave room for 2^31 additions between
// carries.
type exactSum struct {
	limbs [exactLimbs]uint64
	added uint32 // additions since the last carry (a uint32, so that 1<<31 fits on 32-bit platforms too)
}

const exactLimbs = 9 // 8 for the 254 binary exponents of float32, 1 for the carries

func (s *exactSum) add(v float32) {
	bits := math.Float32bits(v)
	exp := int(bits >> 23) // the sign bit is 0
	mant := uint64(bits & (1<<23 - 1))
	if exp == 0 {
		exp = 1 // subnormal: mant * 2^-149, the same scale as exponent 1
	} else {
		mant |= 1 << 23
	}
	// v = mant * 2^(exp-150) = mant * 2^(p-149)
	p := exp - 1
	mant <<= p % 32
	k := p / 32
	s.limbs[k] += mant & (1<<32 - 1)
	s.limbs[k+1] += mant >> 32
	if s.added++; s.added == 1<<31 {
		s.carry()
	}
}

// carry brings every limb but the last below 2^32.
func (s *exactSum) carry() {
	for k := 0; k < exactLimbs-1; k++ {
		s.limbs[k+1] += s.limbs[k] >> 32
		s.limbs[k] &= 1<<32 - 1
	}
	s.added = 0
}

// float64 returns the sum, rounded from its most significant limb down: the same
// float64 for the same exact sum.
func (s *exactSum) float64() float64 {
	s.carry()
	sum := 0.0
	for k := exactLimbs - 1; k >= 0; k-- {
		sum += math.Ldexp(float64(s.limbs[k]), 32*k-149)
	}
	return sum
}
