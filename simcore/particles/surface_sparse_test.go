package particles

import (
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

// Sparse frames: spray and powder, particles far apart from each other.

const (
	sprayH   = 0.02  // the simulation's cell, metres; the voxel is sprayH / 2, export's default
	sprayRho = 400.0 // kg/m^3
)

// spray returns n particles at uniform random points of the cube [0, side]^3, each of
// the mass of one particle of a jittered seeding of cell sprayH (8 per cell), with the
// radius export gives it: SphereRadius(rho (h/2)^3, rho), half a voxel once scaled.
func spray(n int, side float64, seed uint64) (pos, radius []float32) {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := float32(SphereRadius(sprayRho*sprayH*sprayH*sprayH/8, sprayRho))
	for range n {
		for range 3 {
			pos = append(pos, float32(rng.Float64()*side))
		}
		radius = append(radius, r)
	}
	return pos, radius
}

// TestSparseUnionFollowsTheParticles: the union of spheres of isolated particles makes
// leaves only where a sphere comes within its margin, at most 8 a particle (its grown
// radius, 1.5 voxels, plus the margin of 2 spans at most two leaves along an axis);
// every leaf of the 3 x 3 x 3 block around each particle's, as it once made, would be
// 27. Measured: 500 particles in a 20 m box: 2,247 leaves (4.5 a particle).
func TestSparseUnionFollowsTheParticles(t *testing.T) {
	pos, radius := spray(500, 20, 2)
	dx := sprayH / 2
	spheres, err := newSphereBins(pos, radius, dx, DefaultRadiusScale, defaultClosing(radius, DefaultRadiusScale/dx))
	if err != nil {
		t.Fatal(err)
	}
	union := spheres.unionLevelSet(2)
	t.Logf("%d isolated particles: %d leaves, %d tiles", len(radius), union.LeafCount(), len(union.Tiles()))
	if union.LeafCount() > 8*len(radius) || len(union.Tiles()) != 0 {
		t.Errorf("%d isolated particles make %d leaves and %d tiles; want at most 8 leaves a particle and no tile",
			len(radius), union.LeafCount(), len(union.Tiles()))
	}
	for _, l := range union.Leaves() {
		below := false
		for _, v := range l.Values {
			below = below || v < union.Background
		}
		if !below {
			t.Fatalf("leaf %v holds only the background", l.Origin)
		}
	}
}

// benchmarkSurface runs SurfaceLevelSet at export's voxel with the default closing and
// a smoothing of one voxel, and reports the output's leaves.
func benchmarkSurface(b *testing.B, pos, radius []float32) {
	b.ReportMetric(float64(len(radius)), "particles")
	b.ReportAllocs()
	leaves := 0
	for b.Loop() {
		g, err := SurfaceLevelSet(pos, radius, SurfaceOptions{VoxelSize: sprayH / 2, Smoothing: 1})
		if err != nil {
			b.Fatal(err)
		}
		leaves = g.LeafCount()
	}
	b.ReportMetric(float64(leaves), "leaves")
}

// BenchmarkSurfaceSpray: 20,000 isolated particles in a 2 m box (the dilated bands of
// neighbours overlap: the box is 25^3 leaves).
func BenchmarkSurfaceSpray(b *testing.B) {
	pos, radius := spray(20000, 2, 1)
	benchmarkSurface(b, pos, radius)
}

// BenchmarkSurfaceSpraySparse: 2,000 isolated particles in a 20 m box, each alone.
func BenchmarkSurfaceSpraySparse(b *testing.B) {
	pos, radius := spray(2000, 20, 1)
	benchmarkSurface(b, pos, radius)
}

// BenchmarkSurfaceBallAndSpray: a jittered ball of radius 0.3 m (113,000 particles)
// in the middle of 20,000 isolated particles in a 2 m box.
func BenchmarkSurfaceBallAndSpray(b *testing.B) {
	c := geom.Vec3{1, 1, 1}
	pos, radius, _ := seedJittered(geom.Vec3{0.7, 0.7, 0.7}, geom.Vec3{1.3, 1.3, 1.3}, sprayH, sprayRho, 4,
		func(p geom.Vec3) bool { return p.Sub(c).Norm() < 0.3 })
	sp, sr := spray(20000, 2, 1)
	benchmarkSurface(b, append(pos, sp...), append(radius, sr...))
}
