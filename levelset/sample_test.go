package levelset

import (
	"math"
	"testing"

	"snowtools/levelset/geom"
)

// Dyadic voxel size and origin, and small integer coefficients: the linear
// functions below are stored exactly in float32, so that the only error left is
// that of the double-precision arithmetic of the sampler.
var testTransform = Transform{VoxelSize: 0.25, Origin: geom.Vec3{-1.5, 0.75, 2}}

// randPoint returns a world point in the index box [-r, r)^3 of tr.
func randPoint(rng interface{ Float64() float64 }, tr Transform, r float64) geom.Vec3 {
	x := geom.Vec3{rng.Float64(), rng.Float64(), rng.Float64()}.Scale(2 * r).Sub(geom.Vec3{r, r, r})
	return x.Scale(tr.VoxelSize).Add(tr.Origin)
}

// fillBox sets every voxel of the index box [-r, r]^3 to f at its centre.
func fillBox[T Value](g *Grid[T], r int32, f func(geom.Vec3) T) {
	for i := -r; i <= r; i++ {
		for j := -r; j <= r; j++ {
			for k := -r; k <= r; k++ {
				c := Coord{i, j, k}
				g.Set(c, f(g.IndexToWorld(c)))
			}
		}
	}
}

// Trilinear interpolation is exact for linear functions, and so is its gradient:
// f(p) = a . p + b is reproduced, with grad f = a, anywhere (negative indices, cell
// faces, leaf boundaries).
func TestFloatSamplerIsExactForLinearFunctions(t *testing.T) {
	a, b := geom.Vec3{3, -2, 0.5}, 1.25
	lin := func(p geom.Vec3) float64 { return a.Dot(p) + b }
	g := NewGrid[float32](testTransform, 0)
	fillBox(g, 20, func(p geom.Vec3) float32 { return float32(lin(p)) })
	s := NewFloatSampler(g)
	rng := testRand()
	points := []geom.Vec3{
		g.IndexToWorld(Coord{-1, -8, 7}), // a voxel centre
		g.IndexToWorld(Coord{-9, 0, 8}),  // on a leaf corner
		testTransform.Origin.Add(geom.Vec3{-0.125, 0.0625, 0.999}),
	}
	for range 5000 {
		points = append(points, randPoint(rng, testTransform, 19))
	}
	for _, p := range points {
		f, grad := s.SampleAndGradient(p)
		if math.Abs(f-lin(p)) > 1e-12 || math.Abs(s.Sample(p)-f) > 0 {
			t.Fatalf("f(%v) = %.15g, want %.15g", p, f, lin(p))
		}
		if !near(grad, a, 1e-11) || s.Gradient(p) != grad {
			t.Fatalf("grad f(%v) = %v, want %v", p, grad, a)
		}
	}
}

func TestVec3SamplerIsExactForLinearFields(t *testing.T) {
	field := func(p geom.Vec3) geom.Vec3 { return geom.Vec3{2*p[0] - p[1] + 1, p[2] + 0.5, -p[0] + 4*p[1] - 3*p[2]} }
	g := NewGrid[Vec3f](testTransform, Vec3f{})
	fillBox(g, 20, func(p geom.Vec3) Vec3f { return Vec3fOf(field(p)) })
	s := NewVec3Sampler(g)
	rng := testRand()
	for range 5000 {
		p := randPoint(rng, testTransform, 19)
		if v := s.Sample(p); !near(v, field(p), 1e-11) {
			t.Fatalf("v(%v) = %v, want %v", p, v, field(p))
		}
	}
}

// A sphere's signed distance stored at voxel centres is interpolated to within the
// trilinear error, sum_a h^2/8 |d2 phi/dx_a^2| <= 3h^2/(8(r-h)) at distance r from
// the centre (the cell reaches r - h), plus float32 rounding; the gradient approximates the normal to O(h).
func TestFloatSamplerInterpolatesASphere(t *testing.T) {
	tr := Transform{VoxelSize: 0.02, Origin: geom.Vec3{-0.3, 0.1, 0.05}}
	sphere := geom.Sphere{Center: geom.Vec3{0.01, 0.2, -0.03}, Radius: 0.5}
	g := narrowBandSphere(tr, sphere, 3)
	h := tr.VoxelSize
	s := NewFloatSampler(g)
	rng := testRand()
	tested := 0
	for range 40000 {
		p := randPoint(rng, Transform{VoxelSize: tr.VoxelSize, Origin: sphere.Center}, 30)
		phi, normal := sphere.Distance(p)
		if math.Abs(phi) > h { // keep to where all 8 corners are in the band
			continue
		}
		tested++
		r := phi + sphere.Radius
		f, grad := s.SampleAndGradient(p)
		if err := math.Abs(f - phi); err > 3*h*h/(8*(r-h))+1e-6 {
			t.Fatalf("at %v: f = %g, phi = %g: error %g (h = %g)", p, f, phi, err, h)
		}
		if !near(grad, normal, 2*h/r) {
			t.Fatalf("at %v: grad f = %v, normal %v", p, grad, normal)
		}
	}
	if tested < 1000 {
		t.Fatalf("only %d points near the surface", tested)
	}
}

