package simcore

import (
	"runtime"
	"testing"
)

// overheadIterations is the solver iteration count at which BenchmarkImplicitOverhead
// compares the integrators (issue 25: at most twice the explicit cost at 10).
const overheadIterations = 10

// BenchmarkImplicitOverhead compares, in one run, the cost of an explicit step and of a
// semi-implicit step with exactly overheadIterations solver iterations (tolerance 0, so
// that every solve runs to the cap), on BenchmarkStep's snowball (about 1e5 particles)
// just after it hits the ground, on one thread (CPU cost). Both step from the same
// state with the same dt, the explicit stable step there. It reports CPU-us per
// particle-step, the heap per particle (particles, grid and solver scratch), and the
// iterations per step as a check. Run with -cpu 1 -benchtime 20x.
func BenchmarkImplicitOverhead(b *testing.B) {
	for _, in := range []Integrator{Explicit, SemiImplicit} {
		b.Run(in.String(), func(b *testing.B) {
			base := heapInUse()
			s := snowballScene(b, 1)
			for s.Time < 0.01 { // measure volumes and reach the ground
				if err := s.Step(s.stableDt()); err != nil {
					b.Fatal(err)
				}
			}
			dt := s.stableDt()
			if in == SemiImplicit {
				cfg := s.Config()
				cfg.Integrator = SemiImplicit
				cfg.SolverMaxIterations = overheadIterations
				var err error
				if s, err = Restore(cfg, s.Snapshot()); err != nil {
					b.Fatal(err)
				}
				s.cfg.SolverTolerance = 0 // past Validate: never converged, always the full count
			}
			if err := s.Step(dt); err != nil { // size the grid and the scratch
				b.Fatal(err)
			}
			iterations := s.SolverIterations()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.Step(dt); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			n := float64(s.P.Len())
			b.ReportMetric(b.Elapsed().Seconds()*1e6/(n*float64(b.N)), "us/particle-step")
			b.ReportMetric(float64(heapInUse()-base)/n, "B/particle")
			b.ReportMetric(float64(s.SolverIterations()-iterations)/float64(b.N), "iterations/step")
			b.ReportMetric(float64(len(s.grid.blocks)*blockNodes)/n, "nodes/particle")
			runtime.KeepAlive(s)
		})
	}
}
