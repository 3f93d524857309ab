package simcore

import (
	"errors"
	"math"
	"math/bits"
	"slices"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// restingBlock is a block of snow on the floor, 32 x 12 x 32 cm at h = 4 cm (1,536
// particles), which settles within 0.2 s, and, with ball, a snowball of radius 8 cm
// dropped from above it, which lands on it at about 0.34 s at 3.3 m/s (282 particles).
func restingBlock(t *testing.T, cfg Config, ball bool) (s *Sim, blockParticles int) {
	t.Helper()
	return restingBlockOf(t, cfg, ball, DefaultMaterial)
}

// icyMaterial is the icy preset: twice Table 2's Young's modulus, a wave 1.4 times as
// fast.
func icyMaterial(t *testing.T) Material {
	t.Helper()
	m, err := Preset("icy")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// waveLimit returns the explicit step that the particles' fastest elastic wave
// allows: CFL h / c, their speed left out.
func waveLimit(s *Sim) float64 { return s.cfg.cflOf(Explicit) * s.cfg.H / s.P.fastestWave() }

// sleepingIcyBlock returns restingBlockOf's block of icy snow, stepped until it all
// sleeps, with nothing awake, and checks that the step then no longer counts its wave.
func sleepingIcyBlock(t *testing.T, cfg Config) (s *Sim, blockParticles int) {
	t.Helper()
	cfg.Sleep = true
	s, n := restingBlockOf(t, cfg, false, icyMaterial(t))
	for s.Sleeping() < n && s.Time < 0.3 {
		stepTo(t, s, s.Time+s.stableDt())
	}
	stepTo(t, s, s.Time+s.stableDt()) // a step with all asleep: no wave counted
	if s.Sleeping() != n || s.stableDt() <= waveLimit(s) {
		t.Fatalf("t = %.3f s: %d of %d particles asleep, step %.3g s against the block's limit %.3g s",
			s.Time, s.Sleeping(), n, s.stableDt(), waveLimit(s))
	}
	return s, n
}

// restingBlockOf is restingBlock with the block of material m.
func restingBlockOf(t *testing.T, cfg Config, ball bool, m Material) (s *Sim, blockParticles int) {
	t.Helper()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.72, 1, 0.72}}
	block := geom.Box{Min: geom.Vec3{0.2, 0, 0.2}, Max: geom.Vec3{0.52, 0.12, 0.52}}
	srcs := []Source{{Shape: block, Bounds: block, Material: m, PerCell: 8, Seed: 7}}
	if ball {
		srcs = append(srcs, ballSource(geom.Vec3{0.36, 0.8, 0.36}, 0.08, DefaultMaterial, 9))
	}
	s = newSimOf(t, cfg, srcs...)
	for _, x := range s.P.X {
		if x[1] < 0.5 {
			blockParticles++
		}
	}
	return s, blockParticles
}

// stepTo steps s to time t with its own time steps (the last one shortened) and returns
// the particle-steps it took with awake particles: the transfers' and the F_E update's
// work.
func stepTo(t *testing.T, s *Sim, end float64) (awakeWork int) {
	t.Helper()
	for s.Time < end {
		if err := s.Step(min(s.stableDt(), end-s.Time)); err != nil {
			t.Fatal(err)
		}
		awakeWork += s.P.Len() - s.Sleeping()
	}
	return awakeWork
}

// heightChanges returns, in increasing order, |y_b - y_a| for every particle, paired by
// ID.
func heightChanges(a, b *Particles) []float64 {
	ya := make(map[int32]float64, a.Len())
	for i, id := range a.ID {
		ya[id] = a.X[i][1]
	}
	d := make([]float64, b.Len())
	for i, id := range b.ID {
		d[i] = math.Abs(b.X[i][1] - ya[id])
	}
	slices.Sort(d)
	return d
}

