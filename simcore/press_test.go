package simcore

import (
	"math"
	"strings"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
	"snowtools/simcore/particles"
)

func TestPressForceDensity(t *testing.T) {
	const h = 0.01
	ball := Press{Center: geom.Vec3{1, 2, 3}, Radius: 0.1, Pressure: 500}
	for _, c := range []struct {
		x    geom.Vec3
		want geom.Vec3
	}{
		{geom.Vec3{1.05, 2, 3}, geom.Vec3{-5000, 0, 0}},        // P / R towards the centre
		{geom.Vec3{1, 1.95, 3}, geom.Vec3{0, 5000, 0}},         // from any side
		{geom.Vec3{1, 2, 3.005}, geom.Vec3{0, 0, -2500}},       // fading within a cell of the centre
		{geom.Vec3{1, 2, 3}, geom.Vec3{}},                      // none at the centre
		{geom.Vec3{1.2, 2, 3}, geom.Vec3{}},                    // none outside the radius
		{geom.Vec3{1.03, 2.04, 3}, geom.Vec3{-3000, -4000, 0}}, // any direction
	} {
		got := ball.forceDensity(c.x, h)
		if got.Sub(c.want).Norm() > 1e-9 {
			t.Errorf("ball press at %v: %v, want %v", c.x, got, c.want)
		}
	}
	// With an axis it presses towards a plane, whatever the distance along it.
	plates := Press{Center: geom.Vec3{0, 1, 0}, Axis: geom.Vec3{0, 2, 0}, Radius: 0.1, Pressure: 500}
	for _, c := range []struct {
		x    geom.Vec3
		want geom.Vec3
	}{
		{geom.Vec3{7, 1.05, -3}, geom.Vec3{0, -5000, 0}},
		{geom.Vec3{-2, 0.92, 4}, geom.Vec3{0, 5000, 0}},
		{geom.Vec3{0, 1.2, 0}, geom.Vec3{}},
	} {
		if got := plates.forceDensity(c.x, h); got.Sub(c.want).Norm() > 1e-9 {
			t.Errorf("plate press at %v: %v, want %v", c.x, got, c.want)
		}
	}
}

func TestPressValidate(t *testing.T) {
	good := Press{Radius: 0.1, Pressure: 100, Start: 0.5, End: 1}
	if err := good.Validate(); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		p    Press
		want string
	}{
		{Press{Radius: 0, Pressure: 1}, "radius"},
		{Press{Radius: 1, Pressure: -1}, "pressure"},
		{Press{Radius: 1, Pressure: math.Inf(1)}, "pressure"},
		{Press{Radius: 1, Start: 2, End: 1}, "end: 1 s: must be after the start"},
		{Press{Radius: 1, Axis: geom.Vec3{math.NaN(), 0, 0}}, "axis"},
	} {
		if err := c.p.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %s", c.p, err, c.want)
		}
	}
	cfg := DefaultConfig()
	cfg.Presses = []Press{good, {Radius: -1}}
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "press 2") {
		t.Errorf("config with a bad second press: %v", err)
	}
}

// pressExperiment is the experiment of Ye and Sugimoto's section 4.1 in 3D: a ball of
// soft snow (r = 5 cm, h = 1.25 cm, about 2,100 particles) is pressed for 0.1 s in the
// air with gravity off, then released with gravity on; it falls 10 cm onto the edge of
// a 15 cm step. It returns the simulation at time end.
func pressExperiment(t *testing.T, pressure float64, law *SinteringLaw, end float64) *Sim {
	t.Helper()
	const (
		h, r, pressing = 0.0125, 0.05, 0.1
	)
	centre := geom.Vec3{0.22, 0.35, 0.12}
	cfg := DefaultConfig()
	cfg.H = h
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.5, 0.5, 0.24}}
	cfg.GravityStart = pressing
	cfg.SinterStart, cfg.SinterEnd = 0, pressing
	cfg.Presses = []Press{{Center: centre, Radius: 1.2 * r, Pressure: pressure, End: pressing}}
	ground := collider.Surface{Mode: collider.Separate, Friction: 0.3}
	cfg.Colliders = []collider.Collider{
		&collider.MovingShape{Shape: geom.Box{Min: geom.Vec3{-1, -1, -1}, Max: geom.Vec3{0.22, 0.2, 1}}, Contact: ground},
		&collider.MovingShape{Shape: geom.Box{Min: geom.Vec3{-1, -1, -1}, Max: geom.Vec3{1, 0.05, 1}}, Contact: ground},
	}
	m := DefaultMaterial
	m.YoungsModulus = 1.4e4 // fresh snow, a tenth of Table 2's: it holds together only sintered
	m.Sintering = law
	p := &Particles{}
	box := geom.Box{Min: centre.Sub(geom.Vec3{r, r, r}), Max: centre.Add(geom.Vec3{r, r, r})}
	src := Source{Shape: geom.Sphere{Center: centre, Radius: r}, Bounds: box, Material: m,
		PerCell: 8, Seed: 7, Pattern: PatternJittered}
	if _, err := Fill(p, src, h); err != nil {
		t.Fatal(err)
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	stepFor(t, s, end)
	return s
}

