package simcore

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// The stages of section 4.1 one at a time (step.go lists which function is which).

// stageScene is a simulation of particles scattered at random in a ball, with random
// velocities and, for stage 3, random stresses, binned for a step.
func stageScene(t *testing.T, cfg Config) *Sim {
	t.Helper()
	rng := rand.New(rand.NewPCG(19, 1))
	p := &Particles{}
	pm := DefaultMaterial.PerParticle()
	for p.Len() < 2000 {
		d := geom.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
		if d.Norm() > 0.5 {
			continue
		}
		v := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		p.Add(geom.Vec3{0.5, 0.5, 0.5}.Add(d.Scale(0.3)), v, 1e-4*(1+rng.Float64()), pm)
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.stress {
		for k := range p.stress[i] {
			p.stress[i][k] = float32(rng.NormFloat64() * 1e-3)
		}
	}
	s.binParticles()
	return s
}

// gridTotals returns the grid's total mass, momentum and force.
func gridTotals(s *Sim) (mass float64, momentum, force geom.Vec3) {
	for b := range s.grid.blocks {
		for _, n := range s.grid.blocks[b] {
			mass += n.mass
			momentum = momentum.Add(n.momentum)
			force = force.Add(n.force)
		}
	}
	return mass, momentum, force
}

// Stage 1 moves all the particles' mass and momentum to the grid (the weights are a
// partition of unity), and stage 3's internal forces add up to zero (the weights'
// gradients sum to zero).
func TestStage1ConservesMassAndMomentum(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.05
	s := stageScene(t, cfg)
	s.rasterize()
	mass, momentum, force := gridTotals(s)
	if want := s.P.totalMass(); math.Abs(mass-want) > 1e-13*want {
		t.Errorf("grid mass %.17g, particle mass %.17g", mass, want)
	}
	want := s.P.momentum()
	if d := momentum.Sub(want).Norm(); d > 1e-13*float64(s.P.Len())*s.P.totalMass() {
		t.Errorf("grid momentum %v, particle momentum %v", momentum, want)
	}
	scale := 0.0
	for b := range s.grid.blocks {
		for _, n := range s.grid.blocks[b] {
			scale = max(scale, n.force.Norm())
		}
	}
	if !(scale > 0) || force.Norm() > 1e-10*scale {
		t.Errorf("the internal forces add up to %v (largest on a node %g)", force, scale)
	}
}

// Stage 2 measures each particle's initial density from the grid mass: inside a
// lattice of 8 particles per cell, of mass m each, 8 m / h^3 (the B-spline weights of a
// lattice of half-cell spacing sum to 2 on each axis).
func TestStage2MeasuresDensity(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.05
	const m, cells = 1e-4, 10
	p := &Particles{}
	for i := 0; i < 2*cells; i++ {
		for j := 0; j < 2*cells; j++ {
			for k := 0; k < 2*cells; k++ {
				x := geom.Vec3{float64(i) + 0.5, float64(j) + 0.5, float64(k) + 0.5}.Scale(cfg.H / 2)
				p.Add(x.Add(geom.Vec3{0.3, 0.3, 0.3}), geom.Vec3{}, m, DefaultMaterial.PerParticle())
			}
		}
	}
	s, err := NewSim(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	s.measureVolumes()
	want := 8 * m / (cfg.H * cfg.H * cfg.H)
	inner := geom.Box{Min: geom.Vec3{0.5, 0.5, 0.5}, Max: geom.Vec3{0.6, 0.6, 0.6}} // 4 cells inside: the nodes' masses are full
	n := 0
	for i, x := range p.X {
		if inner.Contains(x) {
			n++
			if rho := float64(p.Mass[i]) / float64(p.Vol0[i]); math.Abs(rho-want) > 1e-5*want {
				t.Fatalf("particle %d at %v: density %g, want %g", i, x, rho, want)
			}
		}
	}
	if n == 0 {
		t.Fatal("no particle inside the lattice")
	}
}

// Stage 4 adds dt (f / m + g) to a node's velocity momentum / m: g dt without force.
func TestStage4AddsGravity(t *testing.T) {
	g := geom.Vec3{0, -9.81, 0}
	const dt = 1e-3
	n := node{mass: 2, momentum: geom.Vec3{2, 4, -6}}
	var vn, vStar geom.Vec3
	n.velocityStar(&vn, &vStar, &g, 1, dt)
	if want := (geom.Vec3{1, 2, -3}); vn != want {
		t.Errorf("v^n = %v, want %v", vn, want)
	}
	if d := vStar.Sub(vn).Sub(g.Scale(dt)); d.Norm() > 1e-15 {
		t.Errorf("force-free node: v* - v^n = %v, want g dt = %v", vStar.Sub(vn), g.Scale(dt))
	}
	n.force = geom.Vec3{0, 2 * 9.81, 0} // holds the node's weight
	if n.velocityStar(&vn, &vStar, &g, 1, dt); vStar.Sub(vn).Norm() > 1e-15 {
		t.Errorf("a node whose force balances gravity changes velocity by %v", vStar.Sub(vn))
	}
}

// With damping, stage 4 scales v^n + dt (f / m + g) by the decay factor, and by
// exactly 1 without (the node's v* is then bit for bit equation (10)'s).
func TestStage4Damping(t *testing.T) {
	g := geom.Vec3{0, -9.81, 0}
	const dt = 1e-3
	n := node{mass: 2, momentum: geom.Vec3{2, 4, -6}, force: geom.Vec3{0.2, -0.4, 0.6}}
	var vn, undamped, damped geom.Vec3
	n.velocityStar(&vn, &undamped, &g, 1, dt)
	for a := range vn {
		if want := vn[a] + dt*(1/n.mass*n.force[a]+g[a]); undamped[a] != want {
			t.Errorf("v*[%d] = %v without damping, want %v", a, undamped[a], want)
		}
	}
	decay := math.Exp(-2 * dt)
	n.velocityStar(&vn, &damped, &g, decay, dt)
	if d := damped.Sub(undamped.Scale(decay)).Norm(); d > 1e-15 {
		t.Errorf("damped v* = %v, want %v", damped, undamped.Scale(decay))
	}
}

// Stage 5 removes the velocity with which a node would enter a collider, keeps the
// rest (a frictionless floor here), and leaves a separating node alone.
func TestStage5RemovesApproachingNormalVelocity(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.05
	cfg.Walls = collider.Surface{Mode: collider.Slip}
	s, err := NewSim(cfg, &Particles{})
	if err != nil {
		t.Fatal(err)
	}
	const dt = 0.01
	collide := func(x, v geom.Vec3) geom.Vec3 {
		s.collide(s.colliders, &x, &v, dt, dt)
		return v
	}
	floor := geom.Vec3{0.5, 0.001, 0.5} // just above y = 0
	if got, want := collide(floor, geom.Vec3{1, -2, 0.5}), (geom.Vec3{1, 0, 0.5}); got != want {
		t.Errorf("approaching the floor: %v, want %v", got, want)
	}
	if v := (geom.Vec3{1, 2, 0.5}); collide(floor, v) != v {
		t.Errorf("leaving the floor: %v, want %v unchanged", collide(floor, v), v)
	}
	if v, mid := (geom.Vec3{1, -2, 0.5}), (geom.Vec3{0.5, 0.5, 0.5}); collide(mid, v) != v {
		t.Errorf("far from every wall: %v, want %v unchanged", collide(mid, v), v)
	}
}

// Stages 4 to 6 of a free-falling block (no stress on the first step): every node with
// mass gains g dt, and the others, which no particle reads, hold nothing.
func TestGridUpdateOfFreeFall(t *testing.T) {
	cfg := DefaultConfig()
	cfg.H = 0.05
	v0 := geom.Vec3{0.3, 1, -0.2}
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.3, 0.4, 0.3}, Max: geom.Vec3{0.6, 0.6, 0.7}}, DefaultMaterial, v0)
	s.Prepare()
	s.binParticles()
	s.rasterize()
	const dt = 1e-3
	s.updateGrid(dt, dt)
	want := cfg.Gravity.Scale(dt)
	checked := 0
	for b := range s.grid.blocks {
		for k, n := range s.grid.blocks[b] {
			vel := s.grid.velocities[b][k]
			if n.mass == 0 {
				if vel != (nodeVelocity{}) {
					t.Fatalf("node %d of block %d: no mass but velocity %v", k, b, vel)
				}
				continue
			}
			checked++
			if d := vel.dv.Sub(want).Norm(); d > 1e-12 {
				t.Fatalf("node %d of block %d: v^{n+1} - v^n = %v, want g dt = %v", k, b, vel.dv, want)
			}
			if d := vel.v.Sub(v0.Add(want)).Norm(); d > 1e-12 {
				t.Fatalf("node %d of block %d: v^{n+1} = %v, want v0 + g dt = %v", k, b, vel.v, v0.Add(want))
			}
		}
	}
	if checked == 0 {
		t.Fatal("no node with mass")
	}
}

