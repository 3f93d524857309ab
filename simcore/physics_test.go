package simcore

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
	"snowtools/simcore/linalg"
)

// newBlock returns a simulation of one box of snow.
func newBlock(t *testing.T, cfg Config, box geom.Box, m Material, v geom.Vec3) *Sim {
	t.Helper()
	return newSimOf(t, cfg, Source{Shape: geom.Box(box), Bounds: box, Material: m, PerCell: 8, Seed: 7, Velocity: v})
}

func centroid(p *Particles) geom.Vec3 {
	var c geom.Vec3
	for i, x := range p.X {
		c = c.Add(x.Scale(float64(p.Mass[i])))
	}
	return c.Scale(1 / p.totalMass())
}

// Rasterizing with normalized weights and transferring back conserves linear momentum to
// round-off, for PIC, FLIP, the blend and APIC; so do the internal elastic forces (their grid
// sum is zero because the kernel gradients sum to zero).
func TestTransfersConserveMomentum(t *testing.T) {
	for _, c := range []struct {
		transfer Transfer
		alpha    float64
	}{{PICFLIP, 0}, {PICFLIP, 0.95}, {PICFLIP, 1}, {APIC, 0}} {
		alpha := c.alpha
		cfg := DefaultConfig()
		cfg.H = 0.05
		cfg.Domain = geom.Box{Min: geom.Vec3{-5, -5, -5}, Max: geom.Vec3{5, 5, 5}}
		cfg.Gravity = geom.Vec3{}
		cfg.Transfer = c.transfer
		cfg.FlipAlpha = alpha
		p := &Particles{}
		rng := rand.New(rand.NewPCG(11, 12))
		pm := DefaultMaterial.PerParticle()
		for i := 0; i < 3000; i++ {
			x := geom.Vec3{rng.Float64()*0.5 - 0.25, rng.Float64()*0.5 - 0.25, rng.Float64()*0.5 - 0.25}
			v := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			p.Add(x, v, 0.01+0.01*rng.Float64(), pm)
		}
		s, err := NewSim(cfg, p)
		if err != nil {
			t.Fatal(err)
		}
		p0 := p.momentum()
		for step := 0; step < 20; step++ {
			if err := s.Step(2e-4); err != nil {
				t.Fatal(err)
			}
			if d := p.momentum().Sub(p0).Norm(); d > 1e-13*float64(p.Len()) {
				t.Fatalf("%v, alpha %g, step %d: momentum changed by %g (of %v)", c.transfer, alpha, step, d, p0)
			}
		}
		if !(p.JP[0] != 1 || p.FE[0] != mat3fOf(linalg.Identity3)) {
			t.Logf("alpha %g: note: first particle undeformed", alpha)
		}
	}
}

// A block in free fall follows the discrete symplectic Euler trajectory
// v^{n+1} = v^n + dt g, x^{n+1} = x^n + dt v^{n+1} to round-off, the analytic
// x0 + v0 t + g t^2/2 to O(dt), and does not deform. With damping it follows
// v^{n+1} = (v^n + dt g) exp(-damping dt) instead: the drag acts on rigid motion too.
func TestFreeFall(t *testing.T) {
	forTransfers(t, func(t *testing.T, transfer Transfer) {
		for _, damping := range []float64{0, 2} {
			freeFall(t, transfer, damping)
		}
	})
}

// transfers are the choices of stage 8 that the physics tests run with.
var transfers = []Transfer{PICFLIP, APIC}

// forTransfers runs test once per transfer, as a subtest named after it.
func forTransfers(t *testing.T, test func(t *testing.T, transfer Transfer)) {
	for _, tr := range transfers {
		t.Run(tr.String(), func(t *testing.T) { test(t, tr) })
	}
}

