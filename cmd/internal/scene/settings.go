package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"snowtools/cmd/internal/budget"
	"snowtools/levelset/geom"
	"snowtools/simcore"
	"snowtools/simcore/collider"
)

// solverConfig loads the MPM solver's settings: [domain], the time step keys of
// [time], [solver], the [sintering] window and the [[press]] tables. simcore
// validates them; the colliders come later (they may need files).
func (l *loader) solverConfig(f *sceneFile) (simcore.Config, error) {
	cfg := simcore.DefaultConfig()
	d := f.Domain
	if d.Min == nil || d.Max == nil || d.H == nil {
		return cfg, keyError("domain", "min, max and h are required")
	}
	cfg.Domain = geom.Box{Min: *d.Min, Max: *d.Max}
	cfg.H = *d.H * l.resolution
	if err := contactMode(&cfg.Walls.Mode, d.Wall, "domain.wall"); err != nil {
		return cfg, err
	}
	if err := friction(&cfg.Walls.Friction, d.WallFriction, "domain.wall_friction"); err != nil {
		return cfg, err
	}
	set(&cfg.CFL, f.Time.CFL)
	set(&cfg.WaveCells, f.Time.WaveCells)
	set(&cfg.MaxDt, f.Time.MaxDt)
	set(&cfg.MinDt, f.Time.MinDt)
	s := f.Solver
	set(&cfg.Gravity, s.Gravity)
	set(&cfg.GravityStart, s.GravityStart)
	set(&cfg.Damping, s.Damping)
	set(&cfg.Sleep, s.Sleep)
	set(&cfg.SleepSpeed, s.SleepSpeed)
	set(&cfg.SleepTime, s.SleepTime)
	if err := setChoice(&cfg.Transfer, s.Transfer, "solver.transfer", simcore.PICFLIP, simcore.APIC); err != nil {
		return cfg, err
	}
	set(&cfg.FlipAlpha, s.FlipAlpha)
	set(&cfg.FlipAlphaStep, s.FlipAlphaStep)
	if err := threads(&cfg.Threads, s.Threads); err != nil {
		return cfg, err
	}
	if err := setChoice(&cfg.Integrator, s.Integrator, "solver.integrator", simcore.Explicit, simcore.SemiImplicit, simcore.Auto); err != nil {
		return cfg, err
	}
	set(&cfg.Beta, s.Beta)
	set(&cfg.SolverTolerance, s.Tolerance)
	set(&cfg.SolverMaxIterations, s.MaxIterations)
	set(&cfg.SinterStart, f.Sintering.Start)
	set(&cfg.SinterEnd, f.Sintering.End)
	var err error
	if cfg.Presses, err = presses(f.Press); err != nil {
		return cfg, err
	}
	return cfg, atKey(cfg.Validate(), configKey)
}

// threads sets a worker count from solver.threads, when present, refusing more than
// budget.MaxThreads (the solver refuses a negative one).
func threads(dst *int, value *int) error {
	if value == nil {
		return nil
	}
	if err := budget.CheckThreads("solver.threads", *value); err != nil {
		return err
	}
	*dst = *value
	return nil
}

// memoryBudget reads solver.memory, when present: the run's memory budget, a size
// as the -memory flag takes it; the zero Budget when absent.
func memoryBudget(value *string) (budget.Budget, error) {
	if value == nil {
		return budget.Budget{}, nil
	}
	bytes, err := budget.Parse(*value)
	if err != nil {
		return budget.Budget{}, keyError("solver.memory", "%v", err)
	}
	return budget.Budget{Bytes: bytes, Source: fmt.Sprintf("solver.memory = %q", *value)}, nil
}

// byName returns the one of values whose String is name.
func byName[T fmt.Stringer](name string, values ...T) (T, bool) {
	for _, v := range values {
		if v.String() == name {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// setChoice sets dst from the key, when present, to the one of values whose String is
// name; any other name is an error that lists them.
func setChoice[T fmt.Stringer](dst *T, name *string, key string, values ...T) error {
	if name == nil {
		return nil
	}
	v, ok := byName(*name, values...)
	if !ok {
		names := make([]string, len(values))
		for i, v := range values {
			names[i] = v.String()
		}
		return keyError(key, "%q: must be %s", *name, quotedList(names))
	}
	*dst = v
	return nil
}

// quotedList returns names quoted and joined as in `"a", "b" or "c"`.
func quotedList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	last := len(quoted) - 1
	if last == 0 {
		return quoted[0]
	}
	return strings.Join(quoted[:last], ", ") + " or " + quoted[last]
}

// contactMode sets a contact mode from its key, when present.
func contactMode(dst *collider.ContactMode, name *string, key string) error {
	return setChoice(dst, name, key, collider.Separate, collider.Slip, collider.Sticky)
}

// friction sets a Coulomb friction coefficient from its key, when present. The
// colliders do not check it: a negative one would push snow along.
func friction(dst *float64, value *float64, key string) error {
	if value == nil {
		return nil
	}
	if !(*value >= 0) || math.IsInf(*value, 0) {
		return keyError(key, "%g: must be >= 0", *value)
	}
	*dst = *value
	return nil
}

// presses loads the [[press]] tables.
func presses(keys []pressKeys) ([]simcore.Press, error) {
	var ps []simcore.Press
	for i, k := range keys {
		key := fmt.Sprintf("press[%d]", i+1)
		switch {
		case k.Center == nil:
			return nil, keyError(key+".center", "required")
		case k.Radius == nil:
			return nil, keyError(key+".radius", "required")
		case k.Pressure == nil:
			return nil, keyError(key+".pressure", "required (Pa)")
		}
		p := simcore.Press{Center: *k.Center, Radius: *k.Radius, Pressure: *k.Pressure}
		if k.Axis != nil {
			if *k.Axis == (geom.Vec3{}) {
				return nil, keyError(key+".axis", "must not be zero (leave it out to press towards the centre)")
			}
			p.Axis = *k.Axis
		}
		set(&p.Start, k.Start)
		set(&p.End, k.End)
		if err := atKey(p.Validate(), under(key)); err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}
