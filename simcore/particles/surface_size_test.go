package particles

import (
	"errors"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// Particles at their real size: radius SphereRadius(m, rho) of the mass of one particle
// of a jittered seeding of cell h (8 per cell), the default radius scale (half a
// particle spacing, h/4), at export's voxel h/2 and smoothing (one voxel), with the
// default closing (one voxel). A particle's scaled radius is then half a voxel.

// clump returns n^3 particles on a lattice of spacing h/2 (their seeding's) centred at
// c, and their volume N m / rho.
func clump(n int, c geom.Vec3) (pos, radius []float32, volume float64) {
	d := testH / 2
	r := float32(SphereRadius(testRho*d*d*d, testRho))
	for i := range n {
		for j := range n {
			for k := range n {
				p := c.Add(geom.Vec3{float64(i), float64(j), float64(k)}.Scale(d)).Sub(geom.Vec3{1, 1, 1}.Scale(d * float64(n-1) / 2))
				pos = append(pos, float32(p[0]), float32(p[1]), float32(p[2]))
				radius = append(radius, r)
			}
		}
	}
	return pos, radius, float64(n*n*n) * d * d * d
}

// TestRealSizeClumps: an isolated particle and a 2 x 2 x 2 clump are below what the
// voxels resolve and vanish (no voxel inside: the grown sphere of 1.5 voxels, smoothed
// by sigma^2 / (R + D) and eroded by D, and the clump's cube of 2 voxels, smoothed
// from all sides, close to nothing). A cube of n^3 particles, n voxels a side, loses
// the volume of its rounded edges and corners, a fraction that falls as 1/n.
// Measured (volume of N m / rho; without smoothing, then the default smoothing of one
// voxel): n = 8: 0.942, 0.840; n = 12: 0.969, 0.921; n = 16: 0.979, 0.952. (A sphere
// of the same particles keeps its volume within 2%: TestSurfaceOfABall.)
func TestRealSizeClumps(t *testing.T) {
	opt := SurfaceOptions{VoxelSize: testH / 2, Smoothing: 1}
	centre := geom.Vec3{0.013, -0.021, 0.037} // off the voxel lattice
	for _, n := range []int{1, 2} {
		pos, radius, _ := clump(n, centre)
		g := surfaceOf(t, pos, radius, opt)
		inside := 0
		for _, l := range g.Leaves() {
			for _, v := range l.Values {
				if v < 0 {
					inside++
				}
			}
		}
		t.Logf("clump of %d^3: %d leaves, %d voxels inside", n, g.LeafCount(), inside)
		if inside != 0 || len(g.Tiles()) != 0 {
			t.Errorf("clump of %d^3 particles at dx = h/2: %d voxels inside, %d tiles; want it gone", n, inside, len(g.Tiles()))
		}
	}
	for _, c := range []struct {
		n      int
		lo, hi float64 // the volume's bounds, of N m / rho
	}{{8, 0.80, 0.88}, {16, 0.93, 0.98}} {
		pos, radius, volume := clump(c.n, centre)
		ratio := enclosedVolume(surfaceOf(t, pos, radius, opt)) / volume
		t.Logf("clump of %d^3: volume %.4f of N m / rho", c.n, ratio)
		if ratio < c.lo || ratio > c.hi {
			t.Errorf("clump of %d^3 particles: volume %.4f of N m / rho, want %g to %g", c.n, ratio, c.lo, c.hi)
		}
	}
}

// TestGrownRadiusTooLarge: a particle whose grown radius exceeds MaxRadiusVoxels is
// refused with an error that says what to change.
func TestGrownRadiusTooLarge(t *testing.T) {
	_, err := SurfaceLevelSet([]float32{0, 0, 0}, []float32{0.5}, SurfaceOptions{VoxelSize: 0.01})
	var pe *ParticleError
	if !errors.As(err, &pe) || pe.Index != 0 {
		t.Fatalf("error %v, want a ParticleError for particle 0", err)
	}
	for _, what := range []string{"VoxelSize", "RadiusScale", "Closing"} {
		if !strings.Contains(err.Error(), what) {
			t.Errorf("error %q does not name %s", err, what)
		}
	}
}