// freeFall is TestFreeFall with a transfer and damping (1/s).
func freeFall(t *testing.T, transfer Transfer, damping float64) {
	cfg := DefaultConfig()
	cfg.Transfer = transfer
	cfg.H = 0.05
	cfg.Domain = geom.Box{Min: geom.Vec3{-1, -3, -1}, Max: geom.Vec3{1, 1, 1}}
	cfg.Damping = damping
	v0 := geom.Vec3{0.3, 1, -0.2}
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{-0.1, 0.4, -0.1}, Max: geom.Vec3{0.1, 0.6, 0.1}}, DefaultMaterial, v0)
	p := s.P
	x0 := append([]geom.Vec3(nil), p.X...)
	id0 := append([]int32(nil), p.ID...)
	const dt = 1e-3
	const steps = 300
	decay := math.Exp(-damping * dt)
	vRef := v0
	xRef := append([]geom.Vec3(nil), x0...)
	for n := 0; n < steps; n++ {
		if err := s.Step(dt); err != nil {
			t.Fatal(err)
		}
		vRef = vRef.Add(cfg.Gravity.Scale(dt)).Scale(decay)
		for i := range xRef {
			xRef[i] = xRef[i].Add(vRef.Scale(dt))
		}
	}
	tEnd := dt * steps
	worst, worstAnalytic := 0.0, 0.0
	for i := range p.X {
		id := p.ID[i] // particles are reordered; follow them by ID
		if x0[id] != x0[id] || id0[id] != id {
			t.Fatal("IDs are not the initial indices")
		}
		worst = math.Max(worst, p.X[i].Sub(xRef[id]).Norm())
		analytic := x0[id].Add(v0.Scale(tEnd)).Add(cfg.Gravity.Scale(tEnd * tEnd / 2))
		worstAnalytic = math.Max(worstAnalytic, p.X[i].Sub(analytic).Norm())
		if d := p.V[i].Sub(vRef).Norm(); d > 1e-12 {
			t.Fatalf("damping %g: particle %d velocity %v, symplectic Euler %v", damping, id, p.V[i], vRef)
		}
		fe := p.FE[i].mat3()
		if fe.Sub(linalg.Identity3).FrobeniusNorm() > 1e-6 || p.JP[i] != 1 {
			t.Fatalf("damping %g: particle %d deformed in free fall: F_E = %v, J_P = %g", damping, id, fe, p.JP[i])
		}
	}
	if worst > 1e-11 {
		t.Errorf("damping %g: positions differ from symplectic Euler by up to %g m", damping, worst)
	}
	// Symplectic Euler is ahead of the analytic trajectory by g t dt / 2.
	if bound := cfg.Gravity.Norm()*tEnd*dt/2 + 1e-11; damping == 0 && worstAnalytic > bound {
		t.Errorf("positions differ from the analytic trajectory by %g m, more than g t dt/2 = %g", worstAnalytic, bound)
	}
}

// A block resting on the ground stays put: no particle moves by 0.1 h in a second.
func TestRestingBlockStaysPut(t *testing.T) {
	if testing.Short() {
		t.Skip("one second of simulation; skipped with -short")
	}
	cfg := DefaultConfig()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 0.6, 1}}
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.34, 0, 0.34}, Max: geom.Vec3{0.66, 0.16, 0.66}}, DefaultMaterial, geom.Vec3{})
	p := s.P
	start := make([]geom.Vec3, p.Len())
	for i, x := range p.X {
		start[p.ID[i]] = x
	}
	if _, err := s.Advance(1); err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i, x := range p.X {
		worst = math.Max(worst, x.Sub(start[p.ID[i]]).Norm())
	}
	t.Logf("%d particles, %d steps: largest displacement %.3g h", p.Len(), s.Steps, worst/cfg.H)
	if worst > 0.1*cfg.H {
		t.Errorf("a particle moved %.3g m = %.3g h in 1 s; want < 0.1 h", worst, worst/cfg.H)
	}
}

// Damping settles soft snow: a tall block of it (E_0 = 1e4 Pa, 20 x 40 x 20 cm at
// h = 4 cm, FLIP 0.95) set on the floor sags under its weight and rings; around 1 s its
// top still moves 2 mm up and down at 10 Hz without damping. Damping of 5/s adds about
// 2.5/s to the decay rate of that amplitude (an oscillation has half its energy in the
// velocities, which the drag takes), so the top moves less than 0.5 mm, under a third
// of the undamped amplitude (measured 0.37 against 2.06 mm).
func TestDampingSettlesSoftBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("2.5 s of simulation; skipped with -short")
	}
	undamped, damped := softBlockRinging(t, 0), softBlockRinging(t, 5)
	t.Logf("amplitude of the top's height over 0.75-1.25 s: %.3f mm undamped, %.3f mm with damping 5/s", undamped*1e3, damped*1e3)
	if damped > 0.5e-3 || damped > undamped/3 {
		t.Errorf("with damping 5/s the top moves %.3g mm; want < 0.5 mm and under a third of the undamped %.3g mm", damped*1e3, undamped*1e3)
	}
}

