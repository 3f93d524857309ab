// Package simcore is the material point method for snow of Stomakhin et al. 2013
// ("A material point method for snow simulation", SIGGRAPH 2013): particles carry mass,
// velocity and an elasto-plastic deformation gradient; a sparse background grid computes
// forces and collisions. It does no file I/O.
package simcore

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// Config holds the solver settings that are not per particle.
type Config struct {
	H         float64          // grid spacing h (m)
	Domain    geom.Box         // particles never leave it; its faces are colliders
	Walls     collider.Surface // how the domain's faces treat snow
	Gravity   geom.Vec3        // m/s^2, from GravityStart (s) on: none acts before
	Transfer  Transfer         // stages 1 and 8: the paper's PICFLIP, or APIC (apic.go)
	FlipAlpha float64          // alpha of stage 8 for PICFLIP: 0 is PIC, 1 is FLIP; the paper uses 0.95
	// FlipAlphaStep, if > 0, is the time step (s) that FlipAlpha is meant for: a step of
	// dt then blends with FlipAlpha^(dt / FlipAlphaStep), so that the PIC share damps
	// relative motion by the same factor per second at any step length. 0 applies
	// FlipAlpha to every step, as the paper does (its semi-implicit steps were about
	// 5e-4 s; the explicit integrator takes 10-100 times as many).
	FlipAlphaStep float64
	// CFL is the fraction of a cell that the fastest signal may cross per step: particle
	// speed plus elastic wave speed for the explicit integrator, particle speed alone for
	// the semi-implicit one (where it bounds the strain a step imposes where snow meets a
	// collider). 0 means the integrator's default, 0.5 (explicit) or SemiImplicitCFL.
	// WaveCells, for the semi-implicit integrator only, is how many cells the elastic
	// wave may cross per step: stable at any step, the linearised update drifted from
	// the explicit run's shape at 20 in the stiff-snowball measurements.
	CFL       float64
	WaveCells float64
	MaxDt     float64             // upper bound on the time step (s)
	MinDt     float64             // a step this short means the state went bad (s)
	Threads   int                 // worker goroutines; 0 means GOMAXPROCS
	Colliders []collider.Collider // collision bodies besides the walls

	// Sintering acts on the particles whose material sinters while SinterStart <= t <
	// SinterEnd (s); SinterEnd 0 leaves the window open.
	SinterStart, SinterEnd float64
	// Presses squeeze the snow with external forces, each in its own time window; with
	// GravityStart, snow can be pressed in the air and then dropped (the experiment of
	// Ye and Sugimoto's section 4.1).
	Presses      []Press
	GravityStart float64

	// Damping (1/s), when above 0, is a drag on the grid velocities of stage 4: v* is
	// multiplied by exp(-Damping dt) (node.velocityStar), so that an unforced velocity
	// decays as exp(-Damping t) and an oscillation's amplitude as exp(-Damping t / 2)
	// (half its energy is in the velocities), on top of the method's own losses. It
	// lets soft snow that must come to rest settle: 5/s takes the ringing of a soft
	// block from 2 to 0.4 mm at 1 s (TestDampingSettlesSoftBlock). It acts on rigid
	// motion too: free fall tends to the terminal speed |g| / Damping, and a 1 m drop
	// lands at 3.2 m/s with 2/s, 1.9 with 5/s, instead of 4.4. A lower FlipAlpha damps
	// motion relative to the grid's smoothed velocity instead, and leaves free fall
	// alone (0.5 took the same ringing to 0.09 mm). 0, the default, is the paper's
	// method.
	Damping float64

	// Sleep lets resting snow sleep (sleep.go): a group of particles that have all
	// moved slower than SleepSpeed (m/s) for SleepTime (s) skips the transfers
	// and the F_E update, its nodes held still, until moving snow or a moving collider
	// reaches it. 0 for SleepSpeed or SleepTime means its default (sleepSpeed,
	// sleepTime). Off by default: the paper's method.
	Sleep      bool
	SleepSpeed float64
	SleepTime  float64

	// Stage 6 (section 6.1): Explicit, or SemiImplicit with Beta in [0, 1] (0 explicit,
	// 1/2 trapezoidal, 1 backward Euler), solved by Jacobi-preconditioned conjugate
	// residuals to the relative residual SolverTolerance or SolverMaxIterations
	// iterations. Auto chooses one of the two afresh for every Advance (every frame),
	// the one that the step limits make cheaper (integrator_auto.go), with the
	// semi-implicit settings.
	Integrator          Integrator
	Beta                float64
	SolverTolerance     float64
	SolverMaxIterations int
}

