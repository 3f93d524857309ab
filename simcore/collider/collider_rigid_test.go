package collider

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// rotateAbout returns v rotated by angle about the unit axis u (Rodrigues' formula),
// independently of Quat.
func rotateAbout(u geom.Vec3, angle float64, v geom.Vec3) geom.Vec3 {
	s, c := math.Sin(angle), math.Cos(angle)
	return v.Scale(c).Add(u.Cross(v).Scale(s)).Add(u.Scale(u.Dot(v) * (1 - c)))
}

func TestQuat(t *testing.T) {
	u := geom.Vec3{1, -2, 0.5}.Unit()
	q := QuatAxisAngle(u, 1.2)
	v := geom.Vec3{0.3, 0.7, -1.1}
	if got, want := q.Rotate(v), rotateAbout(u, 1.2, v); !near(got, want, 1e-14) {
		t.Errorf("Rotate %v, Rodrigues %v", got, want)
	}
	if got := q.Conj().Rotate(q.Rotate(v)); !near(got, v, 1e-14) {
		t.Errorf("Conj does not undo Rotate: %v", got)
	}
	r := QuatAxisAngle(geom.Vec3{0, 0, 1}, 0.4)
	if got, want := q.Mul(r).Rotate(v), q.Rotate(r.Rotate(v)); !near(got, want, 1e-14) {
		t.Errorf("q r rotates by %v, r then q by %v", got, want)
	}
}

// A box that turns about a tilted axis through a pivot while the pivot translates:
// phi, n and v_co of the keyframed motion against the analytic ones, where the angle
// grows linearly (a slerp between keys about a fixed axis is exactly that).
func TestRigidBodyAgainstAnalyticMotion(t *testing.T) {
	box := geom.Box{Min: geom.Vec3{-0.2, -0.1, -0.15}, Max: geom.Vec3{0.3, 0.1, 0.15}} // body frame
	axis := geom.Vec3{0.3, 1, -0.2}.Unit()
	const rate = 2.0 // rad/s
	t0, t1 := 0.5, 1.0
	p0, p1 := geom.Vec3{1, 0.5, 0.2}, geom.Vec3{1.4, 0.3, 0.2}
	body, err := NewRigidBody(box,
		[]TranslationKey{{T: t0, P: p0}, {T: t1, P: p1}},
		[]RotationKey{{T: t0, Q: QuatAxisAngle(axis, rate*t0)}, {T: t1, Q: QuatAxisAngle(axis, rate*t1)}},
		Surface{Mode: Sticky})
	if err != nil {
		t.Fatal(err)
	}
	vOrigin := p1.Sub(p0).Scale(1 / (t1 - t0))
	omega := axis.Scale(rate)
	rng := rand.New(rand.NewPCG(3, 4))
	next := func() float64 { return rng.Float64() - 0.5 }
	for k := 0; k < 200; k++ {
		tm := t0 + (t1-t0)*(next()+0.5)
		origin := p0.Add(vOrigin.Scale(tm - t0))
		xw := origin.Add(geom.Vec3{next(), next(), next()})
		wantPhi, nb := box.Distance(rotateAbout(axis, -rate*tm, xw.Sub(origin)))
		wantN := rotateAbout(axis, rate*tm, nb)
		phi, n, vco := body.Sample(xw, tm)
		if math.Abs(phi-wantPhi) > 1e-12 || !near(n, wantN, 1e-12) {
			t.Fatalf("t = %g, x = %v: phi %g n %v, want %g %v", tm, xw, phi, n, wantPhi, wantN)
		}
		// omega x r against the velocity of the body point at xw by central differences.
		pb := rotateAbout(axis, -rate*tm, xw.Sub(origin))
		at := func(s float64) geom.Vec3 {
			return p0.Add(vOrigin.Scale(s - t0)).Add(rotateAbout(axis, rate*s, pb))
		}
		const dt = 1e-6
		fd := at(tm + dt).Sub(at(tm - dt)).Scale(1 / (2 * dt))
		if want := vOrigin.Add(omega.Cross(xw.Sub(origin))); !near(vco, want, 1e-12) || !near(vco, fd, 1e-7) {
			t.Fatalf("t = %g, x = %v: v_co %v, want dT/dt + omega x r = %v (finite differences %v)", tm, xw, vco, want, fd)
		}
	}
	if body.Surface().Mode != Sticky {
		t.Error("Surface")
	}
}