// locate writes out Transform.WorldToIndex: it must find the same index point, to
// the bit, and split it into floor and fraction.
func TestLocateAgreesWithWorldToIndex(t *testing.T) {
	rng := testRand()
	for _, tr := range []Transform{testTransform, {VoxelSize: 0.013, Origin: geom.Vec3{-7.1, 3.3, 0.01}}} {
		for range 10000 {
			p := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Scale(50 * tr.VoxelSize)
			x := tr.WorldToIndex(p)
			var c cell
			if !c.locate(&tr, &p) {
				t.Fatalf("locate(%v) failed", p)
			}
			for a := range 3 {
				if float64(c.base[a]) != math.Floor(x[a]) || c.t[a] != x[a]-math.Floor(x[a]) {
					t.Fatalf("locate(%v): base %v t %v; WorldToIndex gives %v", p, c.base, c.t, x)
				}
			}
		}
	}
}

// Inactive voxels count with their stored value, as in OpenVDB's BoxSampler: next
// to a single active voxel the background is blended in.
func TestSamplerBlendsInactiveValues(t *testing.T) {
	g := NewGrid[float32](unitTransform, 10)
	g.Set(Coord{-1, 0, 0}, 2)
	g.SetTile(Tile[float32]{Origin: Coord{0, -8, -8}, Log2: LeafLog2, Value: 6}) // inactive
	s := NewFloatSampler(g)
	cases := []struct {
		p    geom.Vec3
		want float64
	}{
		{geom.Vec3{-1, 0, 0}, 2},
		{geom.Vec3{-1, 0.5, 0}, 6},        // halfway to a background voxel
		{geom.Vec3{-0.75, 0, 0}, 4},       // a quarter of the way to one
		{geom.Vec3{0.5, -0.5, -0.5}, 9},   // a quarter in the inactive tile, the rest background
		{geom.Vec3{0.25, -3, -3}, 6},      // inside the tile
		{geom.Vec3{-1.5, 0.5, 0.5}, 9},    // one corner of eight is the active voxel
		{geom.Vec3{100, 100, 100}, 10},    // far away
		{geom.Vec3{3e10, 0, 0}, 10},       // outside the index range
		{geom.Vec3{math.NaN(), 0, 0}, 10}, // nowhere
	}
	for _, c := range cases {
		if f := s.Sample(c.p); math.Abs(f-c.want) > 1e-12 {
			t.Errorf("f(%v) = %g, want %g", c.p, f, c.want)
		}
	}
	if gr := s.Gradient(geom.Vec3{1e12, 5, 5}); gr != (geom.Vec3{}) {
		t.Errorf("gradient outside the index range: %v", gr)
	}
}

// narrowBandSphere returns a level set of s: the signed distance at the voxels
// within halfWidth voxels of the surface, active, and halfWidth h as the
// background. (Unlike a full level set it leaves the inside as background too: the
// tests and benchmarks only read the band.)
func narrowBandSphere(tr Transform, s geom.Sphere, halfWidth float64) *FloatGrid {
	w := halfWidth * tr.VoxelSize
	g := NewGrid(tr, float32(w))
	centre := tr.WorldToIndex(s.Center)
	reach := int32(s.Radius/tr.VoxelSize+halfWidth) + 2
	lo := Coord{int32(centre[0]) - reach, int32(centre[1]) - reach, int32(centre[2]) - reach}
	for i := range 2 * reach {
		for j := range 2 * reach {
			for k := range 2 * reach {
				c := lo.Add(Coord{i, j, k})
				if phi, _ := s.Distance(tr.IndexToWorld(c)); math.Abs(phi) < w {
					g.Set(c, float32(phi))
				}
			}
		}
	}
	return g
}

// near reports whether a and b lie within tol of each other.
func near(a, b geom.Vec3, tol float64) bool { return a.Sub(b).Norm() <= tol }