// A block settled on the floor falls asleep, costs nothing while it sleeps, wakes when
// a snowball falls on it and sleeps again once the two have come to rest; its final
// surface is that of the run without sleep to within a millimetre. Measured: the whole
// block asleep from 0.2 s, the ball's 282 particles the only ones stepped until it
// wakes the block at about 0.31 s, all asleep again by 0.65 s; at 0.8 s, 0.52 of the
// awake run's particle-steps, surface heights (the top particle per column of h x h)
// within 0.12 mm, every particle's height within 0.21 mm (the awake run's creep).
func TestSettledBlockSleepsAndWakes(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs of 0.8 s")
	}
	cfg := DefaultConfig()
	cfg.Threads = 2
	awake, nBlock := restingBlock(t, cfg, true)
	cfg.Sleep = true
	asleep, _ := restingBlock(t, cfg, true)
	var awakeWork, sleepWork int
	stepBoth := func(end float64) {
		awakeWork += stepTo(t, awake, end)
		sleepWork += stepTo(t, asleep, end)
	}
	stepBoth(0.2)
	for ; asleep.Time < 0.28; stepBoth(asleep.Time + 0.01) {
		if asleep.Sleeping() != nBlock {
			t.Fatalf("t = %.2f s: %d particles asleep, want the block's %d", asleep.Time, asleep.Sleeping(), nBlock)
		}
	}
	woke := false
	for ; asleep.Time < 0.4; stepBoth(asleep.Time + 0.01) {
		woke = woke || asleep.Sleeping() < nBlock/2
	}
	if !woke {
		t.Error("the snowball did not wake the block")
	}
	stepBoth(0.8)
	if asleep.Sleeping() != asleep.P.Len() {
		t.Errorf("t = 0.8 s: %d of %d particles asleep, want all", asleep.Sleeping(), asleep.P.Len())
	}
	share := float64(sleepWork) / float64(awakeWork)
	surface := heightDifferences(awake.P, asleep.P, asleep.cfg.H)
	each := heightChanges(awake.P, asleep.P)
	t.Logf("particle-steps with sleep %d, without %d (%.2f); height differences: surface %.3g mm, particles %.3g mm",
		sleepWork, awakeWork, share, 1e3*surface[len(surface)-1], 1e3*each[len(each)-1])
	if share > 0.6 {
		t.Errorf("sleep took %.2f of the particle-steps, want at most 0.6", share)
	}
	if surface[len(surface)-1] > 1e-3 || each[len(each)-1] > 1e-3 {
		t.Errorf("heights differ by up to %.3g mm at the surface and %.3g mm for a particle, want at most 1 mm",
			1e3*surface[len(surface)-1], 1e3*each[len(each)-1])
	}
}

// Sleeping snow that no awake snow borders does not set the time step: while a block
// of icy snow (twice Table 2's Young's modulus, its elastic wave 1.4 times as fast)
// sleeps and a snowball of Table 2 snow falls towards it from 0.8 m, the step is the
// ball's, longer than the awake run's, which the block's wave holds. Once the ball
// comes within a block of it, the block's wave counts again, before the ball wakes
// it; the surface ends within a millimetre of the awake run's.
func TestSleepingStiffSnowDoesNotSetTheStep(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs of 0.6 s")
	}
	icy := icyMaterial(t)
	cfg := DefaultConfig()
	cfg.Threads = 2
	awake, nBlock := restingBlockOf(t, cfg, true, icy)
	cfg.Sleep = true
	asleep, _ := restingBlockOf(t, cfg, true, icy)
	stepTo(t, awake, 0.2)
	stepTo(t, asleep, 0.2)
	longer := false
	for asleep.Time < 0.28 {
		if asleep.Sleeping() != nBlock {
			t.Fatalf("t = %.3f s: %d particles asleep, want the block's %d", asleep.Time, asleep.Sleeping(), nBlock)
		}
		dtAsleep, dtAwake := asleep.stableDt(), awake.stableDt()
		longer = longer || dtAsleep > 1.2*dtAwake
		stepTo(t, asleep, asleep.Time+dtAsleep)
		stepTo(t, awake, asleep.Time)
	}
	if !longer {
		t.Errorf("the step with the icy block asleep was never over 1.2 times the awake run's")
	}
	blockWave := asleep.P.fastestWave() // the icy block's; the ball's is slower
	bordered := 0
	for asleep.Time < 0.6 {
		stepTo(t, asleep, asleep.Time+asleep.stableDt())
		stepTo(t, awake, asleep.Time)
		if asleep.Sleeping() != nBlock {
			continue
		}
		for _, sg := range asleep.sleep.groups {
			if slices.ContainsFunc(sg.window[:], func(b int32) bool { return b >= 0 }) {
				// Asleep, next to the ball's groups: its wave sets the next step.
				bordered++
				if asleep.maxWaveSpeed < blockWave {
					t.Fatalf("t = %.3f s: the block borders the ball, but the next step counts a wave of %.3g m/s, not its %.3g m/s",
						asleep.Time, asleep.maxWaveSpeed, blockWave)
				}
				break
			}
		}
	}
	if bordered == 0 {
		t.Error("the sleeping block never bordered the ball's groups before it woke")
	}
	stepTo(t, awake, 0.6)
	if d := heightDifferences(awake.P, asleep.P, asleep.cfg.H); d[len(d)-1] > 1e-3 {
		t.Errorf("surface heights differ by up to %.3g mm, want at most 1 mm", 1e3*d[len(d)-1])
	}
}

