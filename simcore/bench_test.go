package simcore

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// snowballScene is the benchmark scene: a snowball of about 1e5 particles (radius 14.4
// cells, 8 per cell) thrown at the ground, which it reaches after a few steps, with the
// paper's PIC/FLIP transfer.
func snowballScene(b *testing.B, threads int) *Sim { return snowballSceneWith(b, threads, PICFLIP) }

// snowballSceneWith is snowballScene with the given transfer.
func snowballSceneWith(b *testing.B, threads int, transfer Transfer) *Sim {
	cfg := DefaultConfig()
	cfg.Transfer = transfer
	cfg.H = 0.01
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{0.8, 0.5, 0.8}}
	cfg.Threads = threads
	src := ballSource(geom.Vec3{0.4, 0.16, 0.4}, 0.144, DefaultMaterial, 1)
	src.Velocity = geom.Vec3{0.5, -3, 0}
	return newSimOf(b, cfg, src)
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkStep measures the explicit time step on the snowball as it hits the ground,
// reporting particle-steps per second, the CPU time per particle-step (all threads,
// from getrusage: on a machine shared with other work it moves less than the wall
// time) and the heap bytes per particle, grid included.
func BenchmarkStep(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			base := heapInUse()
			s := snowballScene(b, threads)
			// Warm up: measure volumes, size the grid and scratch, and reach the ground.
			for s.Time < 0.01 {
				if err := s.Step(s.stableDt()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			cpu0, cpuKnown := processCPU()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.Step(s.stableDt()); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			n := float64(s.P.Len())
			b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "particle-steps/s")
			if cpu1, ok := processCPU(); ok && cpuKnown {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/(n*float64(b.N)), "cpu-ns/particle-step")
			}
			b.ReportMetric(float64(heapInUse()-base)/n, "B/particle")
			b.ReportMetric(n, "particles")
			runtime.KeepAlive(s)
		})
	}
}

// BenchmarkTransfer compares the cost of a whole explicit step with each transfer on
// the snowball, on one thread, in nanoseconds per particle-step.
func BenchmarkTransfer(b *testing.B) {
	for _, transfer := range []Transfer{PICFLIP, APIC} {
		b.Run("transfer="+transfer.String(), func(b *testing.B) {
			s := snowballSceneWith(b, 1, transfer)
			for s.Time < 0.01 {
				if err := s.Step(s.stableDt()); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := s.Step(s.stableDt()); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.P.Len()), "ns/particle-step")
		})
	}
}

// BenchmarkRasterize measures stages 1 and 3 (the scatter) alone on the snowball.
func BenchmarkRasterize(b *testing.B) {
	s := snowballScene(b, 1)
	s.Prepare()
	s.binParticles()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.rasterize()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(s.P.Len()), "ns/particle")
}

// BenchmarkInterpolate measures the gather of one particle from a window of nodes.
func BenchmarkInterpolate(b *testing.B) {
	var nodes window[nodeVelocity]
	for i := 0; i < windowNodes; i++ {
		nodes[i/64][i/8%8][i%8] = nodeVelocity{v: geom.Vec3{float64(i), 1, 2}, dv: geom.Vec3{3, float64(i), 2}}
	}
	var ker kernel
	kernelAt(geom.Vec3{0.123, 0.456, 0.789}, 1/0.01, &ker)
	var acc geom.Vec3
	for i := 0; i < b.N; i++ {
		v, dv, g := interpolate(&nodes, &ker, i&3, (i>>2)&3, (i>>4)&3)
		acc = acc.Add(v).Add(dv)
		acc[0] += g[4]
	}
	_ = acc
}

// BenchmarkStages reports the wall time of each part of the step on the snowball, to
// see where the time goes and how each part scales with threads.
func BenchmarkStages(b *testing.B) {
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("threads=%d", threads), func(b *testing.B) {
			s := snowballScene(b, threads)
			for s.Time < 0.01 {
				if err := s.Step(s.stableDt()); err != nil {
					b.Fatal(err)
				}
			}
			var bin, raster, grid, particles time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				dt := s.stableDt()
				t0 := time.Now()
				s.binParticles()
				t1 := time.Now()
				s.rasterize()
				t2 := time.Now()
				s.updateGrid(dt, s.Time+dt)
				t3 := time.Now()
				if err := s.updateParticles(dt, s.Time+dt); err != nil {
					b.Fatal(err)
				}
				t4 := time.Now()
				s.Time += dt
				s.Steps++
				bin, raster, grid, particles = bin+t1.Sub(t0), raster+t2.Sub(t1), grid+t3.Sub(t2), particles+t4.Sub(t3)
			}
			ms := func(d time.Duration) float64 { return d.Seconds() * 1000 / float64(b.N) }
			b.ReportMetric(ms(bin), "bin-ms")
			b.ReportMetric(ms(raster), "rasterize-ms")
			b.ReportMetric(ms(grid), "grid-ms")
			b.ReportMetric(ms(particles), "particles-ms")
		})
	}
}

// BenchmarkColliderDrive measures the auto integrator's search for a collider driving
// the snow (colliderDrive), which runs once a frame when the semi-implicit integrator is
// predicted cheaper, on the benchmark snowball under a voxelized plate moving at
// 1 m/s, 1 cm above it (within its band of 3 voxels of 5 mm): every particle of a block that the plate may reach is sampled
// three times. Compare its ns per particle with BenchmarkStep's per particle-step: a
// frame takes tens to thousands of steps.
func BenchmarkColliderDrive(b *testing.B) {
	s := snowballScene(b, 1)
	s.Prepare()
	lo, hi := geom.Vec3{0.1, 0.314, 0.1}, geom.Vec3{0.7, 0.4, 0.7}
	key := voxelKeyframe(b, lo, hi, geom.Vec3{0, -1, 0}, s.cfg.H/2, 3)
	plate := &collider.DeformingLevelSet{}
	if err := plate.SetKeyframes(key, key, 0, 1.0/24); err != nil {
		b.Fatal(err)
	}
	s.colliders = append(s.colliders, plate)
	if s.colliderDrive(1.0/24) == 0 {
		b.Fatal("the plate does not drive the snow")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.colliderDrive(1.0 / 24)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*s.P.Len()), "ns/particle")
}
