package simcore

import "math"

// The auto integrator (Config.Integrator = Auto): at the start of every Advance, that is
// every frame, the solver predicts what the frame would cost with each integrator and
// takes the cheaper one for the whole frame.
//
// Each integrator's time step is its limit in the current state (stepLimit): explicit,
// CFL h / (v + c), where c = sqrt((lambda + 2 mu) / rho) is the fastest elastic wave of
// the hardened snow; semi-implicit, CFL h / v capped at WaveCells h / c; both at most
// MaxDt and short enough for the body forces. A frame of length T then takes
//
//	n_explicit = ceil(T / dt_explicit),  n_semi = ceil(T / dt_semi)
//
// steps, and costs, in explicit particle-steps per particle,
//
//	cost_explicit = n_explicit
//	cost_semi     = n_semi (semiImplicitStepCost + semiImplicitIterationCost k)
//
// with k = iterationsPerWaveCell c dt_semi / h the solver iterations a step is
// expected to take. The semi-implicit integrator is chosen when cost_semi is below
// semiImplicitMargin cost_explicit, unless a moving collider drives the snow in the
// frame (integrator_auto_contact.go). The snow's speed v and wave speed c are those of
// the last step, so the choice follows the state: soft or fast snow (c small against v)
// goes explicit, hardened snow that has slowed down (c >> v, the explicit step
// shrinking with it) goes semi-implicit. When c >> v the explicit step count is
// 2 T c / h, and the rule reduces to a threshold on the wave cells per semi-implicit
// step, c dt_semi / h > semiImplicitStepCost / (2 semiImplicitMargin -
// semiImplicitIterationCost iterationsPerWaveCell): about 2.7 cells.
//
// The choice depends on nothing but the state that a checkpoint keeps (the time, the
// particles, the speeds of the last step), the colliders and the settings, never on
// wall-clock time or on the solver iterations that a run measured but a checkpoint does
// not hold: a run resumed from a checkpoint chooses as the uninterrupted one did, and
// writes the same bytes.

// semiImplicitStepCost and semiImplicitIterationCost are the cost of a semi-implicit
// step, outside and per solver iteration, in explicit steps of the same state. They
// were measured where the choice is made, on hardened snow: the 3e5-particle snowball of
// bench/long_runs after landing, on two threads, both steps' loops in AVX2 (wall time
// per step from snowsim's progress lines, in an auto run under the benchmark's
// constants below, which kept most landed frames explicit; with the present constants
// auto goes semi-implicit from frame 2, so repeat it with `FRAMES=24
// INTEGRATORS="explicit semi-implicit" bench/long_runs/run.sh
// bench/long_runs/snowball_3e5.toml`). Its explicit frames took 0.134 s a step, its two
// semi-implicit frames 0.93 s a step at 10.4 iterations and 0.62 s at 4.7: 6.9 and 4.6
// explicit steps, so 2.7 outside the iterations and 0.40 per iteration. The
// 1e5-particle benchmark snowball just after impact gives 3.4 + 0.61 k (`go test -run '^$' -bench 'ImplicitOverhead/interleaved' -cpu 1 -benchtime 10x
// ./simcore`): there the explicit step is cheaper, since few particles are clamped and
// stage 7 skips their SVD, and with the constants from there the model chose
// semi-implicit for only 2 of the 3e5 snowball's 23 frames after landing, though those
// two took 0.72 and 0.48 of an explicit frame's time. The constants are the solver's, not
// the machine's, so that a scene chooses the same integrators, and writes the same bytes,
// wherever its steps do (amd64 with or without AVX2; see transfer_avx2_amd64.go for the
// builds that fuse multiply-adds); without AVX2 both steps run their Go loops, and the
// benchmark measured 2.7 + 0.53 k there. Re-measure them when either step changes.
const (
	semiImplicitStepCost      = 2.7
	semiImplicitIterationCost = 0.40
)

// iterationsPerWaveCell is how many solver iterations a semi-implicit step takes per
// cell that the elastic wave crosses in it (c dt / h): the iterations grow with the
// square root of the system's condition number, which grows as (c dt / h)^2. Measured
// on snowballs thrown at the ground once they have landed: 1.25 per cell on the icy one
// of the semi-implicit tests (icySnowball at h = 1 cm: about 17.5 iterations at the
// 14-cell cap), 0.85-1.35 on a Table 2 one (4-6.5 iterations at 4.8 cells), 0.8-1.8 on
// examples/snowball_walls.toml and 1.9-3.5 on examples/snowball_drop.toml (frames
// 3-5). In free flight the stress is nil and the solve takes 0-1 iterations: the
// estimate errs there towards the explicit integrator.
const iterationsPerWaveCell = 1.5

// semiImplicitMargin is how much cheaper the semi-implicit frame must be predicted to
// be: the explicit step count of a frame follows the wave speed to within 10%, but the
// solver's iterations vary twofold from frame to frame at the same wave speed (8.8 then
// 16.4 per step on examples/snowball_drop.toml, frames 3 and 4, which made that frame
// 1.56 times the explicit one's cost). Near the break-even point there is little to
// gain and much to lose, so the explicit integrator keeps the frames that the model
// cannot tell apart.
const semiImplicitMargin = 0.8

// IntegratorChoice is what the auto integrator chose for the steps of one Advance, and
// the predictions it chose by.
type IntegratorChoice struct {
	Integrator        Integrator
	ExplicitSteps     int     // steps the explicit integrator would take
	SemiImplicitSteps int     // steps the semi-implicit one would take
	Iterations        float64 // solver iterations expected per semi-implicit step
	// ColliderSpeed is the fastest speed, m/s, of a collider's surface where it drives
	// the snow (integrator_auto_contact.go); 0 if none does. It is measured only when
	// the semi-implicit integrator is predicted cheaper.
	ColliderSpeed float64
}

// IntegratorChoice returns the auto integrator's choice for the last Advance (the zero
// choice, which reads as Explicit, before the first or with another integrator).
func (s *Sim) IntegratorChoice() IntegratorChoice { return s.choice }

// Integrator returns the integrator of the last step (of the next one, before any).
func (s *Sim) Integrator() Integrator { return s.integrator }

// chooseIntegrator returns the integrator that makes the steps to time t cheaper, by the
// cost model above: the explicit one unless the semi-implicit one wins by the margin and
// no moving collider drives the snow.
func (s *Sim) chooseIntegrator(t float64) IntegratorChoice {
	span := t - s.Time
	dtSemi := s.stepLimit(SemiImplicit)
	c := IntegratorChoice{
		Integrator:        Explicit,
		ExplicitSteps:     stepsFor(span, s.stepLimit(Explicit)),
		SemiImplicitSteps: stepsFor(span, dtSemi),
		Iterations:        iterationsPerWaveCell * s.maxWaveSpeed * dtSemi / s.cfg.H,
	}
	semiCost := float64(c.SemiImplicitSteps) * (semiImplicitStepCost + semiImplicitIterationCost*c.Iterations)
	if semiCost < semiImplicitMargin*float64(c.ExplicitSteps) {
		// Cheaper, unless a moving collider drives the snow (integrator_auto_contact.go).
		if c.ColliderSpeed = s.colliderDrive(t); c.ColliderSpeed == 0 {
			c.Integrator = SemiImplicit
		}
	}
	return c
}

// stepsFor returns how many steps of at most dt cover span, as Advance takes them.
func stepsFor(span, dt float64) int {
	return int(math.Ceil(span / dt))
}
