package simcore

import (
	"math"
	"slices"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// autoScene is a snowball of the paper's Table 2 snow (about 4,200 particles, radius 5
// cells) thrown at the ground at 4 m/s: soft and fast before impact, so the explicit
// step is the cheaper, and hardened and slow after it, when the semi-implicit one is,
// given steps of up to 2 ms (at most 1 ms, the default, they would cross too few cells
// of the elastic wave for the semi-implicit integrator to pay at this grid spacing).
func autoScene(t testing.TB, cfg Config) *Sim {
	const h, r = 0.02, 0.1
	cfg.H, cfg.MaxDt = h, 2e-3
	cfg.Domain = geom.Box{Max: geom.Vec3{6 * r, 4 * r, 6 * r}}
	src := ballSource(geom.Vec3{3 * r, 1.6 * r, 3 * r}, r, DefaultMaterial, 1)
	src.Velocity = geom.Vec3{0, -4, 0}
	return newSimOf(t, cfg, src)
}

// The choice is the cost model of integrator_auto.go applied to the step limits of the
// state: fast soft snow goes explicit, slow hard snow semi-implicit; hard snow that
// moves fast, whose semi-implicit steps would be short, explicit; and a tie (no signal
// yet, both steps at max_dt) explicit.
func TestChooseIntegrator(t *testing.T) {
	s := autoScene(t, DefaultConfig())
	s.Prepare()
	const span = 1.0 / 24
	h, maxDt := s.cfg.H, s.cfg.MaxDt
	g := -s.cfg.Gravity[1]
	gravityDt := func(cfl float64) float64 { return math.Sqrt(cfl * h / g) }
	for _, c := range []struct {
		name     string
		v, c     float64
		want     Integrator
		explicit float64 // the explicit step
		semi     float64 // the semi-implicit step
	}{
		{"soft and fast", 4, 20, Explicit, explicitCFL * h / 24, SemiImplicitCFL * h / 4},
		{"hard and slow", 0.05, 200, SemiImplicit, explicitCFL * h / 200.05, min(maxDt, gravityDt(SemiImplicitCFL), s.cfg.WaveCells*h/200)},
		{"hard and fast", 16, 200, Explicit, explicitCFL * h / 216, SemiImplicitCFL * h / 16},
		{"at rest, no wave", 0, 0, Explicit, min(maxDt, gravityDt(explicitCFL)), min(maxDt, gravityDt(SemiImplicitCFL))},
	} {
		s.maxSpeed, s.maxWaveSpeed = c.v, c.c
		got := s.chooseIntegrator(s.Time + span)
		wantExplicit, wantSemi := int(math.Ceil(span/c.explicit)), int(math.Ceil(span/c.semi))
		iterations := iterationsPerWaveCell * c.c * c.semi / h
		if got.Integrator != c.want || got.ExplicitSteps != wantExplicit || got.SemiImplicitSteps != wantSemi ||
			math.Abs(got.Iterations-iterations) > 1e-9*iterations {
			t.Errorf("%s: %+v, want %v, %d explicit steps, %d semi-implicit x %.3g iterations",
				c.name, got, c.want, wantExplicit, wantSemi, iterations)
		}
	}
}

// The auto integrator switches where the snowball lands, and ends where the explicit
// run does, within about a cell; a run resumed from a snapshot taken before the
// switch, with another thread count, is bit-identical to the one that went on.
func TestAutoIntegrator(t *testing.T) {
	const fps, frames = 60, 3
	explicit := autoScene(t, DefaultConfig())
	cfg := DefaultConfig()
	cfg.Integrator, cfg.Threads = Auto, 2
	auto := autoScene(t, cfg)
	var snap State
	var chosen []Integrator
	for f := 1; f <= frames; f++ {
		for _, s := range []*Sim{explicit, auto} {
			if _, err := s.Advance(float64(f) / fps); err != nil {
				t.Fatal(err)
			}
		}
		chosen = append(chosen, auto.Integrator())
		if f == 1 {
			snap = cloneState(auto.Snapshot())
		}
	}
	if chosen[0] != Explicit || chosen[frames-1] != SemiImplicit {
		t.Fatalf("integrators %v: want explicit for the throw and semi-implicit once the snow has landed", chosen)
	}

	// The explicit run at half the CFL differs from it by 0.11 h between the centroids,
	// 0.930 of the cells shared, heights 0.38 h apart in 9 columns of 10 and 0.15 h on
	// average: the method's own dependence on the step. The auto run, measured: 0.16 h,
	// 0.928, 0.31 h and 0.19 h (1.7 h in the one worst column, at the splash's rim).
	h := explicit.cfg.H
	centroids := centroid(auto.P).Sub(centroid(explicit.P)).Norm()
	overlap := occupancyOverlap(auto.P, explicit.P, h)
	heights := heightDifferences(auto.P, explicit.P, h)
	p90, mean := heights[len(heights)*9/10], 0.0
	for _, d := range heights {
		mean += d / float64(len(heights))
	}
	t.Logf("integrators %v; centroids %.3g h apart, cells of h %.3f shared, heights %.2f h apart in 9 columns of 10, %.3f h on average, %.2f h at most",
		chosen, centroids/h, overlap, p90/h, mean/h, heights[len(heights)-1]/h)
	if !(centroids < 0.25*h && overlap > 0.9 && p90 < 0.5*h && mean < 0.25*h) {
		t.Errorf("auto against explicit: centroids %.3g h apart, %.3f of the cells shared, heights %.2f h apart in 9 columns of 10 "+
			"and %.3f h on average: want within 0.25 h, 0.9, 0.5 h and 0.25 h", centroids/h, overlap, p90/h, mean/h)
	}

	// the scene's settings (autoScene's) and another thread count
	resume := auto.Config()
	resume.Threads = 3
	resumed, err := Restore(resume, snap)
	if err != nil {
		t.Fatal(err)
	}
	for f := 2; f <= frames; f++ { // frame by frame, as the choice is made per Advance
		if _, err := resumed.Advance(float64(f) / fps); err != nil {
			t.Fatal(err)
		}
	}
	sameState(t, "resumed auto run", auto.Snapshot(), resumed.Snapshot())
}

// heightDifferences returns, in increasing order, the differences between the heights
// of a and b (the highest particle, along y) in the columns of size x size that both
// have particles. With centroid and occupancyOverlap it is the measure that
// particles.Shape gives users for runs on disk (export -to compare -differences),
// whose test holds it to these.
func heightDifferences(a, b *Particles, size float64) []float64 {
	heights := func(p *Particles) map[[2]int]float64 {
		top := make(map[[2]int]float64)
		for _, x := range p.X {
			c := [2]int{int(math.Floor(x[0] / size)), int(math.Floor(x[2] / size))}
			if y, ok := top[c]; !ok || x[1] > y {
				top[c] = x[1]
			}
		}
		return top
	}
	ha, hb := heights(a), heights(b)
	var d []float64
	for c, y := range ha {
		if yb, ok := hb[c]; ok {
			d = append(d, math.Abs(y-yb))
		}
	}
	slices.Sort(d)
	return d
}

// Where a collider moving at drivingSpeed or more touches the snow, pressing into it,
// lifting off it or arriving within the frame, auto keeps the explicit integrator even
// where the semi-implicit one is predicted cheaper; a slow press, a plate out of reach
// or leaving, and a still floor, whether the snow rests on it or strikes it, leave the
// choice to the cost model. A voxelized plate whose velocity band misses the block's
// centre but reaches the snow's top is seen at the particles.
func TestAutoKeepsExplicitWhereAColliderDrives(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Integrator = Auto
	s, _ := restingBlockOf(t, cfg, false, icyMaterial(t)) // 0.32 x 0.12 x 0.32 m on the floor, h = 4 cm
	s.Prepare()
	walls := s.colliders
	h := s.cfg.H
	u := drivingSpeed * h
	const span = 1.0 / 24
	plateBox := func(bottom float64) (lo, hi geom.Vec3) {
		return geom.Vec3{0.12, bottom, 0.12}, geom.Vec3{0.6, bottom + 0.1, 0.6}
	}
	plate := func(bottom, speed float64) collider.Collider {
		lo, hi := plateBox(bottom)
		return &collider.MovingShape{Shape: geom.Box{Min: lo, Max: hi}, Velocity: geom.Vec3{0, -speed, 0}}
	}
	sliding := func(bottom, speed float64) collider.Collider {
		lo, hi := plateBox(bottom)
		return &collider.MovingShape{Shape: geom.Box{Min: lo, Max: hi}, Velocity: geom.Vec3{speed, 0, 0}}
	}
	// Voxelized at h/2 with a band of 3 voxels: the bottom at a block's top (y = 4h),
	// 2h from the centre of the top particles' block but 1h from the snow's top.
	voxelPlate := func(bottom, speed float64) collider.Collider {
		lo, hi := plateBox(bottom)
		key := voxelKeyframe(t, lo, hi, geom.Vec3{0, -speed, 0}, h/2, 3)
		c := &collider.DeformingLevelSet{}
		if err := c.SetKeyframes(key, key, 0, 1); err != nil {
			t.Fatal(err)
		}
		return c
	}
	// The far plates are beyond the reach of the top block's centre (4 sqrt(3) h, the
	// centre at y = 2h) unless they and the snow approach at 3u over the frame, or
	// they come within half their frame's travel of it.
	far := 2*h + 4*math.Sqrt(3)*h + span*3*u
	for _, c := range []struct {
		name  string
		mover collider.Collider
		v     geom.Vec3 // every particle's velocity
		want  Integrator
		speed float64 // the collider speed reported, to within 10%
	}{
		{"at rest on the floor", nil, geom.Vec3{}, SemiImplicit, 0},
		{"a plate pressing", plate(0.13, 3*u), geom.Vec3{}, Explicit, 3 * u},
		{"a plate lifting off", plate(0.13, -3*u), geom.Vec3{}, Explicit, 3 * u},
		{"a slow plate pressing", plate(0.13, u/2), geom.Vec3{}, SemiImplicit, 0},
		{"a plate arriving within the frame", plate(far, 3*u), geom.Vec3{}, Explicit, 3 * u},
		{"a plate leaving", plate(far, -3*u), geom.Vec3{}, SemiImplicit, 0},
		{"the snow rising to a plate sliding over it", sliding(far, 3*u), geom.Vec3{0, 3 * u, 0}, Explicit, 3 * u},
		{"a plate sliding over the snow", sliding(far, 3*u), geom.Vec3{}, SemiImplicit, 0},
		{"a plate sliding within half a frame's travel of reach", sliding(far-span*2*u, 3*u), geom.Vec3{}, Explicit, 3 * u},
		{"a plate out of reach", plate(0.6, 3*u), geom.Vec3{}, SemiImplicit, 0},
		{"a voxelized plate pressing", voxelPlate(4*h, 3*u), geom.Vec3{}, Explicit, 3 * u},
		{"the snow striking the floor", nil, geom.Vec3{0, -3 * u, 0}, SemiImplicit, 0},
	} {
		s.colliders = walls
		if c.mover != nil {
			s.colliders = append(slices.Clip(walls), c.mover)
		}
		for i := range s.P.V {
			s.P.V[i] = c.v
		}
		s.maxSpeed, s.maxWaveSpeed = 0.05, 200 // hard and slow: semi-implicit is cheaper
		got := s.chooseIntegrator(s.Time + span)
		if got.Integrator != c.want || math.Abs(got.ColliderSpeed-c.speed) > 0.1*c.speed {
			t.Errorf("%s: %v, a collider driving at %.3g m/s; want %v, %.3g m/s", c.name, got.Integrator, got.ColliderSpeed, c.want, c.speed)
		}
	}
}