// A pure rotation about the world origin: v_co = omega x x, with omega from the keys.
func TestRigidBodyOmegaCrossR(t *testing.T) {
	ball := geom.Sphere{Center: geom.Vec3{1, 0, 0}, Radius: 0.25} // off the axis: it orbits
	body, err := NewRigidBody(ball, nil, []RotationKey{
		{T: 0, Q: Quat{W: 1}},
		{T: 0.5, Q: QuatAxisAngle(geom.Vec3{0, 1, 0}, math.Pi/2)}, // a quarter turn about y in 0.5 s
	}, Surface{})
	if err != nil {
		t.Fatal(err)
	}
	omega := geom.Vec3{0, math.Pi, 0}
	// At t = 0.25 the centre has turned 45 degrees about y: (cos 45, 0, -sin 45).
	c := geom.Vec3{math.Sqrt2 / 2, 0, -math.Sqrt2 / 2}
	for _, d := range []geom.Vec3{{0.1, 0, 0}, {0, 0.3, 0}, {0, 0, -0.5}, {-0.2, 0.1, 0.2}} {
		xw := c.Add(d)
		phi, n, vco := body.Sample(xw, 0.25)
		if math.Abs(phi-(d.Norm()-0.25)) > 1e-12 || !near(n, d.Unit(), 1e-12) {
			t.Errorf("x = %v: phi %g n %v, want %g %v", xw, phi, n, d.Norm()-0.25, d.Unit())
		}
		if want := omega.Cross(xw); !near(vco, want, 1e-12) {
			t.Errorf("x = %v: v_co %v, want omega x x = %v", xw, vco, want)
		}
	}
}

// Slerp takes the shorter arc: from 350 to 10 degrees about z is a 20 degree turn
// through 0, even when the second key is given as the negated quaternion. Outside the
// keys the body holds still at the end poses.
func TestRigidBodyShortestArcAndClamp(t *testing.T) {
	z := geom.Vec3{0, 0, 1}
	deg := math.Pi / 180
	for _, negate := range []bool{false, true} {
		q1 := QuatAxisAngle(z, 10*deg)
		if negate {
			q1 = q1.scale(-1)
		}
		body, err := NewRigidBody(geom.Box{Min: geom.Vec3{0, -0.01, -1}, Max: geom.Vec3{1, 0.01, 1}}, nil,
			[]RotationKey{{T: 1, Q: QuatAxisAngle(z, 350*deg)}, {T: 2, Q: q1}}, Surface{})
		if err != nil {
			t.Fatal(err)
		}
		q, _, omega, _ := body.Pose(1.5)
		if got := q.Rotate(geom.Vec3{1, 0, 0}); !near(got, geom.Vec3{1, 0, 0}, 1e-12) {
			t.Errorf("negate=%v: half-way the arm points along %v, want +x", negate, got)
		}
		if !near(omega, z.Scale(20*deg), 1e-12) {
			t.Errorf("negate=%v: omega = %v, want 20 deg/s about +z", negate, omega)
		}
		for _, c := range []struct {
			t     float64
			angle float64
		}{{0, 350 * deg}, {1, 350 * deg}, {2, 10 * deg}, {5, 10 * deg}} {
			q, _, omega, _ := body.Pose(c.t)
			want := geom.Vec3{math.Cos(c.angle), math.Sin(c.angle), 0}
			if got := q.Rotate(geom.Vec3{1, 0, 0}); !near(got, want, 1e-12) {
				t.Errorf("t = %g: arm %v, want %v", c.t, got, want)
			}
			if (c.t < 1 || c.t > 2) && omega != (geom.Vec3{}) {
				t.Errorf("t = %g, outside the keys: omega %v, want zero", c.t, omega)
			}
		}
	}
}

