package half

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRoundTripAll converts every one of the 65536 halves to float32 and
// back: all must come back bit for bit (NaNs included, since ToFloat32 keeps
// the payload in the top fraction bits).
func TestRoundTripAll(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := ToFloat32(h)
		if IsNaN(h) != (f != f) {
			t.Fatalf("ToFloat32(%#04x) = %v: NaN-ness changed", h, f)
		}
		if got := FromFloat32(f); got != h {
			t.Fatalf("FromFloat32(ToFloat32(%#04x)) = %#04x (via %v)", h, got, f)
		}
	}
}

// TestToFloat32Exact checks ToFloat32 against the definition of binary16,
// evaluated in float64 for every finite half.
func TestToFloat32Exact(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		exp := int(h>>10) & 0x1f
		frac := float64(h & 0x3ff)
		if exp == 0x1f {
			continue
		}
		var want float64
		if exp == 0 {
			want = math.Ldexp(frac, -24)
		} else {
			want = math.Ldexp(1+frac/1024, exp-15)
		}
		if h&0x8000 != 0 {
			want = -want
		}
		got := ToFloat32(h)
		if float64(got) != want || math.Signbit(float64(got)) != (h&0x8000 != 0) {
			t.Fatalf("ToFloat32(%#04x) = %v, want %v", h, got, want)
		}
	}
}

func TestKnownValues(t *testing.T) {
	smallestSub := float32(math.Ldexp(1, -24))
	smallestNormal := float32(math.Ldexp(1, -14))
	tests := []struct {
		name string
		f    float32
		h    uint16
	}{
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"zero", 0, 0x0000},
		{"minus zero", float32(math.Copysign(0, -1)), 0x8000},
		{"max", 65504, 0x7bff},
		{"smallest subnormal", smallestSub, 0x0001},
		{"largest subnormal", float32(math.Ldexp(1023, -24)), 0x03ff},
		{"smallest normal", smallestNormal, 0x0400},
		{"0.1", 0.1, 0x2e66},
		{"1/3", 1.0 / 3, 0x3555},
		{"pi", math.Pi, 0x4248},
		{"+Inf", float32(math.Inf(1)), 0x7c00},
		{"-Inf", float32(math.Inf(-1)), 0xfc00},
		// Halfway cases: ties go to the even neighbour.
		{"1+2^-11 ties down to 1", 1 + float32(math.Ldexp(1, -11)), 0x3c00},
		{"1+3*2^-11 ties up to 1+2^-9", 1 + float32(math.Ldexp(3, -11)), 0x3c02},
		{"just above tie rounds up", 1 + float32(math.Ldexp(1, -11)) + float32(math.Ldexp(1, -23)), 0x3c01},
		{"2049 ties down to 2048", 2049, 0x6800},
		{"2051 ties up to 2052", 2051, 0x6802},
		{"65519 rounds to max", 65519, 0x7bff},
		{"65520 ties to Inf", 65520, 0x7c00},
		{"1e10 overflows", 1e10, 0x7c00},
		{"-1e10 overflows", -1e10, 0xfc00},
		{"2^-25 ties to zero", float32(math.Ldexp(1, -25)), 0x0000},
		{"just above 2^-25 rounds to 2^-24", float32(math.Ldexp(1, -25)) * (1 + 1.0/1024), 0x0001},
		{"3*2^-25 ties up to 2*2^-24", float32(math.Ldexp(3, -25)), 0x0002},
		{"2^-26 underflows", float32(math.Ldexp(1, -26)), 0x0000},
		{"-2^-26 underflows to -0", -float32(math.Ldexp(1, -26)), 0x8000},
		{"largest subnormal+half ulp ties to smallest normal", float32(math.Ldexp(2047, -25)), 0x0400},
		{"float32 smallest subnormal", math.Float32frombits(1), 0x0000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromFloat32(tt.f); got != tt.h {
				t.Errorf("FromFloat32(%v) = %#04x, want %#04x", tt.f, got, tt.h)
			}
		})
	}
	// Exact values convert back exactly.
	for _, tt := range []struct {
		h uint16
		f float32
	}{{0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, smallestSub}, {0x0400, smallestNormal}} {
		if got := ToFloat32(tt.h); got != tt.f {
			t.Errorf("ToFloat32(%#04x) = %v, want %v", tt.h, got, tt.f)
		}
	}
}

