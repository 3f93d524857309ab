package voxelize

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// angleDeg returns the angle between unit vectors a and b in degrees.
func angleDeg(a, b geom.Vec3) float64 { return angleBetween(a, b) * 180 / math.Pi }

// A fine UV sphere is within its chord error of the analytic sphere, in distance and
// (away from the surface) in normal direction.
func TestMeshShapeSphere(t *testing.T) {
	centre, r := geom.Vec3{0.1, -0.2, 0.3}, 1.0
	rings, segments := 64, 128
	s, err := NewMeshShape(geom.OpenSphereMesh(centre, r, rings, segments, 0))
	if err != nil {
		t.Fatal(err)
	}
	if !s.Closed() || s.Lipschitz() != 1 {
		t.Fatalf("a closed sphere: Closed %v, Lipschitz %g", s.Closed(), s.Lipschitz())
	}
	// The facets lie at most r (1 - cos(pi/rings)) inside the sphere (the longest
	// edges are along the equator, pi/rings apart in both directions there).
	tol := r * (1 - math.Cos(math.Pi/float64(rings))) * 1.05
	ref := geom.Sphere{Center: centre, Radius: r}
	rng := rand.New(rand.NewPCG(3, 4))
	worstPhi, worstAngle := 0.0, 0.0
	for range 3000 {
		p := centre.Add(geom.Vec3{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5})
		phi, n := s.Distance(p)
		want, wn := ref.Distance(p)
		worstPhi = max(worstPhi, math.Abs(phi-want))
		if math.Abs(n.Norm()-1) > 1e-12 {
			t.Fatalf("p %v: normal %v is not unit", p, n)
		}
		if math.Abs(want) > 0.1 {
			worstAngle = max(worstAngle, angleDeg(n, wn))
		}
	}
	t.Logf("UV sphere %dx%d: max |phi - phi_sphere| = %.2e (chord bound %.2e), max normal angle %.2f deg beyond 0.1 r",
		rings, segments, worstPhi, tol, worstAngle)
	if worstPhi > tol {
		t.Errorf("max |phi - phi_sphere| = %g > %g", worstPhi, tol)
	}
	if worstAngle > 3 {
		t.Errorf("max normal angle %g degrees", worstAngle)
	}
}

// A box mesh gives the exact distance of Box, and the same normals wherever the
// nearest feature is unique.
func TestMeshShapeBox(t *testing.T) {
	lo, hi := geom.Vec3{-0.3, 0.1, 0.2}, geom.Vec3{0.5, 0.4, 1.1}
	m := geom.BoxMesh(lo, hi)
	s, err := NewMeshShape(m)
	if err != nil {
		t.Fatal(err)
	}
	ref := geom.Box{Min: lo, Max: hi}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		p := geom.Vec3{rng.Float64()*1.6 - 0.7, rng.Float64()*1.2 - 0.3, rng.Float64()*1.8 - 0.2}
		phi, n := s.Distance(p)
		want, wn := ref.Distance(p)
		if math.Abs(phi-want) > 1e-12 {
			t.Fatalf("p %v: phi %g, box %g", p, phi, want)
		}
		if math.Abs(want) > 1e-6 && angleDeg(n, wn) > 1e-6 {
			t.Fatalf("p %v (phi %g): normal %v, box %v", p, phi, n, wn)
		}
	}
	// On the surface: the face normal, and phi = 0 to rounding.
	phi, n := s.Distance(geom.Vec3{0.1, 0.4, 0.5})
	if math.Abs(phi) > 1e-15 || n != (geom.Vec3{0, 1, 0}) {
		t.Errorf("on the top face: phi %g, normal %v", phi, n)
	}
	if b := s.Bounds(); b.Min != lo || b.Max != hi {
		t.Errorf("bounds %v", b)
	}
	// The shape keeps its own copy: changing the mesh afterwards changes nothing.
	m.Positions[0] = geom.Vec3{9, 9, 9}
	if phi, _ := s.Distance(geom.Vec3{0, 0.2, 0.5}); math.Abs(phi+0.1) > 1e-12 {
		t.Errorf("after editing the mesh: phi %g, want -0.1", phi)
	}
}