// softBlockRinging simulates TestDampingSettlesSoftBlock's block with damping (1/s)
// to 1.25 s and returns the amplitude of its top layer's mean height over the last
// 0.5 s: half the peak-to-peak of the samples every 5 ms, about their straight-line
// fit (the block still creeps down).
func softBlockRinging(t *testing.T, damping float64) float64 {
	cfg := DefaultConfig()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 0.6, 1}}
	cfg.Damping = damping
	m := DefaultMaterial
	m.YoungsModulus = 1e4
	box := geom.Box{Min: geom.Vec3{0.4, 0, 0.4}, Max: geom.Vec3{0.6, 0.4, 0.6}}
	s := newBlock(t, cfg, box, m, geom.Vec3{})
	top := make([]bool, s.P.Len()) // by ID: the particles seeded in the top half cell
	for i, x := range s.P.X {
		top[s.P.ID[i]] = x[1] > box.Max[1]-cfg.H/2
	}
	const every, from, samples = 0.005, 0.75, 250 // to 1.25 s
	var heights []float64
	for k := 1; k <= samples; k++ {
		if _, err := s.Advance(float64(k) * every); err != nil {
			t.Fatal(err)
		}
		if s.Time < from {
			continue
		}
		sum, n := 0.0, 0
		for i, x := range s.P.X {
			if top[s.P.ID[i]] {
				sum, n = sum+x[1], n+1
			}
		}
		heights = append(heights, sum/float64(n))
	}
	return detrendedAmplitude(heights)
}

// detrendedAmplitude returns half the peak-to-peak of the residuals of samples y_k,
// equally spaced, about their least-squares line a + b k.
func detrendedAmplitude(y []float64) float64 {
	n := float64(len(y))
	var sk, sy, skk, sky float64
	for k, v := range y {
		sk, sy, skk, sky = sk+float64(k), sy+v, skk+float64(k*k), sky+float64(k)*v
	}
	b := (n*sky - sk*sy) / (n*skk - sk*sk)
	a := (sy - b*sk) / n
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, v := range y {
		r := v - (a + b*float64(k))
		lo, hi = math.Min(lo, r), math.Max(hi, r)
	}
	return (hi - lo) / 2
}

// Snow at rest reads the density it was seeded with, up to its surface: after a block
// has settled on the floor, every particle's Density is within 2% of rho_0 (its weight
// compresses the bottom by rho g H / (lambda + 2 mu), 0.4%). Stage 2's estimate
// m_p / V_p^0, which the forces use, agrees in the interior (2h or more from every
// face, the floor included) but reads far less near the faces (see Density).
func TestDensityAtRest(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 0.6, 1}}
	box := geom.Box{Min: geom.Vec3{0.3, 0, 0.3}, Max: geom.Vec3{0.7, 0.2, 0.7}}
	s := newBlock(t, cfg, box, DefaultMaterial, geom.Vec3{})
	if _, err := s.Advance(0.1); err != nil { // five times the elastic wave's way down and back
		t.Fatal(err)
	}
	p, rho0 := s.P, DefaultMaterial.Density
	var interior, surface, interiorStage2, surfaceStage2 []float64
	for i, x := range p.X {
		rho, stage2 := p.Density(i), float64(p.Mass[i])/(float64(p.Vol0[i])*p.VolumeRatio(i))
		if math.Abs(rho/rho0-1) > 0.02 {
			t.Fatalf("particle %d at %v: density %.4g kg/m^3, want %g within 2%%", i, x, rho, rho0)
		}
		if phi, _ := box.Distance(x); phi < -2*cfg.H {
			interior, interiorStage2 = append(interior, rho), append(interiorStage2, stage2)
		} else {
			surface, surfaceStage2 = append(surface, rho), append(surfaceStage2, stage2)
		}
	}
	mean := func(v []float64) float64 {
		sum := 0.0
		for _, x := range v {
			sum += x
		}
		return sum / float64(len(v))
	}
	t.Logf("%d particles 2h or more inside: mean density %.4g kg/m^3 (stage 2: %.4g); %d nearer the surface: %.4g (stage 2: %.4g)",
		len(interior), mean(interior), mean(interiorStage2), len(surface), mean(surface), mean(surfaceStage2))
	if len(interior) == 0 || math.Abs(mean(interiorStage2)/rho0-1) > 0.02 {
		t.Errorf("stage 2's interior density %.4g kg/m^3: want %g within 2%%", mean(interiorStage2), rho0)
	}
}

// meanVelocity returns the mass-weighted mean velocity.
func meanVelocity(p *Particles) geom.Vec3 { return p.momentum().Scale(1 / p.totalMass()) }