// A block that a collider wakes while no other snow is awake sets the next step: with
// everything asleep the step is max_dt, and the step after the wake must be the icy
// block's explicit limit, not that.
func TestWokenSnowSetsTheStep(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Threads = 2
	cfg.Colliders = []collider.Collider{&collider.MovingShape{Shape: geom.Sphere{Center: geom.Vec3{-0.4, 0.08, 0.36}, Radius: 0.06},
		Velocity: geom.Vec3{2, 0, 0}, Contact: collider.Surface{Mode: collider.Separate}}}
	s, _ := sleepingIcyBlock(t, cfg)
	// settle wakes a group by setting its particles' Quiet to 0 at the end of a step;
	// it takes part from the next step, whose length is checked.
	woken := func() bool { return slices.Contains(s.P.Quiet, 0) }
	for !woken() {
		if s.Time > 0.4 {
			t.Fatal("the ball did not wake the block by 0.4 s")
		}
		stepTo(t, s, s.Time+s.stableDt())
	}
	if dt, limit := s.stableDt(), waveLimit(s); dt > limit {
		t.Errorf("t = %.3f s: the step after the wake is %.3g s, over the block's limit %.3g s", s.Time, dt, limit)
	}
}

// When sleep ends (here a press starts, at 0.3 s), every sleeping group wakes in the
// next step, whose length must count them all.
func TestSleepEndingCountsTheSleepers(t *testing.T) {
	cfg := DefaultConfig()
	const start = 0.3
	cfg.Presses = []Press{{Center: geom.Vec3{0.36, 0.9, 0.36}, Radius: 0.01, Pressure: 1, Start: start}} // far from the snow
	s, nBlock := sleepingIcyBlock(t, cfg)
	for s.Time < start {
		if s.Sleeping() != nBlock || s.stableDt() <= waveLimit(s) {
			t.Fatalf("t = %.3f s: %d of %d asleep, step %.3g s against the block's limit %.3g s", s.Time, s.Sleeping(), nBlock, s.stableDt(), waveLimit(s))
		}
		if err := s.Step(min(s.stableDt(), start-s.Time)); err != nil {
			t.Fatal(err)
		}
	}
	if dt, limit := s.stableDt(), waveLimit(s); dt > limit {
		t.Errorf("the press starts: the next step is %.3g s, over the block's limit %.3g s", dt, limit)
	}
}

// A run that slept, resumed without sleep, counts the wave speed of the snow that wakes
// in its first step: the checkpoint's need not (settle).
func TestResumedWithoutSleepCountsTheSleepers(t *testing.T) {
	s, _ := sleepingIcyBlock(t, DefaultConfig())
	limit := waveLimit(s)
	cfg := s.Config() // the run's own settings, but for sleep
	cfg.Sleep = false
	resumed, err := Restore(cfg, cloneState(s.Snapshot()))
	if err != nil {
		t.Fatal(err)
	}
	if dt := resumed.stableDt(); dt > limit {
		t.Errorf("resumed without sleep: first step %.3g s, over the block's limit %.3g s", dt, limit)
	}
}

