package main

import (
	"fmt"
	"io"

	"snowtools/cmd/internal/cli"
	"snowtools/simcore"
)

// integratorNotes logs the auto integrator's choice (solver.integrator = "auto") on the
// first frame of a run and on every frame where it changes, with the predictions it was
// made by, and whether a moving collider kept it explicit:
//
//	snowsim: frame 12: semi-implicit (explicit would take 540 steps, semi-implicit 60 x ~4 iterations)
//	snowsim: frame 14: explicit (explicit would take 560 steps, semi-implicit 60 x ~4 iterations; a collider drives the snow at 0.5 m/s)
type integratorNotes struct {
	sim    *simcore.Sim
	auto   bool               // the scene asks for the auto integrator
	logged bool               // a choice was logged
	last   simcore.Integrator // the integrator of the last frame logged or seen
	driven bool               // a moving collider drove the snow in that frame
}

// afterFrame logs frame f's integrator if the auto integrator chose it and it, or
// whether a collider drove the snow, differs from the previous frame's (or it is the
// run's first).
func (n *integratorNotes) afterFrame(f int, progress *cli.Progress, log io.Writer) {
	c := n.sim.IntegratorChoice()
	driven := c.ColliderSpeed > 0
	if !n.auto || (n.logged && c.Integrator == n.last && driven == n.driven) {
		return
	}
	progress.Done()
	why := ""
	if driven {
		why = fmt.Sprintf("; a collider drives the snow at %.2g m/s", c.ColliderSpeed)
	}
	fmt.Fprintf(log, "snowsim: frame %d: %v (explicit would take %d steps, semi-implicit %d x ~%.0f iterations%s)\n",
		f, c.Integrator, c.ExplicitSteps, c.SemiImplicitSteps, c.Iterations, why)
	n.logged, n.last, n.driven = true, c.Integrator, driven
}