// A block on a 30 degree slope slides with acceleration g (sin 30 - mu cos 30) for
// mu = 0.2 and sticks for mu = 1 (> tan 30). The slope is the floor with gravity tilted
// by 30 degrees, which keeps the block aligned with the grid. The semi-implicit
// integrator, whose steps here are those of max_dt (1 ms, 2.2 times the explicit ones),
// holds to the same law.
func TestSlope(t *testing.T) {
	if testing.Short() {
		t.Skip("half a second of simulation; skipped with -short")
	}
	t.Run(Explicit.String(), func(t *testing.T) {
		forTransfers(t, func(t *testing.T, transfer Transfer) { testSlope(t, transfer, Explicit) })
	})
	t.Run(SemiImplicit.String(), func(t *testing.T) { // with the default transfer
		testSlope(t, DefaultConfig().Transfer, SemiImplicit)
	})
}

func testSlope(t *testing.T, transfer Transfer, integrator Integrator) {
	const g, angle = 9.81, math.Pi / 6
	for _, mu := range []float64{0.2, 1} {
		cfg := DefaultConfig()
		cfg.Transfer = transfer
		cfg.Integrator = integrator
		cfg.H = 0.04
		cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1.6, 0.5, 0.6}}
		cfg.Gravity = geom.Vec3{g * math.Sin(angle), -g * math.Cos(angle), 0}
		cfg.Walls = collider.Surface{Mode: collider.Separate, Friction: mu}
		s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.2, 0, 0.18}, Max: geom.Vec3{0.44, 0.12, 0.42}}, DefaultMaterial, geom.Vec3{})
		// Let the block settle onto the slope, then measure the mean velocity along it.
		var times, speeds []float64
		for _, at := range []float64{0.1, 0.2, 0.3, 0.4} {
			if _, err := s.Advance(at); err != nil {
				t.Fatal(err)
			}
			times = append(times, at)
			speeds = append(speeds, meanVelocity(s.P)[0])
		}
		// Least-squares slope of speed against time.
		var mt, mv float64
		for i := range times {
			mt += times[i] / 4
			mv += speeds[i] / 4
		}
		var num, den float64
		for i := range times {
			num += (times[i] - mt) * (speeds[i] - mv)
			den += (times[i] - mt) * (times[i] - mt)
		}
		accel := num / den
		want := g * (math.Sin(angle) - mu*math.Cos(angle))
		t.Logf("mu = %g: speeds %.3f m/s at %v s: acceleration %.3f m/s^2 (Coulomb: %.3f)", mu, speeds, times, accel, want)
		if want > 0 {
			if math.Abs(accel-want) > 0.1*want {
				t.Errorf("mu = %g: acceleration %.3f m/s^2, want %.3f within 10%%", mu, accel, want)
			}
		} else if math.Abs(speeds[len(speeds)-1]) > 0.01 || math.Abs(accel) > 0.05 {
			t.Errorf("mu = %g: the block slides (%.3f m/s, %.3f m/s^2); it should stick", mu, speeds[len(speeds)-1], accel)
		}
	}
}

// Snow beside a vertical sticky wall hangs on it; beside a slip wall it falls.
func TestStickyWallHoldsSnow(t *testing.T) {
	if testing.Short() {
		t.Skip("a quarter second of simulation; skipped with -short")
	}
	forTransfers(t, testStickyWallHoldsSnow)
}

func testStickyWallHoldsSnow(t *testing.T, transfer Transfer) {
	drop := map[collider.ContactMode]float64{}
	for _, mode := range []collider.ContactMode{collider.Sticky, collider.Slip} {
		cfg := DefaultConfig()
		cfg.Transfer = transfer
		cfg.H = 0.04
		cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.8, 0.8, 0.6}}
		cfg.Colliders = []collider.Collider{&collider.MovingShape{
			Shape:   geom.Box{Min: geom.Vec3{-1, -1, -1}, Max: geom.Vec3{0.2, 2, 2}},
			Contact: collider.Surface{Mode: mode},
		}}
		s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.2, 0.44, 0.18}, Max: geom.Vec3{0.32, 0.6, 0.42}}, DefaultMaterial, geom.Vec3{})
		y0 := centroid(s.P)[1]
		if _, err := s.Advance(0.25); err != nil {
			t.Fatal(err)
		}
		drop[mode] = y0 - centroid(s.P)[1]
	}
	t.Logf("centroid drop in 0.25 s: sticky %.4f m, slip %.4f m (free fall %.4f m)", drop[collider.Sticky], drop[collider.Slip], 9.81*0.25*0.25/2)
	if drop[collider.Slip] < 0.25 {
		t.Errorf("beside a slip wall the snow fell only %.3f m", drop[collider.Slip])
	}
	// The block hangs by its cohesion on the layer the wall holds, and tears off it
	// under its own weight within half a second with either transfer (measured at
	// 0.5 s: 13 cm pic-flip, 44 cm APIC); APIC, which does not damp the sag as the PIC
	// share does, tears sooner: 4.5 cm at 0.25 s against pic-flip's 1.6 cm.
	limit := 0.1
	if transfer == APIC {
		limit = 0.2
	}
	if drop[collider.Sticky] > limit*drop[collider.Slip] {
		t.Errorf("the sticky wall let the snow drop %.3f m (slip: %.3f m)", drop[collider.Sticky], drop[collider.Slip])
	}
}

