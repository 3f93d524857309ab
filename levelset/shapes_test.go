package levelset

import (
	"math"
	"testing"
)

func near(a, b Vec3, tol float64) bool { return a.Sub(b).Norm() <= tol }

// Exact signed distances and outward normals of the analytic shapes.
func TestShapeDistances(t *testing.T) {
	box := Box{Min: Vec3{0, 0, 0}, Max: Vec3{2, 1, 1}}
	sphere := Sphere{Center: Vec3{1, 1, 1}, Radius: 0.5}
	floor := HalfSpace{Point: Vec3{0, 0.25, 0}, Normal: Vec3{0, 1, 0}}
	cases := []struct {
		name  string
		shape Shape
		p     Vec3
		phi   float64
		n     Vec3
	}{
		{"box centre", box, Vec3{1, 0.5, 0.5}, -0.5, Vec3{0, 1, 0}},
		{"box near +x face", box, Vec3{1.9, 0.5, 0.5}, -0.1, Vec3{1, 0, 0}},
		{"box outside a face", box, Vec3{3, 0.5, 0.5}, 1, Vec3{1, 0, 0}},
		{"box outside an edge", box, Vec3{3, 2, 0.5}, math.Sqrt2, Vec3{1, 1, 0}.Unit()},
		{"box outside a corner", box, Vec3{-1, -1, -1}, math.Sqrt(3), Vec3{-1, -1, -1}.Unit()},
		{"sphere above", sphere, Vec3{1, 3, 1}, 1.5, Vec3{0, 1, 0}},
		{"sphere inside", sphere, Vec3{1.25, 1, 1}, -0.25, Vec3{1, 0, 0}},
		{"half-space above", floor, Vec3{5, 1, -3}, 0.75, Vec3{0, 1, 0}},
		{"half-space below", floor, Vec3{5, 0, -3}, -0.25, Vec3{0, 1, 0}},
	}
	for _, c := range cases {
		phi, n := c.shape.Distance(c.p)
		if math.Abs(phi-c.phi) > 1e-12 || !near(n, c.n, 1e-12) {
			t.Errorf("%s at %v: phi %g normal %v, want %g %v", c.name, c.p, phi, n, c.phi, c.n)
		}
	}
}

// The distance functions change no faster than distance (the solver's collider
// culling relies on it), checked on random pairs of points.
func TestShapesAreLipschitz(t *testing.T) {
	shapes := []Shape{
		Box{Min: Vec3{-1, 0, 0.5}, Max: Vec3{0.5, 2, 1}},
		Sphere{Center: Vec3{0.3, -0.2, 0.1}, Radius: 0.7},
		HalfSpace{Point: Vec3{0, 1, 0}, Normal: Vec3{1, 2, -2}.Unit()},
	}
	x := 0.123
	next := func() float64 { x = math.Mod(x*9301+49297, 233280) / 233280; return 4*x - 2 }
	for _, s := range shapes {
		for k := 0; k < 2000; k++ {
			a, b := Vec3{next(), next(), next()}, Vec3{next(), next(), next()}
			pa, _ := s.Distance(a)
			pb, _ := s.Distance(b)
			if math.Abs(pa-pb) > a.Sub(b).Norm()+1e-12 {
				t.Fatalf("%T: |phi(%v) - phi(%v)| = %g exceeds the distance %g", s, a, b, math.Abs(pa-pb), a.Sub(b).Norm())
			}
		}
	}
}

func TestVec3(t *testing.T) {
	a, b := Vec3{1, 2, 3}, Vec3{-2, 0.5, 4}
	if a.Dot(b) != 11 || a.Cross(b) != (Vec3{6.5, -10, 4.5}) || a.Add(b) != (Vec3{-1, 2.5, 7}) {
		t.Errorf("Dot %g Cross %v Add %v", a.Dot(b), a.Cross(b), a.Add(b))
	}
	if (Vec3{}).Unit() != (Vec3{}) || math.Abs(Vec3{3, 4, 0}.Unit().Norm()-1) > 1e-15 {
		t.Error("Unit")
	}
	if (Vec3{1, math.NaN(), 0}).IsFinite() || !(Vec3{1, 2, 3}).IsFinite() {
		t.Error("IsFinite")
	}
	if !(Bounds{Min: Vec3{0, 0, 0}, Max: Vec3{1, 1, 1}}).Contains(Vec3{1, 0.5, 0}) {
		t.Error("Contains is closed")
	}
}
