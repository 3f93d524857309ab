package geom

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
	if !(Box{Min: Vec3{0, 0, 0}, Max: Vec3{1, 1, 1}}).Contains(Vec3{1, 0.5, 0}) {
		t.Error("Contains is closed")
	}
}

// The capped cylinder at known points: beside the side, beyond a cap, beyond the rim,
// inside near the side and near a cap, on the axis; for a tilted axis the same points
// are rotated with it.
func TestCylinderKnownPoints(t *testing.T) {
	// Axis along y from (1, 0, 1) to (1, 2, 1), radius 0.5.
	c := Cylinder{A: Vec3{1, 0, 1}, B: Vec3{1, 2, 1}, Radius: 0.5}
	cases := []struct {
		name string
		p    Vec3
		phi  float64
		n    Vec3
	}{
		{"beside the side", Vec3{2, 1, 1}, 0.5, Vec3{1, 0, 0}},
		{"beyond the top cap", Vec3{1.2, 3, 1}, 1, Vec3{0, 1, 0}},
		{"beyond the bottom cap", Vec3{1, -0.25, 0.9}, 0.25, Vec3{0, -1, 0}},
		{"beyond the rim", Vec3{1, 2.3, 1.9}, 0.5, Vec3{0, 0.6, 0.8}},
		{"inside near the side", Vec3{1.4, 1, 1}, -0.1, Vec3{1, 0, 0}},
		{"inside near a cap", Vec3{1, 1.9, 1.2}, -0.1, Vec3{0, 1, 0}},
		{"the centre", Vec3{1, 1, 1}, -0.5, Vec3{1, 0, 0}.Cross(Vec3{0, 1, 0}).Unit()},
		{"on the axis above", Vec3{1, 2.5, 1}, 0.5, Vec3{0, 1, 0}},
	}
	for _, k := range cases {
		phi, n := c.Distance(k.p)
		if math.Abs(phi-k.phi) > 1e-12 || math.Abs(n.Norm()-1) > 1e-12 {
			t.Errorf("%s at %v: phi %g |n| %g, want %g and a unit normal", k.name, k.p, phi, n.Norm(), k.phi)
		}
		if k.name != "the centre" && !near(n, k.n, 1e-12) {
			t.Errorf("%s at %v: normal %v, want %v", k.name, k.p, n, k.n)
		}
		if k.name == "the centre" && math.Abs(n.Dot(Vec3{0, 1, 0})) > 1e-12 {
			t.Errorf("at the centre the normal %v is not radial", n)
		}
	}
}

// rotation returns the rotation by angle about the unit axis u (Rodrigues).
func rotation(u Vec3, angle float64) func(Vec3) Vec3 {
	s, c := math.Sin(angle), math.Cos(angle)
	return func(v Vec3) Vec3 {
		return v.Scale(c).Add(u.Cross(v).Scale(s)).Add(u.Scale(u.Dot(v) * (1 - c)))
	}
}

