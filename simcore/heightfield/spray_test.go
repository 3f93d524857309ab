package heightfield

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

func TestReleaseIsExponential(t *testing.T) {
	sp := DefaultSpray
	const v, dt = 2e-6, 0.002
	total := 0.0
	for n := 1; n <= 5000; n++ {
		total += sp.released(v, float64(n)*dt, dt)
	}
	// The steps telescope: after 10 s (100 time constants) all of v has fallen.
	if math.Abs(total-v) > 1e-12*v {
		t.Errorf("released %g of %g", total, v)
	}
	// After one time constant, 1 - 1/e of the load is gone.
	got := 0.0
	for n := 1; n <= int(math.Round(sp.ReleaseTime/dt)); n++ {
		got += sp.released(v, float64(n)*dt, dt)
	}
	if want := v * (1 - math.Exp(-1)); math.Abs(got-want) > 1e-9*v {
		t.Errorf("after h: %g, want %g", got, want)
	}
}

func TestPointsAreUniformOnTheCarrier(t *testing.T) {
	// A quad whose two triangles differ in area: points must fall on each in
	// proportion, and on a triangle uniformly (mean at its centroid).
	c := carrier{corner: [4]geom.Vec3{{0, 0, 0}, {3, 0, 0}, {3, 0, 1}, {0, 0, 1}}}
	c.corner[2] = geom.Vec3{1, 0, 1} // triangle (0,1,2) area 1.5, (0,2,3) area 0.5
	rng := rand.New(rand.NewPCG(1, 1))
	var mean geom.Vec3
	const n = 200000
	for range n {
		mean = mean.Add(c.at(c.pointOn(rng)).Scale(1.0 / n))
	}
	// The centroid of the quad: area-weighted centroids of its triangles.
	c0 := c.corner[0].Add(c.corner[1]).Add(c.corner[2]).Scale(1.0 / 3)
	c1 := c.corner[0].Add(c.corner[2]).Add(c.corner[3]).Scale(1.0 / 3)
	want := c0.Scale(0.75).Add(c1.Scale(0.25))
	if d := mean.Sub(want).Norm(); d > 0.01 {
		t.Errorf("mean point %v, want the centroid %v", mean, want)
	}
}

func TestSlowObjectsKeepTheirLoad(t *testing.T) {
	// The same foot lifts off slowly and fast: (|v|/s)^gamma makes the slow one drop
	// fewer particles in the first half second.
	spray := func(lift float64) int {
		foot := geom.Box{Min: geom.Vec3{-0.05, 0, -0.05}, Max: geom.Vec3{0.05, 0.05, 0.05}}
		c := press(t, foot, 0.01, 0.05, 0.1, 0.1+lift)
		cfg := testConfig(Snow, c)
		cfg.Spray.DropSpeed = 2
		s := newSim(t, cfg)
		if _, err := s.Advance(0.1 + lift); err != nil {
			t.Fatal(err)
		}
		return int(s.nextID)
	}
	slow, fast := spray(0.5), spray(0.05) // about 0.2 m/s and 2 m/s
	if !(fast > 3*slow && slow > 0) {
		t.Errorf("particles: %d from the slow lift, %d from the fast one", slow, fast)
	}
	t.Logf("%d particles from the slow lift, %d from the fast one", slow, fast)
}
