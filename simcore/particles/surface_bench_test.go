package particles

import (
	"testing"

	"snowtools/levelset/geom"
)

// benchmarkBlock surfaces a jittered block of side cells h (8 particles per cell) at
// dx = h with the default closing and a smoothing of one voxel.
func benchmarkBlock(b *testing.B, cells float64) {
	const h, rho = 0.02, 400.0
	side := cells * h
	pos, radius, _ := seedJittered(geom.Vec3{}, geom.Vec3{side, side, side}, h, rho, 5,
		func(geom.Vec3) bool { return true })
	b.ReportMetric(float64(len(radius)), "particles")
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := SurfaceLevelSet(pos, radius, SurfaceOptions{VoxelSize: h, Smoothing: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSurface1M: a block of 50^3 cells, 10^6 particles.
func BenchmarkSurface1M(b *testing.B) { benchmarkBlock(b, 50) }

// BenchmarkSurface64k: a block of 20^3 cells, 64 000 particles.
func BenchmarkSurface64k(b *testing.B) { benchmarkBlock(b, 20) }

// BenchmarkSurfaceSlab is export -to surface's level set on its benchmark frame: a
// jittered slab of 160 x 40 x 160 particles (1.02e6) at one particle per voxel
// (voxel h/2, export's default), default closing, a smoothing of one voxel.
func BenchmarkSurfaceSlab(b *testing.B) {
	const h, rho = 0.02, 400.0
	pos, radius, _ := seedJittered(geom.Vec3{}, geom.Vec3{1.6, 0.4, 1.6}, h, rho, 5,
		func(geom.Vec3) bool { return true })
	b.ReportMetric(float64(len(radius)), "particles")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SurfaceLevelSet(pos, radius, SurfaceOptions{VoxelSize: h / 2, Smoothing: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
