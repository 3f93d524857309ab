package simcore

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset"
)

// newBlock returns a simulation of one box of snow.
func newBlock(t *testing.T, cfg Config, box levelset.Bounds, m Material, v Vec3) *Sim {
	t.Helper()
	p := &Particles{}
	if _, err := Fill(p, Source{Shape: levelset.Box(box), Bounds: box, Material: m, PerCell: 8, Seed: 7, Velocity: v}, cfg.H); err != nil {
		t.Fatal(err)
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func centroid(p *Particles) Vec3 {
	var c Vec3
	for i, x := range p.X {
		c = c.Add(x.Scale(float64(p.Mass[i])))
	}
	return c.Scale(1 / p.TotalMass())
}

// Rasterizing with normalized weights and transferring back conserves linear momentum to
// round-off, for PIC, FLIP and the blend; so do the internal elastic forces (their grid
// sum is zero because the kernel gradients sum to zero).
func TestTransfersConserveMomentum(t *testing.T) {
	for _, alpha := range []float64{0, 0.95, 1} {
		cfg := DefaultConfig()
		cfg.H = 0.05
		cfg.Domain = levelset.Bounds{Min: Vec3{-5, -5, -5}, Max: Vec3{5, 5, 5}}
		cfg.Gravity = Vec3{}
		cfg.FlipAlpha = alpha
		p := &Particles{}
		rng := rand.New(rand.NewPCG(11, 12))
		pm := DefaultMaterial.PerParticle()
		for i := 0; i < 3000; i++ {
			x := Vec3{rng.Float64()*0.5 - 0.25, rng.Float64()*0.5 - 0.25, rng.Float64()*0.5 - 0.25}
			v := Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			p.Add(x, v, 0.01+0.01*rng.Float64(), pm)
		}
		s, err := NewSim(cfg, p)
		if err != nil {
			t.Fatal(err)
		}
		p0 := p.Momentum()
		for step := 0; step < 20; step++ {
			if err := s.Step(2e-4); err != nil {
				t.Fatal(err)
			}
			if d := p.Momentum().Sub(p0).Norm(); d > 1e-13*float64(p.Len()) {
				t.Fatalf("alpha %g step %d: momentum changed by %g (of %v)", alpha, step, d, p0)
			}
		}
		if !(p.JP[0] != 1 || p.FE[0] != Mat3fOf(Identity3)) {
			t.Logf("alpha %g: note: first particle undeformed", alpha)
		}
	}
}

// A block in free fall follows the discrete symplectic Euler trajectory
// v^{n+1} = v^n + dt g, x^{n+1} = x^n + dt v^{n+1} to round-off, the analytic
// x0 + v0 t + g t^2/2 to O(dt), and does not deform.
func TestFreeFall(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.05
	cfg.Domain = levelset.Bounds{Min: Vec3{-1, -3, -1}, Max: Vec3{1, 1, 1}}
	v0 := Vec3{0.3, 1, -0.2}
	s := newBlock(t, cfg, levelset.Bounds{Min: Vec3{-0.1, 0.4, -0.1}, Max: Vec3{0.1, 0.6, 0.1}}, DefaultMaterial, v0)
	p := s.P
	x0 := append([]Vec3(nil), p.X...)
	id0 := append([]int32(nil), p.ID...)
	const dt = 1e-3
	const steps = 300
	vRef := v0
	xRef := append([]Vec3(nil), x0...)
	for n := 0; n < steps; n++ {
		if err := s.Step(dt); err != nil {
			t.Fatal(err)
		}
		vRef = vRef.Add(cfg.Gravity.Scale(dt))
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
			t.Fatalf("particle %d velocity %v, symplectic Euler %v", id, p.V[i], vRef)
		}
		fe := p.FE[i].Mat3()
		if fe.Sub(Identity3).FrobeniusNorm() > 1e-6 || p.JP[i] != 1 {
			t.Fatalf("particle %d deformed in free fall: F_E = %v, J_P = %g", id, fe, p.JP[i])
		}
	}
	if worst > 1e-11 {
		t.Errorf("positions differ from symplectic Euler by up to %g m", worst)
	}
	// Symplectic Euler is ahead of the analytic trajectory by g t dt / 2.
	if bound := cfg.Gravity.Norm()*tEnd*dt/2 + 1e-11; worstAnalytic > bound {
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
	cfg.Domain = levelset.Bounds{Min: Vec3{0, 0, 0}, Max: Vec3{1, 0.6, 1}}
	s := newBlock(t, cfg, levelset.Bounds{Min: Vec3{0.34, 0, 0.34}, Max: Vec3{0.66, 0.16, 0.66}}, DefaultMaterial, Vec3{})
	p := s.P
	start := make([]Vec3, p.Len())
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