// A sleeping block wakes when a collider moving towards it comes within reach, before
// the collider reaches its particles; a run resumed from a snapshot taken while the
// block sleeps, on another number of threads, continues bit for bit. Measured: asleep
// at 0.25 s, woken at 0.32 s; the ball reaches the block at 0.47 s.
func TestColliderWakesSleepingBlockAndResumes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Threads = 2
	cfg.Sleep = true
	// A 6 cm ball moving at 2 m/s along x from x = -0.8 m: it reaches the block's side
	// at x = 0.2 m at 0.47 s.
	ball := &collider.MovingShape{Shape: geom.Sphere{Center: geom.Vec3{-0.8, 0.08, 0.36}, Radius: 0.06},
		Velocity: geom.Vec3{2, 0, 0}, Contact: collider.Surface{Mode: collider.Separate}}
	cfg.Colliders = []collider.Collider{ball}
	s, nBlock := restingBlock(t, cfg, false)
	stepTo(t, s, 0.25)
	if s.Sleeping() != nBlock {
		t.Fatalf("t = 0.25 s: %d of %d particles asleep, want all", s.Sleeping(), nBlock)
	}
	snap := cloneState(s.Snapshot())
	rcfg := s.Config()
	rcfg.Threads = 1
	resumed, err := Restore(rcfg, cloneState(snap))
	if err != nil {
		t.Fatal(err)
	}
	woke := -1.0
	for s.Time < 0.55 {
		stepTo(t, s, s.Time+0.01)
		if woke < 0 && s.Sleeping() < nBlock {
			woke = s.Time
		}
	}
	if woke < 0 || woke > 0.45 {
		t.Errorf("the block woke at %.3f s, want before 0.45 s (the ball reaches it at 0.47 s)", woke)
	}
	// The particles that the ball reached were awake: none is inside it.
	for _, x := range s.P.X {
		if phi, _, _ := ball.Sample(x, s.Time); phi < -0.5*s.cfg.H {
			t.Fatalf("t = %.2f s: a particle at %v is %.3g m inside the ball", s.Time, x, -phi)
		}
	}
	t.Logf("woke at %.3f s", woke)
	for resumed.Time < 0.55 {
		stepTo(t, resumed, resumed.Time+0.01)
	}
	sameState(t, "resumed", s.Snapshot(), resumed.Snapshot())
}

// Sleep works with the semi-implicit integrator too: the block falls asleep, its held
// nodes fixed in the solve, and stays where the awake run leaves it.
func TestSleepSemiImplicit(t *testing.T) {
	if testing.Short() {
		t.Skip("two semi-implicit runs of a settling block")
	}
	cfg := DefaultConfig()
	cfg.Threads = 2
	cfg.Integrator = SemiImplicit
	awake, nBlock := restingBlock(t, cfg, false)
	cfg.Sleep = true
	asleep, _ := restingBlock(t, cfg, false)
	stepTo(t, awake, 0.4)
	stepTo(t, asleep, 0.4)
	if asleep.Sleeping() != nBlock {
		t.Errorf("t = 0.4 s: %d of %d particles asleep, want all", asleep.Sleeping(), nBlock)
	}
	if d := heightChanges(awake.P, asleep.P); d[len(d)-1] > 1e-3 {
		t.Errorf("heights differ by up to %.3g mm, want at most 1 mm", 1e3*d[len(d)-1])
	}
}

// boxMask sets the bits of exactly the block's nodes in the box.
func TestBoxMask(t *testing.T) {
	c := [3]int{1, -1, 2}
	box := nodeBox{lo: [3]int{5, -3, 6}, hi: [3]int{9, -2, 20}} // x 5-7, y -3..-2, z 8-11 of the block
	m := boxMask(c, box.lo, box.hi)
	want := 0
	for a := 0; a < blockWidth; a++ {
		for b := 0; b < blockWidth; b++ {
			for cc := 0; cc < blockWidth; cc++ {
				n := [3]int{4*c[0] + a, 4*c[1] + b, 4*c[2] + cc}
				in := n[0] >= 5 && n[0] <= 9 && n[1] >= -3 && n[1] <= -2 && n[2] >= 6
				if got := m>>((a*blockWidth+b)*blockWidth+cc)&1 != 0; got != in {
					t.Errorf("node %v: in the mask %v, want %v", n, got, in)
				}
				if in {
					want++
				}
			}
		}
	}
	if bits.OnesCount64(m) != want || want != 3*2*4 {
		t.Errorf("%d nodes in the mask, want %d = 24", bits.OnesCount64(m), want)
	}
}

// The sleep settings are checked and named.
func TestSleepSettings(t *testing.T) {
	for _, c := range []struct {
		change  func(*Config)
		setting string
	}{
		{func(c *Config) { c.SleepSpeed = -1 }, "sleep_speed"},
		{func(c *Config) { c.SleepTime = -1 }, "sleep_time"},
	} {
		cfg := DefaultConfig()
		c.change(&cfg)
		var se *SettingError
		if err := cfg.Validate(); !errors.As(err, &se) || se.Setting != c.setting {
			t.Errorf("%s: %v", c.setting, err)
		}
	}
}
