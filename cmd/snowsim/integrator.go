package main

import (
	"fmt"
	"io"

	"snowtools/cmd/internal/cli"
	"snowtools/simcore"
)

// integratorNotes logs the auto integrator's choice (solver.integrator = "auto") on the
// first frame of a run and on every frame where it changes, with the predictions it was
// made by:
//
//	snowsim: frame 12: semi-implicit (explicit would take 540 steps, semi-implicit 60 x ~4 iterations)
type integratorNotes struct {
	sim    *simcore.Sim
	auto   bool               // the scene asks for the auto integrator
	logged bool               // a choice was logged
	last   simcore.Integrator // the integrator of the last frame logged or seen
}

// afterFrame logs frame f's integrator if the auto integrator chose it and it differs
// from the previous frame's (or is the run's first).
func (n *integratorNotes) afterFrame(f int, progress *cli.Progress, log io.Writer) {
	c := n.sim.IntegratorChoice()
	if !n.auto || (n.logged && c.Integrator == n.last) {
		return
	}
	progress.Done()
	fmt.Fprintf(log, "snowsim: frame %d: %v (explicit would take %d steps, semi-implicit %d x ~%.0f iterations)\n",
		f, c.Integrator, c.ExplicitSteps, c.SemiImplicitSteps, c.Iterations)
	n.logged, n.last = true, c.Integrator
}
