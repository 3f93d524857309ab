package particles

import (
	"math/rand/v2"
	"testing"
)

// spray returns n particles at uniform random points of a cube of side metres, each
// of the mass of one sub-cell of a jittered seeding of cell h at density rho (8 per
// cell), so with the radius export gives it: SphereRadius(rho (h/2)^3, rho).
func spray(n int, side, h, rho float64, seed uint64) (pos, radius []float32) {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := float32(SphereRadius(rho*h*h*h/8, rho))
	for range n {
		for range 3 {
			pos = append(pos, float32(rng.Float64()*side))
		}
		radius = append(radius, r)
	}
	return pos, radius
}

// BenchmarkSurfaceSpray: 20,000 isolated particles in a 2 m box at export's voxel
// (h/2), default closing, a smoothing of one voxel.
func BenchmarkSurfaceSpray(b *testing.B) {
	const h, rho = 0.02, 400.0
	pos, radius := spray(2000, 2, h, rho, 1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SurfaceLevelSet(pos, radius, SurfaceOptions{VoxelSize: h / 2, Smoothing: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