// explicitCFL is the explicit integrator's default CFL.
const explicitCFL = 0.5

// SemiImplicitCFL is the CFL for the semi-implicit integrator that, with WaveCells 14,
// keeps its stiff-snowball benchmark (icy snow thrown at the ground at 3 m/s, h = 5 mm)
// in the explicit run's shape; at a fixed step of 1.5 times the one it gives at impact
// the linearised step over-compresses the contact layer, hardening runs away and the
// solves stop converging.
const SemiImplicitCFL = 0.15

// DefaultConfig returns the settings of the paper where it gives them (alpha = 0.95,
// gravity -9.81 m/s^2 along y) and safe choices otherwise.
func DefaultConfig() Config {
	return Config{
		H:         0.02,
		Domain:    geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 1, 1}},
		Walls:     collider.Surface{Mode: collider.Separate, Friction: 0.3},
		Gravity:   geom.Vec3{0, -9.81, 0},
		FlipAlpha: 0.95,
		CFL:       0, // the integrator's default
		MaxDt:     1e-3,
		MinDt:     1e-8,

		Integrator:          Explicit,
		Beta:                1,
		SolverTolerance:     1e-3,
		SolverMaxIterations: 100,
		WaveCells:           14,
	}
}

// Validate reports the first setting that cannot work, as a *SettingError (a press's
// wrapped with its number, from 1).
func (c *Config) Validate() error {
	switch {
	case !(c.H > 0) || math.IsInf(c.H, 0):
		return badSetting("h", "%g: must be > 0 (the grid spacing)", c.H)
	case !(c.FlipAlpha >= 0 && c.FlipAlpha <= 1):
		return badSetting("flip_alpha", "%g: must be in [0, 1]", c.FlipAlpha)
	case !(c.FlipAlphaStep >= 0) || math.IsInf(c.FlipAlphaStep, 0):
		return badSetting("flip_alpha_step", "%g s: must be >= 0 (0: flip_alpha applies per step)", c.FlipAlphaStep)
	case !(c.CFL >= 0 && c.CFL <= 1):
		return badSetting("cfl", "%g: must be in (0, 1] (0: the integrator's default)", c.CFL)
	case !(c.MaxDt > 0):
		return badSetting("max_dt", "%g: must be > 0", c.MaxDt)
	case !(c.MinDt > 0 && c.MinDt <= c.MaxDt):
		return badSetting("min_dt", "%g: must be in (0, max_dt]", c.MinDt)
	case c.Threads < 0:
		return badSetting("threads", "%d: must be >= 0", c.Threads)
	case !c.Gravity.IsFinite():
		return badSetting("gravity", "%v: must be finite", c.Gravity)
	case !(c.GravityStart >= 0) || math.IsInf(c.GravityStart, 0):
		return badSetting("gravity_start", "%g s: must be >= 0", c.GravityStart)
	case c.Transfer != PICFLIP && c.Transfer != APIC:
		return badSetting("transfer", "%d: unknown", c.Transfer)
	case !(c.Damping >= 0) || math.IsInf(c.Damping, 0):
		return badSetting("damping", "%g 1/s: must be >= 0 (0: no damping)", c.Damping)
	case !(c.SleepSpeed >= 0) || math.IsInf(c.SleepSpeed, 0):
		return badSetting("sleep_speed", "%g m/s: must be >= 0 (0: the default, %g h per second)", c.SleepSpeed, defaultSleepCellsPerSecond)
	case !(c.SleepTime >= 0) || math.IsInf(c.SleepTime, 0):
		return badSetting("sleep_time", "%g s: must be >= 0 (0: the default, %g s)", c.SleepTime, defaultSleepTime)
	case c.Integrator != Explicit && c.Integrator != SemiImplicit && c.Integrator != Auto:
		return badSetting("integrator", "%d: unknown", c.Integrator)
	case c.solves() && !(c.Beta >= 0 && c.Beta <= 1):
		return badSetting("beta", "%g: must be in [0, 1]", c.Beta)
	case !(c.SinterStart >= 0):
		return badSetting("sinter_start", "%g s: must be >= 0", c.SinterStart)
	case !(c.SinterEnd == 0 || c.SinterEnd > c.SinterStart):
		return badSetting("sinter_end", "%g s: must be after the start %g s (0: no end)", c.SinterEnd, c.SinterStart)
	case c.solves() && !(c.WaveCells > 0):
		return badSetting("wave_cells", "%g: must be > 0", c.WaveCells)
	case c.solves() && !(c.SolverTolerance > 0 && c.SolverTolerance < 1):
		return badSetting("tolerance", "%g: must be in (0, 1) (the solver's relative residual)", c.SolverTolerance)
	case c.solves() && c.SolverMaxIterations < 1:
		return badSetting("max_iterations", "%d: must be at least 1 (solver iterations)", c.SolverMaxIterations)
	}
	for k := range c.Presses {
		if err := c.Presses[k].Validate(); err != nil {
			return fmt.Errorf("press %d: %w", k+1, err)
		}
	}
	s := c.Domain.Size()
	for a := 0; a < 3; a++ {
		if !(s[a] >= 4*c.H) {
			return badSetting("domain", "%v to %v: must be at least 4 cells wide on every axis", c.Domain.Min, c.Domain.Max)
		}
	}
	return nil
}

