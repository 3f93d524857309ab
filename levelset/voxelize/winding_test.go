package voxelize

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/levelset/sharedtest"
)

func TestExactWindingNumberOfClosedMeshes(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	box := geom.BoxMesh(geom.Vec3{-1, -2, -0.5}, geom.Vec3{2, 1, 0.5})
	sphere := geom.OpenSphereMesh(geom.Vec3{0.3, 0.1, -0.2}, 1, 16, 32, 0)
	for _, tc := range []struct {
		name   string
		m      *geom.Mesh
		inside func(p geom.Vec3) int // 1 inside, 0 outside, -1 too close to tell
	}{
		{"box", box, func(p geom.Vec3) int {
			d := math.Inf(1)
			lo, hi := box.Bounds()
			for k := range 3 {
				d = min(d, p[k]-lo[k], hi[k]-p[k])
			}
			switch {
			case d > 1e-3:
				return 1
			case d < -1e-3:
				return 0
			}
			return -1
		}},
		{"sphere", sphere, func(p geom.Vec3) int {
			// The polyhedron lies between the sphere and a sphere of radius
			// cos(pi/16) (the largest angular half-step).
			r := p.Sub(geom.Vec3{0.3, 0.1, -0.2}).Norm()
			switch {
			case r < 0.95:
				return 1
			case r > 1.001:
				return 0
			}
			return -1
		}},
	} {
		b := NewBVH(tc.m)
		var maxErr float64
		for _, p := range boxPoints(rng, tc.m, 3000, 0.5) {
			want := tc.inside(p)
			if want < 0 {
				continue
			}
			w := ExactWindingNumber(tc.m, p)
			if e := math.Abs(w - float64(want)); e > 1e-12 {
				t.Errorf("%s: ExactWindingNumber(%v) = %.17g, want %d", tc.name, p, w, want)
			} else {
				maxErr = max(maxErr, e)
			}
			// The fast one only to its truncation error (see
			// TestFastWindingNumberMatchesExact).
			if fw := b.WindingNumber(p); math.Abs(fw-float64(want)) > 1e-2 {
				t.Errorf("%s: WindingNumber(%v) = %.17g, want %d", tc.name, p, fw, want)
			}
		}
		t.Logf("%s: exact winding number within %.2g of 0 or 1", tc.name, maxErr)
	}
}

// windingStats compares the fast winding number with the exact one.
type windingStats struct {
	n, sign, scored  int
	maxErr, sumErr2  float64
	worstP           geom.Vec3
	worstW, worstFst float64
}

func (s *windingStats) add(p geom.Vec3, exact, fast float64) {
	e := math.Abs(fast - exact)
	s.n++
	s.sumErr2 += e * e
	if e > s.maxErr {
		s.maxErr, s.worstP, s.worstW, s.worstFst = e, p, exact, fast
	}
	if math.Abs(exact-0.5) >= 0.1 {
		s.scored++
		if (exact >= 0.5) != (fast >= 0.5) {
			s.sign++
		}
	}
}

func (s *windingStats) rms() float64 { return math.Sqrt(s.sumErr2 / float64(s.n)) }

// TestFastWindingNumberMatchesExact measures |fast - exact| on a closed mesh (spot,
// when present) and an open one (a sphere with a hole) at random points in and
// around the bounding box and within 0.01 of the surface, and requires the
// inside/outside classification (w >= 0.5) to agree wherever the exact w is not
// within 0.1 of 0.5.
func TestFastWindingNumberMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	type testMesh struct {
		name string
		m    *geom.Mesh
	}
	meshes := []testMesh{
		{"sphere with hole", geom.OpenSphereMesh(geom.Vec3{0.1, -0.2, 0.3}, 0.5, 40, 80, 6)},
		{"soup", randomSoup(rng, 3000)},
	}
	if _, ok := sharedtest.Optional(t, "assets", spotName); ok {
		meshes = append(meshes, testMesh{"spot", loadSpot(t)})
	}
	for _, tm := range meshes {
		b := NewBVH(tm.m)
		for _, set := range []struct {
			name string
			pts  []geom.Vec3
		}{
			{"box", boxPoints(rng, tm.m, 2500, 0.25)},
			{"near", surfacePoints(rng, tm.m, 2500, 0.01)},
		} {
			exact := parallelExactWinding(tm.m, set.pts)
			for _, beta := range []float64{1.5, WindingBeta, 3} {
				var s windingStats
				for i, p := range set.pts {
					s.add(p, exact[i], b.windingNumber(p, beta*beta))
				}
				t.Logf("%s, %s points, beta %g: |fast - exact| max %.2e RMS %.2e; %d of %d scored signs differ (worst at %v: exact %.6f fast %.6f)",
					tm.name, set.name, beta, s.maxErr, s.rms(), s.sign, s.scored, s.worstP, s.worstW, s.worstFst)
				if beta == WindingBeta {
					if s.sign != 0 {
						t.Errorf("%s, %s points: %d sign differences", tm.name, set.name, s.sign)
					}
					// Measured: max 4.1e-3 and RMS 1.1e-3 at worst (spot, near the
					// surface); see the log and the comment of WindingBeta.
					if s.maxErr > 1e-2 || s.rms() > 2.5e-3 {
						t.Errorf("%s, %s points: max error %.2e, RMS %.2e", tm.name, set.name, s.maxErr, s.rms())
					}
				}
			}
		}
	}
}