// Stage 6 of the explicit integrator takes v^{n+1} = v*.
func TestStage6Explicit(t *testing.T) {
	vn, vStar := geom.Vec3{1, 2, 3}, geom.Vec3{1.5, 2, 2}
	var got nodeVelocity
	explicitVelocity(&got, &vn, &vStar)
	if want := (nodeVelocity{v: vStar, dv: geom.Vec3{0.5, 0, -1}}); got != want {
		t.Errorf("explicitVelocity(%v, %v) = %+v, want %+v", vn, vStar, got, want)
	}
}

// Stage 8 with alpha = 0 is PIC, the grid's velocity; with alpha = 1 it is FLIP, the
// particle's velocity plus the grid's change; in between, the blend.
func TestStage8PICAndFLIP(t *testing.T) {
	vPIC, vp, dv := geom.Vec3{1, -2, 3}, geom.Vec3{0.5, 0.25, -4}, geom.Vec3{0.125, 1, 2}
	blend := func(alpha float64) geom.Vec3 {
		v := vp
		blendPICFLIP(&v, alpha, &vPIC, &dv)
		return v
	}
	if got := blend(0); got != vPIC {
		t.Errorf("alpha = 0: %v, want the PIC velocity %v", got, vPIC)
	}
	if got, want := blend(1), vp.Add(dv); got != want {
		t.Errorf("alpha = 1: %v, want the FLIP velocity %v", got, want)
	}
	if got, want := blend(0.75), vPIC.Scale(0.25).Add(vp.Add(dv).Scale(0.75)); got.Sub(want).Norm() > 1e-15 {
		t.Errorf("alpha = 0.75: %v, want %v", got, want)
	}
}