// solves reports whether the run may take semi-implicit steps, whose settings must then
// be valid.
func (c *Config) solves() bool { return c.Integrator != Explicit }

// Sim is a running simulation: particles, colliders and the time. Its configuration is
// fixed by NewSim, which checks it and derives settings from it.
type Sim struct {
	cfg   Config
	P     *Particles
	Time  float64 // simulated time (s)
	Steps int64   // steps taken

	threads   int
	invH      float64
	colliders []collider.Collider // cfg.Colliders followed by the domain walls

	volumesKnown bool
	grid         sparseGrid
	bins         particleBins
	contact      []bool // per grid node: stage 5 acts on it (markContacts)
	work         []workerScratch

	maxSpeed, maxWaveSpeed float64 // from the last step, for the next time step
	pressed                []Press // the presses that act in this step
	frozen                 *Freeze // the first step that froze the snow (Frozen)
	implicit               implicitState
	sleep                  sleepState       // the groups asleep in this step (sleep.go)
	integrator             Integrator       // of the steps: Explicit or SemiImplicit
	choice                 IntegratorChoice // with the Auto integrator, of the last Advance
}

// workerScratch is one worker's private memory.
type workerScratch struct {
	window     window[node]         // a particle block's 2x2x2 node blocks, for the scatter
	velocities window[nodeVelocity] // the same nodes' velocities, for the gather
	stats      stepStats
	near       []collider.Collider // the colliders within reach of the current block
	vecIn      window[paddedVec]   // the semi-implicit solve's gather
	vecOut     window[paddedVec]   // and scatter

	gridMotion gridMotion // of the worker's grid nodes in this step (updateGrid; see Freeze)
}

// stepStats gathers per-worker results of the particle update.
type stepStats struct {
	maxSpeed2, maxWaveSpeed2 float64 // squared, to save square roots per particle
	bad                      int     // a particle whose state went bad, or -1
	badWhy                   string
}