// clusterStats returns the clusters of the simulation's particles with link distance
// link.
func clusterStats(t *testing.T, s *Sim, link float64) particles.ClusterStats {
	t.Helper()
	pos := make([]float32, 0, 3*s.P.Len())
	for _, x := range s.P.X {
		pos = append(pos, float32(x[0]), float32(x[1]), float32(x[2]))
	}
	st, err := particles.Clusters(pos, s.P.Mass, link, 10)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// While pressed with gravity off the ball stays where it is and packs; released, it
// falls.
func TestPressHoldsThenReleases(t *testing.T) {
	s := pressExperiment(t, 600, nil, 0.1)
	c := centroid(s.P)
	if d := c.Sub(geom.Vec3{0.22, 0.35, 0.12}).Norm(); d > 1e-3 {
		t.Errorf("pressed ball moved %.2g m: the press's forces do not balance", d)
	}
	j := 0.0
	for i := range s.P.JP {
		j += s.P.FE[i].mat3().Det() * float64(s.P.JP[i]) / float64(s.P.Len())
	}
	if !(j < 0.99) {
		t.Errorf("mean J %.4f after pressing at 600 Pa: the snow was not compressed", j)
	}
	if f := s.Frozen(); f != nil {
		t.Errorf("the pressed ball: Frozen %+v, want nil", *f)
	}
	stepFor(t, s, 0.1)
	if fell := c[1] - centroid(s.P)[1]; math.Abs(fell-9.81*0.1*0.1/2) > 0.01 {
		t.Errorf("released ball fell %.3f m in 0.1 s, want about g t^2 / 2 = 0.049", fell)
	}
}

// The experiment's measurement: the largest cluster's share of the mass after the
// ball hit the step. Sintered, it grows with the pressure (the weakest press leaves the
// ball soft enough to split over the edge, stronger ones do not); without sintering the
// press only packs the snow, and the ball splits at every pressure.
func TestPressThenDrop(t *testing.T) {
	if testing.Short() {
		t.Skip("six 0.6 s runs of the press experiment: over a minute")
	}
	const link = 0.75 * 0.0125 // above the particle spacing of h / 2, below a crack's width
	pressures := []float64{50, 150, 300}
	share := map[bool][]float64{}
	for _, sinter := range []bool{false, true} {
		for _, p := range pressures {
			var law *SinteringLaw
			if sinter {
				l := DefaultSinteringLaw
				law = &l
			}
			s := pressExperiment(t, p, law, 0.6)
			st := clusterStats(t, s, link)
			share[sinter] = append(share[sinter], st.Largest.Share)
			rho, xi := 0.0, 0.0
			for i, ps := range s.P.Sinter {
				rho += float64(ps.Density) / float64(s.P.Len())
				xi += float64(s.P.Mat[i].Xi) / float64(s.P.Len())
			}
			t.Logf("sintering %v, %3.0f Pa: density %3.0f kg/m^3, xi %.3f, %d steps; largest cluster %.3f, second %.3f, powder %.3f, %d lumps",
				sinter, p, rho, xi, s.Steps, st.Largest.Share, st.Second.Share, st.Powder.Share, st.Lumps)
		}
	}
	on, off := share[true], share[false]
	// Two runs that both split differ by a few hundredths in their largest share.
	if !(on[0] <= on[1]+0.05 && on[1] <= on[2]+0.05 && on[2]-on[0] > 0.3) {
		t.Errorf("sintered: largest-cluster shares %.3f at %v Pa: want them to grow with the pressure, by more than 0.3", on, pressures)
	}
	spread := slicesMax(off) - slicesMin(off)
	if !(spread < 0.15) || !(spread < (on[2]-on[0])/2) {
		t.Errorf("not sintered: largest-cluster shares %.3f at %v Pa vary by %.3f: want under 0.15 and half the sintered growth", off, pressures, spread)
	}
}

func slicesMax(v []float64) float64 { return max(v[0], v[1], v[2]) }
func slicesMin(v []float64) float64 { return min(v[0], v[1], v[2]) }
