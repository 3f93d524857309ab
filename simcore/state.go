package simcore

import (
	"fmt"
	"math"
)

// State is everything of a Sim that later steps depend on, as plain data, so that a
// caller can save a simulation and continue it later with bit-identical results.
// Everything else a Sim holds is either the Config (which the caller supplies again) or
// scratch rebuilt by every step (the sparse grid, the particle bins).
// The solver uses no randomness once the particles are seeded, so there is no random
// state to keep.
type State struct {
	// Particles holds every channel (the table Channels), the private stress too, in the
	// solver's current order: it reorders particles for locality, and the order decides
	// how sums are rounded, so it is part of the state.
	Particles Particles

	Time         float64 // simulated time (s)
	Steps        int64   // steps taken; decides when particles are next reordered
	MaxSpeed     float64 // fastest particle of the last step (m/s), for the next time step
	MaxWaveSpeed float64 // fastest elastic wave of the last step (m/s), likewise (sleeping snow far from awake snow left out)
	VolumesKnown bool    // stage 2 (particle volumes) has run
}

// Snapshot returns the state of s. It shares memory with s rather than copying it (a
// checkpoint of a large simulation should not double its memory), so it is valid only
// until s changes: encode or copy it before the next Step or Advance.
func (s *Sim) Snapshot() State {
	return State{
		Particles:    *s.P,
		Time:         s.Time,
		Steps:        s.Steps,
		MaxSpeed:     s.maxSpeed,
		MaxWaveSpeed: s.maxWaveSpeed,
		VolumesKnown: s.volumesKnown,
	}
}

// Restore returns a simulation that continues from st with the settings cfg: given the
// Config that the snapshot's Sim had (thread count aside, which does not change
// results), its steps are bit-identical to those the original would have taken. The
// Sim takes ownership of st's slices. Restore checks what NewSim checks and that st is
// self-consistent; it cannot tell whether cfg is the original Config, which the caller
// must ensure (a checkpoint file records which scene it belongs to for that).
func Restore(cfg Config, st State) (*Sim, error) {
	p := st.Particles
	if err := p.CheckLengths(); err != nil {
		return nil, fmt.Errorf("restoring: %w", err)
	}
	finiteNonNeg := func(x float64) bool { return x >= 0 && !math.IsInf(x, 1) }
	switch {
	case !finiteNonNeg(st.Time):
		return nil, fmt.Errorf("restoring: time %g s: must be finite and >= 0", st.Time)
	case st.Steps < 0:
		return nil, fmt.Errorf("restoring: step count %d: must be >= 0", st.Steps)
	case !finiteNonNeg(st.MaxSpeed) || !finiteNonNeg(st.MaxWaveSpeed):
		return nil, fmt.Errorf("restoring: speeds %g and %g m/s: must be finite and >= 0", st.MaxSpeed, st.MaxWaveSpeed)
	}
	slept := p.Quiet != nil
	s, err := NewSim(cfg, &p)
	if err != nil {
		return nil, fmt.Errorf("restoring: %w", err)
	}
	s.Time, s.Steps = st.Time, st.Steps
	s.maxSpeed, s.maxWaveSpeed = st.MaxSpeed, st.MaxWaveSpeed
	if slept && !cfg.Sleep {
		// Resumed without sleep: snow that slept wakes in the first step, and the saved
		// wave speed need not count it (settle, sleep.go).
		s.maxWaveSpeed = max(s.maxWaveSpeed, p.fastestWave())
	}
	s.volumesKnown = st.VolumesKnown
	return s, nil
}