func TestNaN(t *testing.T) {
	nan := float32(math.NaN())
	for _, f := range []float32{
		nan, -nan,
		math.Float32frombits(0x7f800001), // signalling NaN, payload only in low bits
		math.Float32frombits(0xff800001),
		math.Float32frombits(0x7fc00000),
		math.Float32frombits(0x7fffffff),
	} {
		h := FromFloat32(f)
		if !IsNaN(h) {
			t.Errorf("FromFloat32(%#08x) = %#04x, not a NaN", math.Float32bits(f), h)
		}
		if (h&0x8000 != 0) != math.Signbit(float64(f)) {
			t.Errorf("FromFloat32(%#08x) = %#04x: sign lost", math.Float32bits(f), h)
		}
		if g := ToFloat32(h); g == g {
			t.Errorf("ToFloat32(%#04x) = %v, not a NaN", h, g)
		}
	}
	if !IsNaN(NaN) || IsNaN(PosInf) || IsNaN(NegInf) || IsNaN(MaxHalf) {
		t.Error("IsNaN misclassifies the named constants")
	}
}

// value is the float64 value of a finite half.
func value(h uint16) float64 { return float64(ToFloat32(h)) }

// TestRandomNearest checks random float32s in and around the half range:
// the result is within half an ulp of the half, no neighbour of it is
// nearer, and exact ties went to the even neighbour.
func TestRandomNearest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 2_000_000
	for i := 0; i < n; i++ {
		// Exponents from far below the subnormals to past the overflow.
		e := r.IntN(50) - 30
		f := float32(math.Ldexp(1+r.Float64(), e))
		if r.IntN(2) == 0 {
			f = -f
		}
		h := FromFloat32(f)
		mag := math.Abs(float64(f))
		if h&0x7fff == 0x7c00 { // Inf: only right when |f| >= 65520
			if mag < 65520 {
				t.Fatalf("FromFloat32(%v) = Inf", f)
			}
			continue
		}
		if mag >= 65520 {
			t.Fatalf("FromFloat32(%v) = %#04x, want Inf", f, h)
		}
		if (h&0x8000 != 0) != (f < 0) {
			t.Fatalf("FromFloat32(%v) = %#04x: wrong sign", f, h)
		}
		m := h & 0x7fff
		d := math.Abs(mag - value(m))
		// ulp at h: distance to the next half up (the gap below a power of
		// two is smaller, so take the larger gap as the bound).
		ulp := value(m+1) - value(m)
		if m > 0 && value(m)-value(m-1) > ulp {
			ulp = value(m) - value(m-1)
		}
		if d > ulp/2 {
			t.Fatalf("FromFloat32(%v) = %#04x (%v): error %g > half ulp %g", f, h, value(h), d, ulp/2)
		}
		for _, nb := range []uint16{m - 1, m + 1} {
			if m == 0 && nb == 0xffff || nb >= 0x7c00 {
				continue
			}
			dn := math.Abs(mag - value(nb))
			if dn < d || dn == d && m&1 == 1 {
				t.Fatalf("FromFloat32(%v) = %#04x, but %#04x is nearer or the even tie", f, h, nb)
			}
		}
	}
}

func BenchmarkFromFloat32(b *testing.B) {
	var s uint16
	for i := 0; b.Loop(); i++ {
		s += FromFloat32(float32(i) * 0.001)
	}
	_ = s
}

func BenchmarkToFloat32(b *testing.B) {
	var s float32
	for i := 0; b.Loop(); i++ {
		s += ToFloat32(uint16(i))
	}
	_ = s
}