// Translation keys: linear in between, each segment's own velocity, a key's time
// belonging to the segment that ends there, and no motion beyond the keys.
func TestRigidBodyTranslationKeys(t *testing.T) {
	keys := []TranslationKey{{T: 0, P: geom.Vec3{0, 0, 0}}, {T: 1, P: geom.Vec3{2, 0, 0}}, {T: 3, P: geom.Vec3{2, 1, 0}}}
	body, err := NewRigidBody(geom.Sphere{Radius: 0.1}, keys, nil, Surface{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		t        float64
		origin   geom.Vec3
		velocity geom.Vec3
	}{
		{-1, geom.Vec3{0, 0, 0}, geom.Vec3{}},
		{0, geom.Vec3{0, 0, 0}, geom.Vec3{2, 0, 0}},
		{0.25, geom.Vec3{0.5, 0, 0}, geom.Vec3{2, 0, 0}},
		{1, geom.Vec3{2, 0, 0}, geom.Vec3{2, 0, 0}},
		{2, geom.Vec3{2, 0.5, 0}, geom.Vec3{0, 0.5, 0}},
		{3, geom.Vec3{2, 1, 0}, geom.Vec3{0, 0.5, 0}},
		{4, geom.Vec3{2, 1, 0}, geom.Vec3{}},
	}
	for _, c := range cases {
		_, origin, _, v := body.Pose(c.t)
		if !near(origin, c.origin, 1e-12) || !near(v, c.velocity, 1e-12) {
			t.Errorf("t = %g: origin %v velocity %v, want %v %v", c.t, origin, v, c.origin, c.velocity)
		}
	}
	for _, bad := range [][]TranslationKey{
		{{T: 1}, {T: 1}},
		{{T: math.NaN()}},
		{{T: 0, P: geom.Vec3{math.Inf(1), 0, 0}}},
	} {
		if _, err := NewRigidBody(geom.Sphere{Radius: 1}, bad, nil, Surface{}); err == nil {
			t.Errorf("keys %v accepted", bad)
		}
	}
	if _, err := NewRigidBody(geom.Sphere{Radius: 1}, nil, []RotationKey{{T: 0}}, Surface{}); err == nil {
		t.Error("a zero quaternion accepted")
	}
}

// GridShape: the trilinear level set of a sphere, moved rigidly, against the analytic
// sphere; positive distances are lowered by at most sqrt(3) h and keep their sign, and
// the certified field changes no faster than distance.
func TestRigidGridBody(t *testing.T) {
	const h = 0.02
	sphere := geom.Sphere{Center: geom.Vec3{0.013, -0.007, 0.004}, Radius: 0.2}
	kf := keyframeFromShape(sphere, nil, h, 4, geom.Vec3{-0.3, -0.3, -0.3}, geom.Vec3{0.3, 0.3, 0.3})
	gs, err := levelset.NewGridShape(kf.Surface)
	if err != nil {
		t.Fatal(err)
	}
	body, err := NewRigidBody(gs, []TranslationKey{{T: 0, P: geom.Vec3{0.5, 0.5, 0.5}}, {T: 1, P: geom.Vec3{0.9, 0.5, 0.5}}},
		[]RotationKey{{T: 0, Q: Quat{W: 1}}, {T: 1, Q: QuatAxisAngle(geom.Vec3{0, 1, 0}, 1)}}, Surface{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	next := func() float64 { return rng.Float64() - 0.5 }
	worstIn, worstN := 0.0, 0.0
	for k := 0; k < 2000; k++ {
		tm := 0.5 + next()
		q, origin, _, _ := body.Pose(tm)
		c := origin.Add(q.Rotate(sphere.Center))
		xw := c.Add(geom.Vec3{next(), next(), next()}.Scale(0.6))
		phi, n, _ := body.Sample(xw, tm)
		exact, en := geom.Sphere{Center: c, Radius: 0.2}.Distance(xw)
		if math.Abs(exact) <= 3*h { // clear of the band's last voxel
			if exact < -0.01*h { // outside, phi is the lowered clearance checked below
				worstIn = math.Max(worstIn, math.Abs(phi-exact))
			}
			worstN = math.Max(worstN, n.Sub(en).Norm())
		}
		if (phi > 0) != (exact > 0) && math.Abs(exact) > 0.01*h {
			t.Fatalf("x = %v: phi %g, exact %g: sign differs", xw, phi, exact)
		}
		// (Within 3 h: the last voxel of the band blends in the clamped background.)
		if phi > 0 && (phi > exact+0.01*h || phi < exact-math.Sqrt(3)*h-0.01*h) && exact < 3*h {
			t.Fatalf("x = %v: clearance %g, exact %g: not within [exact - sqrt(3) h, exact]", xw, phi, exact)
		}
	}
	t.Logf("grid sphere moved rigidly: |phi - exact| <= %.3g h inside, normals within %.3g", worstIn/h, worstN)
	if worstIn > 0.05*h || worstN > 0.1 {
		t.Errorf("grid body: phi error %.3g h, normal error %.3g", worstIn/h, worstN)
	}
	// The pruning property: phi(c) > |y - c| rules out contact at y.
	for k := 0; k < 20000; k++ {
		c := geom.Vec3{0.7, 0.5, 0.5}.Add(geom.Vec3{next(), next(), next()}.Scale(0.8))
		y := c.Add(geom.Vec3{next(), next(), next()}.Scale(0.4))
		pc, _, _ := body.Sample(c, 0.5)
		if py, _, _ := body.Sample(y, 0.5); pc > y.Sub(c).Norm() && py <= 0 {
			t.Fatalf("phi(%v) = %g > |y - c| = %g but phi(%v) = %g", c, pc, y.Sub(c).Norm(), y, py)
		}
	}
}

// Sample's pose cache, shared by the solver's workers, gives what a body sampled for
// the first time gives, to the bit, while workers sample it at times that change under
// them.
func TestRigidSamplePoseCache(t *testing.T) {
	newBody := func() *RigidBody {
		b, err := NewRigidBody(geom.Box{Min: geom.Vec3{-0.1, -0.05, -0.1}, Max: geom.Vec3{0.1, 0.05, 0.1}},
			[]TranslationKey{{T: 0, P: geom.Vec3{0.5, 0.5, 0.5}}, {T: 1, P: geom.Vec3{0.7, 0.4, 0.5}}},
			[]RotationKey{{T: 0, Q: Quat{W: 1}}, {T: 1, Q: QuatAxisAngle(geom.Vec3{0, 1, 1}, 1)}}, Surface{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	shared := newBody()
	errs := make(chan string, 8)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for i := range 2000 {
				at := float64(i%7) / 7 // times shared by the workers, revisited
				x := geom.Vec3{0.4 + 0.4*rng.Float64(), 0.3 + 0.4*rng.Float64(), 0.4 + 0.2*rng.Float64()}
				phi, n, v := shared.Sample(x, at)
				wphi, wn, wv := newBody().Sample(x, at)
				if phi != wphi || n != wn || v != wv {
					errs <- fmt.Sprintf("x %v at %g: %g %v %v, a new body gives %g %v %v", x, at, phi, n, v, wphi, wn, wv)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