// Against brute force: the distance to a dense sampling of the cylinder's surface (side,
// caps) has the magnitude of phi to within the sampling's resolution, for a tilted axis.
// phi's sign agrees with an independent inside test, and p - phi n is on the surface.
func TestCylinderBruteForce(t *testing.T) {
	rot := rotation(Vec3{1, 2, 3}.Unit(), 0.7)
	a := Vec3{0.2, -0.1, 0.3}
	c := Cylinder{A: a, B: a.Add(rot(Vec3{0, 1.5, 0})), Radius: 0.4}
	// Surface samples in the body frame (axis along y from 0 to 1.5), rotated.
	const nAngle, nHeight, nRadius = 360, 300, 80
	var surf []Vec3
	for i := 0; i < nAngle; i++ {
		th := 2 * math.Pi * float64(i) / nAngle
		cs, sn := math.Cos(th), math.Sin(th)
		for j := 0; j <= nHeight; j++ {
			surf = append(surf, Vec3{0.4 * cs, 1.5 * float64(j) / nHeight, 0.4 * sn})
		}
		for j := 0; j < nRadius; j++ {
			r := 0.4 * float64(j) / nRadius
			surf = append(surf, Vec3{r * cs, 0, r * sn}, Vec3{r * cs, 1.5, r * sn})
		}
	}
	for i := range surf {
		surf[i] = a.Add(rot(surf[i]))
	}
	// The sampling's spacing bounds how far a surface point can be from the nearest sample.
	spacing := math.Max(2*math.Pi*0.4/nAngle, 1.5/nHeight)
	x := 0.321
	next := func() float64 { x = math.Mod(x*9301+49297, 233280) / 233280; return 2.4*x - 1 }
	inside := func(p Vec3) bool {
		u := c.B.Sub(c.A).Unit()
		y := p.Sub(c.A).Dot(u)
		return y >= 0 && y <= 1.5 && p.Sub(c.A).Sub(u.Scale(y)).Norm() <= 0.4
	}
	for k := 0; k < 60; k++ {
		p := Vec3{next(), next() + 0.6, next()}
		phi, n := c.Distance(p)
		best := math.Inf(1)
		for _, s := range surf {
			best = math.Min(best, p.Sub(s).Norm())
		}
		if math.Abs(math.Abs(phi)-best) > spacing {
			t.Errorf("p = %v: |phi| = %.6f, brute force %.6f (sampling %.4f)", p, math.Abs(phi), best, spacing)
		}
		if (phi < 0) != inside(p) && math.Abs(phi) > 1e-9 {
			t.Errorf("p = %v: phi = %g but inside = %v", p, phi, inside(p))
		}
		if q, _ := c.Distance(p.Sub(n.Scale(phi))); math.Abs(q) > 1e-9 {
			t.Errorf("p = %v: p - phi n is %g off the surface", p, q)
		}
	}
}

// The normal is the gradient of phi: central differences agree away from the kinks of
// the distance (the medial surfaces inside, where the nearest face changes).
func TestCylinderGradient(t *testing.T) {
	rot := rotation(Vec3{-1, 0.5, 2}.Unit(), 1.1)
	a := Vec3{0.1, 0.2, -0.1}
	c := Cylinder{A: a, B: a.Add(rot(Vec3{0, 1, 0})), Radius: 0.3}
	const eps = 1e-6
	x := 0.777
	next := func() float64 { x = math.Mod(x*9301+49297, 233280) / 233280; return 2*x - 1 }
	checked := 0
	for k := 0; k < 3000 && checked < 500; k++ {
		p := Vec3{next(), next() + 0.5, next()}
		phi, n := c.Distance(p)
		var fd Vec3
		for ax := range 3 {
			dp := Vec3{}
			dp[ax] = eps
			fp, _ := c.Distance(p.Add(dp))
			fm, _ := c.Distance(p.Sub(dp))
			fd[ax] = (fp - fm) / (2 * eps)
		}
		if phi < 0 && math.Abs(fd.Norm()-1) > 1e-6 {
			continue // within eps of a kink of the inside distance
		}
		checked++
		if !near(fd, n, 1e-6) {
			t.Errorf("p = %v (phi %g): normal %v, finite differences %v", p, phi, n, fd)
		}
	}
	if checked < 400 {
		t.Errorf("only %d points checked", checked)
	}
}

// The cylinder's distance changes no faster than distance, like the other shapes'.
func TestCylinderIsLipschitz(t *testing.T) {
	c := Cylinder{A: Vec3{-0.5, 0.2, 0}, B: Vec3{0.7, -0.3, 0.4}, Radius: 0.35}
	x := 0.5
	next := func() float64 { x = math.Mod(x*9301+49297, 233280) / 233280; return 4*x - 2 }
	for k := 0; k < 4000; k++ {
		p, q := Vec3{next(), next(), next()}, Vec3{next(), next(), next()}
		if k%2 == 0 { // close pairs too
			q = p.Add(q.Scale(0.01))
		}
		fp, _ := c.Distance(p)
		fq, _ := c.Distance(q)
		if math.Abs(fp-fq) > p.Sub(q).Norm()+1e-12 {
			t.Fatalf("|phi(%v) - phi(%v)| = %g exceeds the distance %g", p, q, math.Abs(fp-fq), p.Sub(q).Norm())
		}
	}
}
