package heightfield

import (
	"math"
	"testing"
)

func TestCatmullRom(t *testing.T) {
	for _, u := range []float64{0, 0.1, 0.5, 0.9} {
		w := catmullRom(u)
		if s := w[0] + w[1] + w[2] + w[3]; math.Abs(s-1) > 1e-15 {
			t.Errorf("weights at %g sum to %g", u, s)
		}
		// It reproduces a straight line: sum w_k (k - 1) = u.
		if l := -w[0] + w[2] + 2*w[3]; math.Abs(l-u) > 1e-15 {
			t.Errorf("line at %g: %g", u, l)
		}
	}
	if w := catmullRom(0); w != [4]float64{0, 1, 0, 0} {
		t.Errorf("at 0: %v, want the lattice value itself", w)
	}
}

func TestNoise(t *testing.T) {
	n := Noise{Base: 0.1, Amplitude: 0.02, Scale: 0.3, Octaves: 3, Seed: 7}
	if err := n.Validate(); err != nil {
		t.Fatal(err)
	}
	lo, hi, sum, count := math.Inf(1), math.Inf(-1), 0.0, 0
	for i := range 200 {
		for j := range 200 {
			h := n.Height(float64(i)*0.013, float64(j)*0.017)
			if h != n.Height(float64(i)*0.013, float64(j)*0.017) {
				t.Fatal("not repeatable")
			}
			lo, hi, sum, count = min(lo, h), max(hi, h), sum+h, count+1
		}
	}
	if hi > n.Top() {
		t.Errorf("height %g above Top %g", hi, n.Top())
	}
	if hi-lo < n.Amplitude || math.Abs(sum/float64(count)-n.Base) > n.Amplitude/2 {
		t.Errorf("range [%g, %g], mean %g: not noise around %g of amplitude %g", lo, hi, sum/float64(count), n.Base, n.Amplitude)
	}
	// Continuity: a step of 1e-6 scale changes the height by O(1e-6 amplitude).
	if d := math.Abs(n.Height(0.5, 0.5) - n.Height(0.5+3e-7, 0.5)); d > 1e-6*n.Amplitude*10 {
		t.Errorf("jump %g", d)
	}
	other := n
	other.Seed = 8
	if n.Height(0.4, 0.4) == other.Height(0.4, 0.4) {
		t.Error("the seed changes nothing")
	}
	for _, bad := range []Noise{{Scale: 0, Octaves: 1}, {Scale: 1, Octaves: 0}, {Scale: 1, Octaves: 1, Amplitude: math.Inf(1)}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func TestHeightMap(t *testing.T) {
	m := &HeightMap{Width: 3, Depth: 2, Heights: []float64{0, 1, 2, 10, 11, 12}, OriginX: 1, OriginZ: 2, Cell: 0.5}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ x, z, want float64 }{
		{1, 2, 0}, {1.5, 2, 1}, {1.25, 2, 0.5}, {1.25, 2.25, 5.5}, {2, 2.5, 12},
		{0, 0, 0}, {9, 9, 12}, // beyond the edges: the nearest edge
	} {
		if got := m.Height(c.x, c.z); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Height(%g, %g) = %g, want %g", c.x, c.z, got, c.want)
		}
	}
	if m.Top() != 12 {
		t.Errorf("Top %g", m.Top())
	}
	bad := *m
	bad.Heights = bad.Heights[:5]
	if bad.Validate() == nil {
		t.Error("short height map accepted")
	}
}
