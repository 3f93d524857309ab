package main

import (
	"path/filepath"
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

// benchmarkConvert reports frames per second converting one big frame on one thread
// (a farm or the frame-parallel loop gives each frame its own core).
func benchmarkConvert(b *testing.B, args ...string) {
	in := millionFrame(b)
	s, err := parseFlags(append(args, "-threads", "1", in, filepath.Join(b.TempDir(), "out.####")), nil)
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
func BenchmarkPLYASCII(b *testing.B)  { benchmarkConvert(b, "-to", "ply", "-velocity", "-ascii") }
func BenchmarkPRTHalf(b *testing.B) {
	benchmarkConvert(b, "-to", "prt", "-drop", "Mass,PlasticJ", "-half", "Velocity,Density")
}
func BenchmarkVDBDensity(b *testing.B) { benchmarkConvert(b, "-to", "vdb", "-velocity") }
func BenchmarkPNGPreview(b *testing.B) { benchmarkConvert(b, "-to", "png") }