// NewSim checks the configuration and the particles and prepares a simulation at time 0.
func NewSim(cfg Config, p *Particles) (*Sim, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	for i, x := range p.X {
		if !x.IsFinite() || !cfg.Domain.Contains(x) {
			return nil, fmt.Errorf("particle %d at %v: outside the domain %v to %v", i, x, cfg.Domain.Min, cfg.Domain.Max)
		}
		if !p.V[i].IsFinite() || !(p.Mass[i] > 0) {
			return nil, fmt.Errorf("particle %d: velocity %v and mass %g must be finite and the mass > 0", i, p.V[i], p.Mass[i])
		}
	}
	switch {
	case cfg.Transfer == APIC && p.Affine == nil:
		p.Affine = make([]Mat3f, p.Len()) // C_p = 0: each particle starts as a constant velocity
	case cfg.Transfer != APIC:
		p.Affine = nil // from a run resumed with the other transfer
	}
	switch {
	case cfg.Sleep && p.Quiet == nil:
		p.Quiet = make([]float32, p.Len()) // no particle has rested yet
	case !cfg.Sleep:
		p.Quiet = nil // from a run resumed without sleep
	}
	p.trim()
	s := &Sim{cfg: cfg.clone(), P: p, invH: 1 / cfg.H, integrator: cfg.Integrator}
	if cfg.Integrator == Auto {
		s.integrator = Explicit // until the first Advance chooses
	}
	s.threads = cfg.Threads
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	s.colliders = append(append([]collider.Collider(nil), cfg.Colliders...), collider.BoxWalls(cfg.Domain, cfg.Walls)...)
	s.work = make([]workerScratch, s.threads)
	s.volumesKnown = p.Len() > 0 && p.Vol0[0] > 0
	return s, nil
}

// Config returns the simulation's configuration: a copy, since the simulation keeps
// settings derived from it.
func (s *Sim) Config() Config { return s.cfg.clone() }

// clone returns c with its own copies of the lists of colliders and presses (the
// colliders themselves are shared: a deforming one is fed its keyframes as the
// simulation runs).
func (c Config) clone() Config {
	c.Colliders = slices.Clone(c.Colliders)
	c.Presses = slices.Clone(c.Presses)
	return c
}

// StepCFL returns the CFL that the time step uses: CFL, or the integrator's default
// (with Auto, each step uses that of the integrator it takes).
func (c *Config) StepCFL() float64 { return c.cflOf(c.Integrator) }

// cflOf returns the CFL of integrator in: CFL, or that integrator's default.
func (c *Config) cflOf(in Integrator) float64 {
	switch {
	case c.CFL > 0:
		return c.CFL
	case in == SemiImplicit:
		return SemiImplicitCFL
	}
	return explicitCFL
}

// errUnstable is wrapped by the error a step returns when the state goes bad.
var errUnstable = errors.New("simulation became unstable")

// stableDt returns the time step for the current state and integrator (stepLimit).
func (s *Sim) stableDt() float64 { return s.stepLimit(s.integrator) }

// stepLimit returns the time step that integrator in would take in the current state:
// the CFL fraction of a cell divided by the fastest signal, capped by MaxDt. For the
// explicit integrator the signal is the particle speed plus the elastic wave speed
// sqrt((lambda + 2 mu)/rho) of the hardened material. The semi-implicit one is stable
// beyond the elastic limit (section 6.1): its signal is the particle speed alone, and
// its step is also capped at WaveCells cells of the elastic wave. Both resolve the body
// forces (accelerationDt).
func (s *Sim) stepLimit(in Integrator) float64 {
	s.Prepare() // the wave speed needs rho_p^0
	signal := s.maxSpeed + s.maxWaveSpeed
	if in == SemiImplicit {
		signal = s.maxSpeed
	}
	dt := s.cfg.MaxDt
	if signal > 0 {
		dt = math.Min(dt, s.cfg.cflOf(in)*s.cfg.H/signal)
	}
	if in == SemiImplicit && s.maxWaveSpeed > 0 {
		dt = math.Min(dt, s.cfg.WaveCells*s.cfg.H/s.maxWaveSpeed)
	}
	if a, _ := s.bodyAcceleration(); a > 0 {
		dt = math.Min(dt, s.accelerationDt(a, s.cfg.cflOf(in)))
	}
	return dt
}

