package heightfield

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

func TestFirstHitOnSphere(t *testing.T) {
	ball := &collider.MovingShape{Shape: geom.Sphere{Center: geom.Vec3{0, 0.1, 0}, Radius: 0.05}}
	for _, x := range []float64{0, 0.02, 0.049} {
		y, ok := firstHit(ball, x, 0, -0.5, 0.5, 0, 5e-4)
		want := 0.1 - math.Sqrt(0.05*0.05-x*x)
		if !ok || math.Abs(y-want) > 1e-8 {
			t.Errorf("x = %g: hit %g (%v), want the underside at %g", x, y, ok, want)
		}
	}
	if _, ok := firstHit(ball, 0.051, 0, -0.5, 0.5, 0, 5e-4); ok {
		t.Error("hit beside the ball")
	}
	if _, ok := firstHit(ball, 0, 0, -0.5, 0.04, 0, 5e-4); ok {
		t.Error("hit above the end of the ray")
	}
	if y, ok := firstHit(ball, 0, 0, 0.1, 0.5, 0, 5e-4); !ok || y != 0.1 {
		t.Errorf("a ray starting inside: %g %v", y, ok)
	}
}

// windowOf returns a window of n x n columns at height 0 whose contact map is the
// given rows ('#' in contact with collider 0, '.' free), centred in it.
func windowOf(n int, rows ...string) *window {
	w := newWindow(Rect{0, 0, n, n})
	oi, oj := (n-len(rows[0]))/2, (n-len(rows))/2
	for j, row := range rows {
		for i, c := range row {
			if c == '#' {
				w.contact[(oj+j)*n+oi+i] = 1
			}
		}
	}
	return w
}

func TestContourIsChessboardDistance(t *testing.T) {
	w := windowOf(11,
		"#######",
		"#######",
		"###.###",
		"#######",
		"####...",
	)
	w.contour()
	// Brute force: the chessboard distance to the nearest free column.
	for k, c := range w.contact {
		want := int32(0)
		if c != 0 {
			want = unreached
			i, j := w.column(k)
			for q, cq := range w.contact {
				if cq == 0 {
					ii, jj := w.column(q)
					want = min(want, int32(max(abs(ii-i), abs(jj-j))))
				}
			}
		}
		if w.label[k] != want {
			i, j := w.column(k)
			t.Errorf("column (%d, %d): label %d, want %d", i, j, w.label[k], want)
		}
	}
	all := windowOf(3, "###", "###", "###")
	all.contour()
	if all.label[4] != unreached {
		t.Errorf("a window all in contact: label %d, want unreached", all.label[4])
	}
}

func TestDisplacementFeedsTheFirstRing(t *testing.T) {
	w := windowOf(9, "###", "###", "###")
	for k, c := range w.contact {
		if c != 0 {
			w.pushed[k] = 0.01
			w.h[k] = -0.01
		}
	}
	w.contour()
	const alpha = 0.3
	compressed := w.displace(alpha)
	if want := 9 * 0.01 * (1 - alpha); math.Abs(compressed-want) > 1e-15 {
		t.Errorf("compressed %g, want %g", compressed, want)
	}
	ring, outside := 0.0, 0.0
	for k, h := range w.h {
		i, j := w.column(k)
		d := max(abs(i-4), abs(j-4)) // chessboard distance from the centre
		switch {
		case d == 2:
			ring += h
		case d > 2 && h != 0:
			outside += h
		}
	}
	if want := 9 * 0.01 * alpha; math.Abs(ring-want) > 1e-15 || outside != 0 {
		t.Errorf("first ring holds %g, want alpha m = %g; beyond it %g", ring, want, outside)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// slopesWithin reports the first pair of neighbours of w whose slope exceeds its
// bound, bound(limit) for the pair's limit.
func slopesWithin(w *window, e eroder, cell float64, bound func(limit float64) float64) (string, bool) {
	for k, hk := range w.h {
		i, j := w.column(k)
		for _, o := range neighbours {
			if q, ok := w.index(i+o.di, j+o.dj); ok {
				if diff := hk - w.h[q]; diff > bound(e.limit(w, q))*o.dist*cell*(1+1e-12) {
					return describePair(i, j, o.di, o.dj, math.Atan(diff/(o.dist*cell))), false
				}
			}
		}
	}
	return "", true
}

func describePair(i, j, di, dj int, slope float64) string {
	return "(" + itoa(i) + "," + itoa(j) + ")->(" + itoa(i+di) + "," + itoa(j+dj) + ") slope " + ftoa(slope)
}

func TestErosionStopsBelowThresholds(t *testing.T) {
	const cell = 0.01
	for _, name := range []string{"sand", "mud"} {
		m, _ := Preset(name)
		e := newEroder(m)
		rng := rand.New(rand.NewPCG(1, 2))
		w := newWindow(Rect{0, 0, 30, 30})
		for k := range w.h {
			w.h[k] = 0.03 * rng.Float64() * rng.Float64()
			if rng.Float64() < 0.1 {
				w.contact[k] = 1 // theta_in applies down to these
			}
		}
		before := sum(w.h)
		passes, _ := w.erode(e, cell)
		if passes == maxErosionPasses {
			t.Fatalf("%s: erosion did not stop", name)
		}
		if pair, ok := slopesWithin(w, e, cell, func(limit float64) float64 { return max(limit, e.stop) }); !ok {
			t.Errorf("%s: after %d passes %s exceeds max(its limit, theta_stop)", name, passes, pair)
		}
		if d := sum(w.h) - before; math.Abs(d) > 1e-13 {
			t.Errorf("%s: erosion changed the volume by %g", name, d)
		}
		// Step after step, slopes between theta_out and theta_stop keep crumbling until
		// none exceeds its own limit.
		clear(w.contact)
		for range 5000 {
			prev := append([]float64(nil), w.h...)
			w.erode(e, cell)
			if same(prev, w.h) {
				break
			}
		}
		if pair, ok := slopesWithin(w, e, cell, func(limit float64) float64 { return limit }); !ok {
			t.Errorf("%s: settled, %s still exceeds theta_out = %g", name, pair, m.OutsideSlope)
		}
	}
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

func same(a, b []float64) bool {
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}
