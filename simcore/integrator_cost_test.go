package simcore

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkIntegratorCost measures what the auto integrator's cost model
// (integrator_auto.go) needs: the CPU cost of a semi-implicit step per particle against
// an explicit step's on the same state, the benchmark snowball just after impact, on
// one thread, with the solve held at a fixed iteration count (a tolerance it cannot
// reach, and max_iterations). The three runs step in turn, so that a shared machine's
// drift hits them alike and the ratios hold. The semi-implicit cost at 1 and at 10
// iterations, in explicit steps, gives the model's two constants: the step's cost
// outside the iterations and the cost of one iteration.
func BenchmarkIntegratorCost(b *testing.B) {
	base := snowballScene(b, 1)
	for base.Time < 0.01 {
		if err := base.Step(base.stableDt()); err != nil {
			b.Fatal(err)
		}
	}
	type run struct {
		name    string
		sim     *Sim
		dt      float64
		elapsed time.Duration
	}
	var runs []*run
	for _, iterations := range []int{0, 1, 10} { // 0: explicit
		cfg := base.Config()
		name := "explicit"
		if iterations > 0 {
			cfg.Integrator = SemiImplicit
			cfg.SolverTolerance, cfg.SolverMaxIterations = 1e-15, iterations
			name = fmt.Sprintf("semi-implicit-%d", iterations)
		}
		s, err := Restore(cfg, cloneState(base.Snapshot()))
		if err != nil {
			b.Fatal(err)
		}
		runs = append(runs, &run{name: name, sim: s, dt: s.stableDt()})
	}
	for b.Loop() {
		for _, r := range runs {
			start := time.Now()
			if err := r.sim.Step(r.dt); err != nil {
				b.Fatal(err)
			}
			r.elapsed += time.Since(start)
		}
	}
	perStep := func(r *run) float64 { return float64(r.elapsed.Nanoseconds()) / float64(b.N) / float64(r.sim.P.Len()) }
	explicit := perStep(runs[0])
	b.ReportMetric(explicit, "explicit-ns/particle-step")
	for _, r := range runs[1:] {
		b.ReportMetric(perStep(r)/explicit, r.name+"/explicit")
		b.ReportMetric(float64(r.sim.SolverIterations())/float64(r.sim.Steps-base.Steps), r.name+"-iterations/step")
	}
}
