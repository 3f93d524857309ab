package simcore

import (
	"math"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// pressedBlock is a block of snow (20 x 10 x 20 cm, h = 2 cm, Table 2's snow) in the
// middle of a 1 m domain, gravity off, that a press with an axis pushes towards the
// plane y = 0.1 m: every particle lies within the press's radius R = 0.5 m and more
// than a cell from the plane, so each feels the force density P / R towards it on its
// volume V_p^0. It returns the simulation, prepared.
func pressedBlock(t *testing.T, pressure float64) *Sim {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Gravity = geom.Vec3{}
	cfg.Presses = []Press{{Center: geom.Vec3{0.5, 0.1, 0.5}, Axis: geom.Vec3{0, 1, 0}, Radius: 0.5, Pressure: pressure}}
	box := geom.Box{Min: geom.Vec3{0.4, 0.5, 0.4}, Max: geom.Vec3{0.6, 0.6, 0.6}}
	s := newBlock(t, cfg, box, DefaultMaterial, geom.Vec3{})
	s.Prepare()
	return s
}

// blockAcceleration is the acceleration of the pressed block's centre of mass: the
// press's total force (P / R) sum V_p^0 over the mass sum m_p, as a pressure
// P L / R on the lower face (area A) of a block of height L and mass m gives it,
// p A / m, with A L = sum V_p^0, the volume that the solver measured (stage 2).
func blockAcceleration(s *Sim) float64 {
	p := &s.cfg.Presses[0]
	vol, mass := 0.0, 0.0
	for i := range s.P.X {
		vol += float64(s.P.Vol0[i])
		mass += float64(s.P.Mass[i])
	}
	return p.Pressure / p.Radius * vol / mass
}

// A press of any strength moves the snow as a press: after a few steps of the length
// the solver chooses (stableDt) the block's centre of mass moves down at a t, with the
// internal forces summing to zero and no collision on the way, and every particle
// moves. On main a press of 1e9 Pa froze every particle (velocity exactly 0): the
// first step was as long as the elastic wave allows (5e-4 s), in which v* = a dt
// carried every grid node's end point x + dt v* beyond a domain face, and each took
// the wall's sticking response.
func TestPressAcceleratesBlockAtAnyPressure(t *testing.T) {
	for _, pressure := range []float64{1e3, 1e6, 1e9, 1e10} {
		s := pressedBlock(t, pressure)
		a := blockAcceleration(s)
		for range 3 {
			if err := s.Step(s.stableDt()); err != nil {
				t.Fatalf("%g Pa: %v", pressure, err)
			}
		}
		v := -meanVelocity(s.P)[1]
		slowest := math.Inf(1)
		for _, pv := range s.P.V {
			slowest = min(slowest, pv.Norm())
		}
		rel := (v - a*s.Time) / (a * s.Time)
		t.Logf("%g Pa: a = %.4g m/s^2, 3 steps to t = %.3g s: centre of mass at %.5g m/s, a t = %.5g (%+.1e), slowest particle %.3g m/s",
			pressure, a, s.Time, v, a*s.Time, rel, slowest)
		if s.Frozen() != nil {
			t.Errorf("%g Pa: Frozen %+v", pressure, *s.Frozen())
		}
		if math.Abs(rel) > 1e-4 || !(slowest > 0.5*a*s.Time) {
			t.Errorf("%g Pa: the block moves at %.4g m/s, slowest particle %.3g m/s, after %.3g s: want a t = %.4g (within 1e-4) and every particle moving",
				pressure, v, slowest, s.Time, a*s.Time)
		}
	}
}

// fallingBlock is a block of snow at rest in the middle of the default 1 m domain,
// 0.4 m above the floor, with gravity on: the scene of the test below, which takes a
// step of 0.5 s, far longer than stableDt's 5e-4 s, in which gravity's v* = g dt
// would carry every point 1.2 m down, past the floor.
func fallingBlock(t *testing.T) *Sim {
	t.Helper()
	box := geom.Box{Min: geom.Vec3{0.4, 0.4, 0.4}, Max: geom.Vec3{0.6, 0.6, 0.6}}
	s := newBlock(t, DefaultConfig(), box, DefaultMaterial, geom.Vec3{})
	s.Prepare()
	return s
}

// A step that stops every particle though its forces moved the grid, with no particle
// near a wall, is reported by Frozen: in the overlong step of fallingBlock every grid
// node's and particle's end point is past the floor, and stages 5 and 9 stop each one
// there, 0.4 m above it. A step that
// stableDt chose is no Freeze, and neither is snow at rest with no force acting.
func TestFrozenReportsSnowStoppedAwayFromWalls(t *testing.T) {
	s := fallingBlock(t)
	if err := s.Step(s.stableDt()); err != nil {
		t.Fatal(err)
	}
	if f := s.Frozen(); f != nil {
		t.Fatalf("a step of stableDt: Frozen %+v, want nil", *f)
	}
	if err := s.Step(0.5); err != nil {
		t.Fatal(err)
	}
	f := s.Frozen()
	if f == nil {
		t.Fatalf("a step of 0.5 s left the fastest particle at %g m/s, and Frozen is nil", s.maxSpeed)
	}
	t.Logf("Frozen: %+v", *f)
	if f.Steps != 2 || f.Time != s.Time || !(f.GridSpeed > 4) || !(f.Gap > 0.39 && f.Gap < 0.41) {
		t.Errorf("Frozen %+v: want step 2 at t = %g, grid speed about g dt = 4.9 m/s, gap about 0.4 m", *f, s.Time)
	}

	// The freeze of issue 24: the press of 1e10 Pa in the step that main took, as
	// long as the elastic wave allows.
	pressed := pressedBlock(t, 1e10)
	if err := pressed.Step(0.5 * pressed.cfg.H / pressed.maxWaveSpeed); err != nil {
		t.Fatal(err)
	}
	if f := pressed.Frozen(); f == nil {
		t.Errorf("a press of 1e10 Pa in a step of %g s: Frozen is nil, fastest particle %g m/s", pressed.Time, pressed.maxSpeed)
	} else {
		t.Logf("1e10 Pa in a step of %.3g s: fastest particle %g m/s, Frozen %+v", pressed.Time, pressed.maxSpeed, *f)
	}

	still := fallingBlock(t)
	still.cfg.GravityStart = 1 // at rest, no force until t = 1 s: nothing to freeze
	for range 2 {
		if err := still.Step(0.5); err != nil {
			t.Fatal(err)
		}
	}
	if f := still.Frozen(); f != nil || still.maxSpeed != 0 {
		t.Errorf("snow at rest with no force acting: Frozen %+v, fastest particle %g m/s; want nil and 0", f, still.maxSpeed)
	}
}

// A press whose acceleration needs a step below MinDt is refused before the step,
// with an error naming the press and its pressure, rather than simulated wrongly.
func TestPressBeyondMinDtIsRefused(t *testing.T) {
	s := pressedBlock(t, 1e9)
	s.cfg.MinDt = 1e-4 // the press needs sqrt(0.5 h / a) = 1.9e-5 s at the block's edges
	_, err := s.Advance(0.01)
	if err == nil || !strings.Contains(err.Error(), "step 0 at t = 0 s: press 1: pressure: 1e+09 Pa") || s.Steps != 0 {
		t.Fatalf("Advance after %d steps: %v, want an error naming press 1's pressure before any step", s.Steps, err)
	}
	t.Log(err)
}
