package mesher

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
)

// halfWidth is the band the tests' level sets have: 3 voxels each side, OpenVDB's
// default.
const halfWidth = 3

func meshShape(t *testing.T, s geom.Shape, bounds geom.Box) surface {
	t.Helper()
	g := levelSetOf(testTransform, s, bounds, halfWidth)
	m, err := Mesh(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return checkSurface(t, m)
}

// The sphere's area and volume converge to 4 pi r^2 and 4/3 pi r^3 as the radius
// grows in voxels. The tolerances are the measured errors rounded up (see the log).
func TestSphere(t *testing.T) {
	h := testTransform.VoxelSize
	for _, c := range []struct {
		voxels   float64 // radius in voxels
		areaTol  float64
		volumTol float64
	}{
		{5, 0.015, 0.025},    // measured -1.03%, -2.00%
		{20, 0.002, 0.003},   // measured -0.064%, -0.125%: the brief asks for 1%
		{50, 0.0005, 0.0005}, // measured -0.010%, -0.020%
	} {
		if c.voxels > 20 && testing.Short() {
			continue
		}
		r := c.voxels * h
		s := geom.Sphere{Center: geom.Vec3{0.11, 0.23, -0.07}, Radius: r}
		got := meshShape(t, s, s.Bounds())
		area, vol := relErr(got.area, 4*math.Pi*r*r), relErr(got.volume, 4*math.Pi*r*r*r/3)
		t.Logf("sphere r = %g voxels: %d vertices, %d triangles, area error %+.3f%%, volume error %+.3f%%, shortest edge %.2g h",
			c.voxels, got.vertices, got.triangles, 100*area, 100*vol, got.shortestEdge/h)
		if math.Abs(area) > c.areaTol || math.Abs(vol) > c.volumTol {
			t.Errorf("r = %g voxels: area error %.3f%%, volume error %.3f%%: want within %g%% and %g%%",
				c.voxels, 100*area, 100*vol, 100*c.areaTol, 100*c.volumTol)
		}
		if got.euler != 2 {
			t.Errorf("r = %g voxels: Euler characteristic %d, want 2", c.voxels, got.euler)
		}
	}
}