// parallelExactWinding returns ExactWindingNumber(m, p) for every point, on all
// CPUs: the oracle is the slow part of the tests.
func parallelExactWinding(m *geom.Mesh, pts []geom.Vec3) []float64 {
	w := make([]float64, len(pts))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < len(pts); i += workers {
				w[i] = ExactWindingNumber(m, pts[i])
			}
		}()
	}
	wg.Wait()
	return w
}

// TestWindingExpansionOrder checks the far-field expansion against the exact sum
// for a whole asymmetric mesh seen from farther and farther away: the error of an
// order-2 expansion falls as R^-5 (the first neglected term is r^3/R^5 times the
// area), so doubling R must divide it by about 32, where an order-0 or order-1
// slip would give 8 or 16. The errors are summed over many directions, since in
// a single direction the leading error term may happen to vanish.
func TestWindingExpansionOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	m := geom.OpenSphereMesh(geom.Vec3{0.2, 0.1, -0.3}, 0.5, 12, 24, 4)
	// Make it asymmetric so that every term of the expansion is nonzero.
	for i, p := range m.Positions {
		m.Positions[i] = geom.Vec3{p[0] * 1.3, p[1] + 0.2*p[0]*p[0], p[2] * (1 + 0.3*p[1])}
	}
	b := NewBVH(m)
	b.windOnce.Do(b.buildWinding)
	root := b.wind[0]
	dists := []float64{8, 16, 32}
	errs := make([]float64, len(dists))
	for range 50 {
		dir := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
		for i, dist := range dists {
			p := root.centre.Add(dir.Scale(dist))
			x := root.centre.Sub(p)
			far := root.far(x, x.Dot(x)) / (4 * math.Pi)
			errs[i] += math.Abs(far - ExactWindingNumber(m, p))
		}
	}
	for i := 1; i < len(dists); i++ {
		ratio := errs[i-1] / errs[i]
		t.Logf("R %g -> %g: summed error %.3e -> %.3e, ratio %.1f", dists[i-1], dists[i], errs[i-1], errs[i], ratio)
		if ratio < 26 || ratio > 38 {
			t.Errorf("error ratio %.1f when R doubles from %g, want about 32", ratio, dists[i-1])
		}
	}
}

// TestTriangleSecondMoment checks the closed form used by leafMoments,
// integral over a triangle of d d^T dA = (A/12)(sum x_v x_v^T + s s^T), against a
// midpoint-rule quadrature.
func TestTriangleSecondMoment(t *testing.T) {
	x := [3]geom.Vec3{{0.3, -0.2, 0.5}, {1.1, 0.4, -0.3}, {-0.4, 0.9, 0.2}}
	area := x[1].Sub(x[0]).Cross(x[2].Sub(x[0])).Norm() / 2
	s := x[0].Add(x[1]).Add(x[2])
	const n = 400
	for _, jk := range symPair {
		j, k := jk[0], jk[1]
		closed := area / 12 * (x[0][j]*x[0][k] + x[1][j]*x[1][k] + x[2][j]*x[2][k] + s[j]*s[k])
		// Midpoint rule on the n^2 sub-triangles of a regular subdivision.
		var quad float64
		for a := range n {
			for b := 0; a+b < n; b++ {
				for _, up := range []bool{true, false} {
					if !up && a+b == n-1 {
						continue
					}
					u, v := (float64(a)+1.0/3)/n, (float64(b)+1.0/3)/n
					if !up {
						u, v = (float64(a)+2.0/3)/n, (float64(b)+2.0/3)/n
					}
					y := x[0].Scale(1 - u - v).Add(x[1].Scale(u)).Add(x[2].Scale(v))
					quad += y[j] * y[k]
				}
			}
		}
		quad *= area / (n * n)
		if math.Abs(quad-closed) > 1e-5 {
			t.Errorf("moment %v: closed form %.8f, quadrature %.8f", jk, closed, quad)
		}
	}
}

// TestWindingNumberConcurrent runs many goroutines on one BVH, the first calls
// racing to build the expansion data, and wants the single-threaded answers bit
// for bit (run with -race to check the sharing).
func TestWindingNumberConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(81, 82))
	m := geom.OpenSphereMesh(geom.Vec3{}, 1, 20, 40, 3)
	pts := boxPoints(rng, m, 400, 0.2)
	want := make([]float64, len(pts))
	ref := NewBVH(m)
	for i, p := range pts {
		want[i] = ref.WindingNumber(p)
	}
	b := NewBVH(m)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range pts {
				i := (k + 50*g) % len(pts)
				if w := b.WindingNumber(pts[i]); w != want[i] {
					t.Errorf("goroutine %d: WindingNumber(%v) = %v, single-threaded %v", g, pts[i], w, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}