// plate is a horizontal plate, solid above its face, that moves down at speed until
// tPress and then up at twice that speed: a collider given by a custom type.
type plate struct {
	y0, speed, tPress float64
}

func (p plate) face(t float64) (y, v float64) {
	if t <= p.tPress {
		return p.y0 - p.speed*t, -p.speed
	}
	return p.y0 - p.speed*p.tPress + 2*p.speed*(t-p.tPress), 2 * p.speed
}

func (p plate) Sample(x geom.Vec3, t float64) (float64, geom.Vec3, geom.Vec3) {
	y, v := p.face(t)
	return y - x[1], geom.Vec3{0, -1, 0}, geom.Vec3{0, v, 0}
}

func (p plate) Surface() collider.Surface {
	return collider.Surface{Mode: collider.Separate, Friction: 0.3}
}

// pressBlock presses a block of snow with a plate by a quarter of its height, releases
// it, and returns the particles and the block's height (95th percentile of y) before and
// after.
func pressBlock(t *testing.T, m Material) (p *Particles, before, after float64) {
	cfg := DefaultConfig()
	cfg.H = 0.04
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.8, 0.6, 0.8}}
	const height = 0.16
	cfg.Colliders = []collider.Collider{plate{y0: height, speed: 0.5, tPress: 0.08}} // 4 cm down
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.28, 0, 0.28}, Max: geom.Vec3{0.52, height, 0.52}}, m, geom.Vec3{})
	top := func() float64 {
		ys := make([]float64, s.P.Len())
		for i, x := range s.P.X {
			ys[i] = x[1]
		}
		return percentile(ys, 0.95)
	}
	before = top()
	if _, err := s.Advance(0.4); err != nil { // pressed until 0.08 s, plate gone by 0.16 s
		t.Fatal(err)
	}
	return s.P, before, top()
}

func percentile(v []float64, q float64) float64 {
	s := append([]float64(nil), v...)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1))]
}

// Pressing snow packs it: J_P drops below 1 (and mu = mu0 exp(xi (1 - J_P)) hardens, see
// TestKirchhoffStressIsEnergyDerivative), and the block stays flattened after release.
// With very large critical thresholds the same press is elastic: J_P stays 1 and the
// block springs back.
func TestPressingHardensSnow(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation of a press; skipped with -short")
	}
	p, before, after := pressBlock(t, DefaultMaterial)
	jp := make([]float64, p.Len())
	for i := range jp {
		jp[i] = float64(p.JP[i])
	}
	median := percentile(jp, 0.5)
	t.Logf("snow: height %.3f -> %.3f m, median J_P %.3f, 5%% J_P %.3f", before, after, median, percentile(jp, 0.05))
	if median > 0.95 {
		t.Errorf("median J_P = %.3f after pressing by 25%%; want packed snow (< 0.95)", median)
	}
	// The elastic range is 2.5% of compression; a dent of over 5% of the height is plastic.
	if after > 0.95*before {
		t.Errorf("the snow sprang back from %.3f to %.3f m; pressing by 4 cm should leave a dent", before, after)
	}

	elastic := DefaultMaterial
	elastic.CriticalCompression, elastic.CriticalStretch = 0.9, 10
	p, before, after = pressBlock(t, elastic)
	for i, j := range p.JP {
		if j != 1 {
			t.Fatalf("pure elasticity: particle %d has J_P = %g", i, j)
		}
	}
	t.Logf("elastic: height %.3f -> %.3f m", before, after)
	if after < before-0.01 {
		t.Errorf("elastic snow stayed pressed: %.3f -> %.3f m", before, after)
	}
}
