package simcore

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
)

// Particles that keep rest positions get their seeded positions, from Fill and Add,
// and keep them bit for bit while they move and the solver reorders them; particles
// that do not keep them carry no Rest channel.
func TestRestPositionsStayWhereSeeded(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.04
	p := &Particles{}
	p.KeepRestPositions()
	src := ballSource(geom.Vec3{0.5, 0.6, 0.5}, 0.12, DefaultMaterial, 4)
	src.Velocity, src.Spin, src.Center = geom.Vec3{1, 0, -0.5}, geom.Vec3{0, 0, 5}, src.Shape.(geom.Sphere).Center
	if _, err := Fill(p, src, cfg.H); err != nil {
		t.Fatal(err)
	}
	seeded := map[int32]geom.Vec3{}
	for i, x := range p.X {
		if p.Rest[i] != x {
			t.Fatalf("particle %d seeded at %v has the rest position %v", i, x, p.Rest[i])
		}
		seeded[p.ID[i]] = x
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Advance(0.05); err != nil {
		t.Fatal(err)
	}
	moved, reordered := 0.0, 0
	for i, id := range p.ID {
		if int(id) != i {
			reordered++
		}
		if p.Rest[i] != seeded[id] {
			t.Fatalf("particle %d (ID %d): rest position %v, seeded at %v", i, id, p.Rest[i], seeded[id])
		}
		moved += p.X[i].Sub(p.Rest[i]).Norm() / float64(p.Len())
	}
	t.Logf("%d particles moved %.3f m on average in %d steps; %d have another index", p.Len(), moved, s.Steps, reordered)
	if moved < 0.04 || reordered == 0 {
		t.Errorf("the particles moved %.3f m on average, %d were reordered: the test does not see them move", moved, reordered)
	}

	x := geom.Vec3{0.3, 0.9, 0.5}
	if i := p.Add(x, geom.Vec3{}, 1e-4, DefaultMaterial.PerParticle()); p.Rest[i] != x {
		t.Errorf("a particle added at %v has the rest position %v", x, p.Rest[i])
	}

	q := &Particles{}
	if _, err := Fill(q, src, cfg.H); err != nil {
		t.Fatal(err)
	}
	q.Add(x, geom.Vec3{}, 1e-4, DefaultMaterial.PerParticle())
	if q.Rest != nil {
		t.Error("particles that were not asked to keep rest positions carry them")
	}
}

// orientationAngle returns the rotation angle 2 acos(w) of particle i's Orientation,
// its axis, and how far the quaternion's length is from 1.
func orientationAngle(p *Particles, i int) (angle float64, axis geom.Vec3, unit float64) {
	w, x, y, z := p.Orientation(i)
	return 2 * math.Acos(min(w, 1)), geom.Vec3{x, y, z}.Unit(), math.Abs(math.Sqrt(w*w+x*x+y*y+z*z) - 1)
}

// A ball spinning freely at omega = 10 rad/s about z turns its material with it: with
// APIC, which keeps the spin (TestAPICKeepsSpin), every particle's Orientation is a
// turn about +z by omega t. Measured at t = 0.05, 0.1, 0.15 s: the angles are within
// 0.6e-3, 1.2e-3 and 1.7e-3 rad of omega t (0.11% of 1.5 rad at the end), the axes
// within 4e-3, 6e-3 and 8e-3 rad of +z (the ball stretches a little as it spins); the
// test allows 5e-3 and 2e-2 rad. Every quaternion is unit to 1e-15.
func TestOrientationFollowsSpin(t *testing.T) {
	const omega = 10.0
	s := spinningBall(t, APIC, omega)
	p := s.P
	for _, time := range []float64{0.05, 0.1, 0.15} {
		if _, err := s.Advance(time); err != nil {
			t.Fatal(err)
		}
		worstAngle, worstAxis := 0.0, 0.0
		for i := range p.Len() {
			angle, axis, unit := orientationAngle(p, i)
			if unit > 1e-15 {
				t.Fatalf("particle %d: |q| - 1 = %g", i, unit)
			}
			worstAngle = max(worstAngle, math.Abs(angle-omega*s.Time))
			worstAxis = max(worstAxis, math.Acos(min(axis[2], 1)))
		}
		t.Logf("t = %.3f s: angles within %.2g rad of omega t = %.3f, axes within %.2g rad of +z", s.Time, worstAngle, omega*s.Time, worstAxis)
		if worstAngle > 5e-3 || worstAxis > 2e-2 {
			t.Errorf("t = %.3f s: angles %.3g rad from omega t = %.3f, axes %.3g rad from +z; want 5e-3 and 2e-2",
				s.Time, worstAngle, omega*s.Time, worstAxis)
		}
	}
}

// A block of snow resting on the floor settles under its weight but does not turn:
// after 0.2 s every particle's Orientation is the identity to 5e-3 rad (measured:
// 1.7e-3 at most).
func TestOrientationOfRestingBlock(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 0.6, 1}}
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.34, 0, 0.34}, Max: geom.Vec3{0.66, 0.16, 0.66}}, DefaultMaterial, geom.Vec3{})
	if _, err := s.Advance(0.2); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range s.P.Len() {
		angle, _, unit := orientationAngle(s.P, i)
		if unit > 1e-15 {
			t.Fatalf("particle %d: |q| - 1 = %g", i, unit)
		}
		worst = max(worst, angle)
	}
	t.Logf("%d particles, %d steps: largest angle %.2g rad", s.P.Len(), s.Steps, worst)
	if worst > 5e-3 {
		t.Errorf("a resting block's particles turned by up to %.3g rad, want the identity to 5e-3", worst)
	}
}
