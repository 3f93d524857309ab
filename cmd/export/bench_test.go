package main

import (
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
)

// millionFrame writes one frame of about a million particles (snowsim's channels) and
// returns its path.
func millionFrame(b *testing.B) string {
	b.Helper()
	dir := b.TempDir()
	ball := newBall(0.5, 1, 0.00322) // 0.2 m ball: 1.0e6 particles
	path := filepath.Join(dir, "snow.0001.prt")
	ball.writePRT(b, path, 1)
	return path
}

// benchConverter parses an export command line and returns its converter and frames.
func benchConverter(b *testing.B, args []string) (converter, []job) {
	b.Helper()
	s, err := parseFlags(args, nil)
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := selectFrames(s)
	if err != nil {
		b.Fatal(err)
	}
	conv, err := newConverter(s, jobs)
	if err != nil {
		b.Fatal(err)
	}
	return conv, jobs
}

// benchmarkConvert reports frames per second converting one big frame on one thread
// (a farm or the frame-parallel loop gives each frame its own core).
func benchmarkConvert(b *testing.B, args ...string) {
	conv, jobs := benchConverter(b, append(args, "-threads", "1", millionFrame(b), filepath.Join(b.TempDir(), "out.####")))
	var particles int
	b.ResetTimer()
	for b.Loop() {
		r := conv.convert(jobs[0], 1)
		if r.err != nil {
			b.Fatal(r.err)
		}
		particles = r.particles
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
	b.ReportMetric(float64(b.N)*float64(particles)/b.Elapsed().Seconds(), "particles/s")
}

func BenchmarkPLYBinary(b *testing.B) { benchmarkConvert(b, "-to", "ply", "-velocity") }
func BenchmarkPLYHoudini(b *testing.B) {
	benchmarkConvert(b, "-to", "ply", "-for", "houdini", "-velocity") // id, vx vy vz and pscale
}
func BenchmarkPLYASCII(b *testing.B) { benchmarkConvert(b, "-to", "ply", "-velocity", "-ascii") }
func BenchmarkPRTHalf(b *testing.B) {
	benchmarkConvert(b, "-to", "prt", "-drop", "Mass,PlasticJ", "-half", "Velocity,Density")
}
func BenchmarkVDBDensity(b *testing.B) { benchmarkConvert(b, "-to", "vdb", "-velocity") }
func BenchmarkPNGPreview(b *testing.B) { benchmarkConvert(b, "-to", "png") }

// slabFrame writes one frame of a resting slab of snow, 160 x 40 x 160 particles at
// snowsim's spacing h/2 (1.02e6 particles, h = 2 cm), and returns its path.
func slabFrame(b *testing.B) string {
	b.Helper()
	const nx, ny, nz = 160, 40, 160
	slab := &snowball{}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := range nx {
		for j := range ny {
			for k := range nz {
				for _, c := range []int{i, j, k} {
					x := (float64(c) + 0.5 + 0.3*(rng.Float64()-0.5)) * ballSpacing
					slab.pos = append(slab.pos, float32(x))
				}
				slab.vel = append(slab.vel, 0, 0, 0)
				slab.rho = append(slab.rho, 400)
				slab.mass = append(slab.mass, 400*ballSpacing*ballSpacing*ballSpacing)
				slab.id = append(slab.id, int32(len(slab.id)))
			}
		}
	}
	path := filepath.Join(b.TempDir(), "slab.0001.prt")
	slab.writePRT(b, path, 1)
	return path
}

// BenchmarkSurfaceMillion is -to surface on a million-particle frame with both cores,
// writing the level set with the density and the mesh: compare with OpenVDB's own
// pipeline, bench/openvdb_surface/run.sh.
func BenchmarkSurfaceMillion(b *testing.B) {
	dir := b.TempDir()
	conv, jobs := benchConverter(b, []string{"-to", "surface", slabFrame(b), filepath.Join(dir, "s.####.vdb"), filepath.Join(dir, "s.####.obj")})
	b.ResetTimer()
	for b.Loop() {
		if r := conv.convert(jobs[0], runtime.GOMAXPROCS(0)); r.err != nil {
			b.Fatal(r.err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "frames/s")
}
