package colormap

import (
	"math"
	"testing"
)

func TestEnds(t *testing.T) {
	for _, name := range Names() {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if m.At(0) != m.stops[0] || m.At(1) != m.stops[len(m.stops)-1] || m.At(-3) != m.At(0) ||
			m.At(7) != m.At(1) || m.At(math.NaN()) != m.At(0) {
			t.Errorf("%s: ends not clamped", name)
		}
	}
	if _, err := Lookup("rainbow"); err == nil {
		t.Error("an unknown map was accepted")
	}
}

// Perceptual maps must get lighter monotonically, so that more reads as more.
func TestLightnessIncreases(t *testing.T) {
	for _, name := range []string{"viridis", "magma", "inferno", "ice", "gray"} {
		m, _ := Lookup(name)
		prev := -1.0
		for i := 0; i <= 100; i++ {
			c := m.At(float64(i) / 100)
			luma := 0.2126*float64(c[0]) + 0.7152*float64(c[1]) + 0.0722*float64(c[2])
			if luma < prev-0.5 {
				t.Errorf("%s: lightness falls at %d%%: %.1f after %.1f", name, i, luma, prev)
			}
			prev = luma
		}
	}
}

func TestMidpoint(t *testing.T) {
	g, _ := Lookup("gray")
	if c := g.At(0.5); c != [3]uint8{128, 128, 128} {
		t.Errorf("gray at 0.5 = %v", c)
	}
}

func TestRanges(t *testing.T) {
	r, err := ParseRange("-1:3")
	if err != nil || r != (Range{-1, 3}) || r.Normalize(1) != 0.5 {
		t.Errorf("ParseRange(-1:3) = %v, %v", r, err)
	}
	for _, bad := range []string{"1", "3:1", "a:b", "1:1", "0:inf"} {
		if _, err := ParseRange(bad); err == nil {
			t.Errorf("ParseRange(%q) accepted", bad)
		}
	}
	values := make([]float32, 1000)
	for i := range values {
		values[i] = float32(i)
	}
	values[5] = 1e9 // a stray value moves neither end
	values[6] = float32(math.NaN())
	r = Robust(values)
	if r.Lo < 5 || r.Lo > 15 || r.Hi < 980 || r.Hi > 995 {
		t.Errorf("Robust = %v, want about 10:989", r)
	}
}