// bodyAcceleration returns a bound on the acceleration (m/s^2) that the body forces of
// the step that starts now give a particle, gravity and the presses, and the number of
// the strongest press acting (0 for none; see pressAcceleration).
func (s *Sim) bodyAcceleration() (a float64, press int) {
	a, press = s.pressAcceleration(s.Time)
	g := s.gravity()
	return a + g.Norm(), press
}

// accelerationDt returns the longest step in which a body force of acceleration a moves
// snow at rest by at most the fraction cfl of a cell: the step's velocity a dt carries
// it a dt^2 (stage 10 moves by the new velocity), so dt = sqrt(cfl h / a). The speed
// limit resolves motion under way; this one resolves the motion a force starts. Without
// it a strong press's first step was as long as the elastic wave allowed, and its
// a dt carried every grid node's end point x + dt v* past a wall (issue 24).
func (s *Sim) accelerationDt(a, cfl float64) float64 {
	return math.Sqrt(cfl * s.cfg.H / a)
}

// unresolvedPress returns an error naming the strongest press, its pressure, when the
// body forces alone need a step shorter than MinDt; nil otherwise.
func (s *Sim) unresolvedPress() error {
	a, k := s.bodyAcceleration()
	dt := s.accelerationDt(a, s.cfg.cflOf(s.integrator))
	if k == 0 || !(dt < s.cfg.MinDt) {
		return nil
	}
	p := &s.cfg.Presses[k-1]
	return fmt.Errorf("press %d: %w", k, badSetting("pressure",
		"%g Pa over a radius of %g m accelerates the snow at up to %.3g m/s^2, which needs steps of %.3g s, "+
			"below min_dt %.3g s: the step cannot resolve the press; lower the pressure",
		p.Pressure, p.Radius, a, dt, s.cfg.MinDt))
}

// Advance steps until exactly time t, shortening the last steps so that one lands on t
// (a frame time). It returns the number of steps taken. With the Auto integrator it
// first chooses the integrator of these steps (chooseIntegrator).
func (s *Sim) Advance(t float64) (int, error) {
	if s.cfg.Integrator == Auto && s.Time < t {
		s.choice = s.chooseIntegrator(t)
		s.integrator = s.choice.Integrator
	}
	steps := 0
	for s.Time < t {
		dt := s.stableDt()
		if dt < s.cfg.MinDt {
			if err := s.unresolvedPress(); err != nil {
				return steps, fmt.Errorf("step %d at t = %.6g s: %w", s.Steps, s.Time, err)
			}
			return steps, fmt.Errorf("step %d at t = %.6g s: %w: the stable time step %.3g s is below min_dt %.3g s "+
				"(fastest particle %.3g m/s, elastic wave speed %.3g m/s): the snow is moving or stiffening faster than the "+
				"time step can follow; check the material's E0 and xi, initial velocities and colliders",
				s.Steps, s.Time, errUnstable, dt, s.cfg.MinDt, s.maxSpeed, s.maxWaveSpeed)
		}
		remaining := t - s.Time
		last := dt >= remaining
		if last {
			dt = remaining
		} else if 2*dt > remaining {
			dt = remaining / 2 // two equal steps rather than one sliver
		}
		if err := s.Step(dt); err != nil {
			return steps, err
		}
		if last {
			s.Time = t // exactly on the frame, whatever the rounding
		}
		steps++
	}
	return steps, nil
}

// Prepare runs stage 2 (particle volumes and densities) ahead of the first step, so that
// the initial state reports densities; the first step then skips it.
func (s *Sim) Prepare() {
	if !s.volumesKnown {
		s.measureVolumes()
	}
}