// A mesh wound inside out (clockwise from outside) has the same inside.
func TestMeshShapeInsideOut(t *testing.T) {
	m := geom.BoxMesh(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1})
	for i := range m.Triangles {
		m.Triangles[i][1], m.Triangles[i][2] = m.Triangles[i][2], m.Triangles[i][1]
	}
	s, err := NewMeshShape(m)
	if err != nil {
		t.Fatal(err)
	}
	if phi, n := s.Distance(geom.Vec3{0.5, 0.5, 0.9}); math.Abs(phi+0.1) > 1e-12 || angleDeg(n, geom.Vec3{0, 0, 1}) > 1e-9 {
		t.Errorf("inside: phi %g, normal %v", phi, n)
	}
	if phi, n := s.Distance(geom.Vec3{0.5, 0.5, 1}); phi != 0 || n != (geom.Vec3{0, 0, 1}) {
		t.Errorf("on the surface: phi %g, normal %v", phi, n)
	}
	if phi, _ := s.Distance(geom.Vec3{0.5, 0.5, 1.5}); math.Abs(phi-0.5) > 1e-12 {
		t.Errorf("outside: phi %g", phi)
	}
}

// An open mesh (a sphere with a small hole at +Y) takes its sign from the winding
// number: |phi| is the distance to the mesh, negative inside the sphere away from the
// hole and positive outside.
func TestMeshShapeOpen(t *testing.T) {
	centre := geom.Vec3{0, 0, 0}
	m := geom.OpenSphereMesh(centre, 1, 24, 48, 2)
	s, err := NewMeshShape(m)
	if err != nil {
		t.Fatal(err)
	}
	if s.Closed() || !math.IsInf(s.Lipschitz(), 1) || s.Topology().BoundaryEdges != 48 {
		t.Fatalf("open sphere: Closed %v, Lipschitz %g, %d boundary edges", s.Closed(), s.Lipschitz(), s.Topology().BoundaryEdges)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 1000 {
		p := geom.Vec3{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5}
		phi, n := s.Distance(p)
		_, cp, _ := bruteNearest(m, p, math.Inf(1))
		if d := math.Sqrt(cp.Dist2); math.Abs(math.Abs(phi)-d) > 1e-12 {
			t.Fatalf("p %v: |phi| %g, distance %g", p, math.Abs(phi), d)
		}
		r := p.Norm()
		if p[1] < 0.5 && math.Abs(r-1) > 0.05 && (phi < 0) != (r < 1) {
			t.Errorf("p %v (r %.3f): phi %g has the wrong sign", p, r, phi)
		}
		// The normal points away from the closest point on the outside, toward it inside.
		if q := p.Add(n.Scale(-phi)); math.Abs(phi) > 1e-9 && q.Sub(cp.Point).Norm() > 1e-9 {
			t.Errorf("p %v: p - phi n = %v, closest point %v", p, q, cp.Point)
		}
	}
}

func TestMeshShapeRejects(t *testing.T) {
	flat := &geom.Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, Triangles: [][3]int32{{0, 1, 2}}}
	for name, m := range map[string]*geom.Mesh{
		"empty":     {},
		"bad index": {Positions: []geom.Vec3{{0, 0, 0}}, Triangles: [][3]int32{{0, 1, 2}}},
		"no area":   flat,
	} {
		if _, err := NewMeshShape(m); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// concurrentMatches queries s from several goroutines at once and checks that every
// answer is the one a single goroutine got (run with -race to check for races).
func concurrentMatches(t *testing.T, s geom.Shape, pts []geom.Vec3) {
	t.Helper()
	type answer struct {
		phi float64
		n   geom.Vec3
	}
	want := make([]answer, len(pts))
	for i, p := range pts {
		want[i].phi, want[i].n = s.Distance(p)
	}
	var wg sync.WaitGroup
	errs := make([]int, 8)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range pts {
				i := (k*7 + g*131) % len(pts) // each goroutine in its own order
				if phi, n := s.Distance(pts[i]); phi != want[i].phi || n != want[i].n {
					errs[g]++
				}
			}
		}()
	}
	wg.Wait()
	for g, e := range errs {
		if e > 0 {
			t.Errorf("goroutine %d: %d answers differ from the serial ones", g, e)
		}
	}
}

func TestMeshShapeConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pts := make([]geom.Vec3, 2000)
	for i := range pts {
		pts[i] = geom.Vec3{rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5, rng.Float64()*3 - 1.5}
	}
	for _, removed := range []int{0, 3} {
		s, err := NewMeshShape(geom.OpenSphereMesh(geom.Vec3{}, 1, 16, 32, removed))
		if err != nil {
			t.Fatal(err)
		}
		concurrentMatches(t, s, pts)
	}
}

// A voxelized sphere as a GridShape: within the band phi is the sphere's distance to
// about the chord and rounding errors, deep inside it is negative (the inside tiles),
// far outside positive, and the normal is the sphere's.
func TestGridShapeSphere(t *testing.T) {
	h := 1.0 / 32
	m := geom.OpenSphereMesh(geom.Vec3{0.02, 0.01, -0.03}, 0.7, 48, 96, 0)
	c, err := Mesh(m, Options{VoxelSize: h, HalfWidth: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := levelset.NewGridShape(c.Surface)
	if err != nil {
		t.Fatal(err)
	}
	if s.Grid() != c.Surface || s.Lipschitz() < math.Sqrt(3) {
		t.Fatalf("grid %p, Lipschitz %g", s.Grid(), s.Lipschitz())
	}
	ref := geom.Sphere{Center: geom.Vec3{0.02, 0.01, -0.03}, Radius: 0.7}
	rng := rand.New(rand.NewPCG(11, 12))
	worstPhi, worstAngle := 0.0, 0.0
	for range 3000 {
		p := ref.Center.Add(geom.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1})
		phi, n := s.Distance(p)
		want, wn := ref.Distance(p)
		switch {
		case math.Abs(want) < 1.5*h:
			worstPhi = max(worstPhi, math.Abs(phi-want))
			worstAngle = max(worstAngle, angleDeg(n, wn))
		case want < -4*h && phi >= 0, want > 4*h && phi <= 0:
			t.Errorf("p %v (sphere phi %g): grid phi %g", p, want, phi)
		}
		if math.Abs(n.Norm()-1) > 1e-9 {
			t.Fatalf("p %v: normal %v is not unit", p, n)
		}
	}
	t.Logf("voxelized sphere, h = %g: max |phi - phi_sphere| = %.2e (%.2f h), max normal angle %.2f deg within 1.5 h",
		h, worstPhi, worstPhi/h, worstAngle)
	if worstPhi > 0.05*h {
		t.Errorf("max |phi - phi_sphere| = %g", worstPhi)
	}
	if worstAngle > 3 {
		t.Errorf("max normal angle %g degrees", worstAngle)
	}
	if _, n := s.Distance(geom.Vec3{100, 0, 0}); n != (geom.Vec3{0, 1, 0}) {
		t.Errorf("far outside: normal %v", n)
	}
	pts := make([]geom.Vec3, 2000)
	for i := range pts {
		pts[i] = geom.Vec3{rng.Float64()*1.6 - 0.8, rng.Float64()*1.6 - 0.8, rng.Float64()*1.6 - 0.8}
	}
	concurrentMatches(t, s, pts)
}

func TestGridShapeRejects(t *testing.T) {
	tr := levelset.Transform{VoxelSize: 0.1}
	empty := levelset.NewGrid(tr, float32(0.3))
	neg := levelset.NewGrid(tr, float32(-0.3))
	neg.Set(levelset.Coord{}, -1)
	bad := levelset.NewGrid(levelset.Transform{VoxelSize: 0}, float32(0.3))
	bad.Set(levelset.Coord{}, -1)
	for name, g := range map[string]*levelset.FloatGrid{"empty": empty, "negative background": neg, "bad transform": bad} {
		if _, err := levelset.NewGridShape(g); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}