// With flip_alpha_step, the blend depends on the time rather than on the steps: the PIC
// share of n steps of dt damps by the same factor as one step of n dt, and a step of
// flip_alpha_step blends with flip_alpha. Without it, every step blends with flip_alpha.
func TestFlipAlphaPerSecond(t *testing.T) {
	cfg := DefaultConfig()
	if got := cfg.flipAlpha(1e-5); got != cfg.FlipAlpha {
		t.Errorf("per step: alpha %g, want flip_alpha %g", got, cfg.FlipAlpha)
	}
	cfg.FlipAlphaStep = 5e-4
	if got := cfg.flipAlpha(5e-4); math.Abs(got-0.95) > 1e-15 {
		t.Errorf("a step of flip_alpha_step: alpha %g, want 0.95", got)
	}
	if one, many := cfg.flipAlpha(4e-4), math.Pow(cfg.flipAlpha(4e-4/40), 40); math.Abs(one-many) > 1e-12 {
		t.Errorf("one step of 0.4 ms keeps %g of the FLIP part, 40 steps of 10 us keep %g", one, many)
	}
}

// Stage 10 moves a particle by dt v, and never out of the domain.
func TestStage10Advection(t *testing.T) {
	s, err := NewSim(DefaultConfig(), &Particles{}) // the unit cube
	if err != nil {
		t.Fatal(err)
	}
	advect := func(x, v geom.Vec3, dt float64) geom.Vec3 {
		s.advect(&x, &v, dt)
		return x
	}
	x, v := geom.Vec3{0.5, 0.25, 0.75}, geom.Vec3{1, -2, 0.5}
	if got, want := advect(x, v, 0.1), (geom.Vec3{0.6, 0.05, 0.8}); got.Sub(want).Norm() > 1e-15 {
		t.Errorf("x + dt v = %v, want %v", got, want)
	}
	if got, want := advect(x, v, 0.5), (geom.Vec3{1, 0, 1}); got != want {
		t.Errorf("past the walls: %v, want the domain's corner %v", got, want)
	}
}
