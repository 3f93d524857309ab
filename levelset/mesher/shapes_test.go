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

// A torus has one handle: Euler characteristic 0. Its area is 4 pi^2 R r and its
// volume 2 pi^2 R r^2.
func TestTorus(t *testing.T) {
	h := testTransform.VoxelSize
	tor := torus{Center: geom.Vec3{0.05, -0.1, 0.02}, Ring: 16 * h, Tube: 6 * h}
	reach := tor.Ring + tor.Tube
	bounds := geom.Box{Min: tor.Center.Sub(geom.Vec3{reach, tor.Tube, reach}), Max: tor.Center.Add(geom.Vec3{reach, tor.Tube, reach})}
	got := meshShape(t, tor, bounds)
	area := relErr(got.area, 4*math.Pi*math.Pi*tor.Ring*tor.Tube)
	vol := relErr(got.volume, 2*math.Pi*math.Pi*tor.Ring*tor.Tube*tor.Tube)
	t.Logf("torus R = 16, r = 6 voxels: %d triangles, area error %+.3f%%, volume error %+.3f%%", got.triangles, 100*area, 100*vol)
	if got.euler != 0 {
		t.Errorf("Euler characteristic %d, want 0", got.euler)
	}
	if math.Abs(area) > 0.005 || math.Abs(vol) > 0.01 {
		t.Errorf("area error %.3f%%, volume error %.3f%%", 100*area, 100*vol)
	}
}

// Two spheres a fraction of a voxel apart stay two closed surfaces (Euler
// characteristic 2 each); overlapping, they become one, whose volume is the two
// balls less their lens.
func TestTwoSpheres(t *testing.T) {
	h := testTransform.VoxelSize
	r := 10 * h
	for _, c := range []struct {
		name  string
		apart float64 // distance between the centres
		euler int
	}{
		{"0.4 voxel gap", 2*r + 0.4*h, 4},
		{"overlapping by 3 voxels", 2*r - 3*h, 2},
	} {
		a := geom.Sphere{Center: geom.Vec3{0, 0, 0}, Radius: r}
		b := geom.Sphere{Center: geom.Vec3{c.apart, 0.013, 0}, Radius: r}
		got := meshShape(t, union{a, b}, a.Bounds().Union(b.Bounds()))
		// The lens of two balls of radius r at distance d apart: pi (2r - d)^2 (d + 4r) / 12.
		lens := 0.0
		if d := c.apart; d < 2*r {
			lens = math.Pi * (2*r - d) * (2*r - d) * (d + 4*r) / 12
		}
		vol := relErr(got.volume, 2*4*math.Pi*r*r*r/3-lens)
		t.Logf("%s: %d triangles, Euler characteristic %d, volume error %+.3f%%", c.name, got.triangles, got.euler, 100*vol)
		if got.euler != c.euler {
			t.Errorf("%s: Euler characteristic %d, want %d", c.name, got.euler, c.euler)
		}
		if math.Abs(vol) > 0.01 {
			t.Errorf("%s: volume error %.3f%%", c.name, 100*vol)
		}
	}
}

// A box has sharp edges and corners. Sampled at voxel centres and interpolated
// linearly, the distance rounds them off within about a voxel, which costs area
// along the edges: the error falls as the box grows in voxels.
func TestBox(t *testing.T) {
	h := testTransform.VoxelSize
	for _, c := range []struct {
		scale           float64
		areaTol, volTol float64 // the measured errors, rounded up
	}{
		{1, 0.04, 0.015},   // 20 x 12 x 8 voxels: measured -3.55%, -1.30%
		{3, 0.015, 0.0025}, // 60 x 36 x 24 voxels: measured -1.30%, -0.18%
	} {
		box := geom.Box{Min: geom.Vec3{-0.5, -0.3, -0.2}.Scale(c.scale), Max: geom.Vec3{0.5, 0.3, 0.2}.Scale(c.scale)}
		box.Min[0] += 0.013 // a face off the voxel centres' planes
		size := box.Max.Sub(box.Min)
		got := meshShape(t, box, box)
		area := relErr(got.area, 2*(size[0]*size[1]+size[1]*size[2]+size[2]*size[0]))
		vol := relErr(got.volume, size[0]*size[1]*size[2])
		t.Logf("box %.3g voxels: %d triangles, area error %+.3f%%, volume error %+.3f%%", size.Scale(1/h), got.triangles, 100*area, 100*vol)
		if got.euler != 2 {
			t.Errorf("Euler characteristic %d, want 2", got.euler)
		}
		if math.Abs(area) > c.areaTol || math.Abs(vol) > c.volTol {
			t.Errorf("box %.3g voxels: area error %.3f%%, volume error %.3f%%", size.Scale(1/h), 100*area, 100*vol)
		}
	}
}

// A slab thinner than two voxels still closes: its two faces are meshed from the
// same one or two layers of inside voxels. It comes out thinner than it is: the
// distance has a kink midway between the faces, which the samples of a slab
// under two voxels thick miss (a slab 1 voxel thick whose inside voxel is 0.2 h
// below its top face has crossings at 0.5 h below and 0.2 h above it: 0.7 h).
func TestThinSlab(t *testing.T) {
	h := testTransform.VoxelSize
	for _, c := range []struct{ thick, volTol float64 }{
		{1, 0.40},   // measured -37.9%
		{1.5, 0.12}, // measured -10.4%
		{2, 0.06},   // measured -5.0%
	} {
		thick := c.thick
		slab := geom.Box{Min: geom.Vec3{-0.4, 0.01, -0.3}, Max: geom.Vec3{0.4, 0.01 + thick*h, 0.3}}
		size := slab.Max.Sub(slab.Min)
		got := meshShape(t, slab, slab)
		vol := relErr(got.volume, size[0]*size[1]*size[2])
		t.Logf("slab %g voxels thick: %d triangles, volume error %+.3f%%", thick, got.triangles, 100*vol)
		if got.euler != 2 {
			t.Errorf("%g voxels: Euler characteristic %d, want 2", thick, got.euler)
		}
		if math.Abs(vol) > c.volTol {
			t.Errorf("%g voxels: volume error %.3f%%", thick, 100*vol)
		}
	}
}
