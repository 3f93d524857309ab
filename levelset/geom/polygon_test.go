package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// polygonMesh returns the corners of a closed curve r(theta) sampled at n angles,
// in the plane through the origin spanned by (1, 0, 0) and tilt, counter-clockwise
// seen from their cross product.
func polygonMesh(n int, radius func(i int, theta float64) float64, tilt Vec3) ([]Vec3, []int32) {
	u := Vec3{1, 0, 0}
	v := tilt.Unit()
	positions := make([]Vec3, n)
	corners := make([]int32, n)
	for i := range n {
		theta := 2 * math.Pi * float64(i) / float64(n)
		r := radius(i, theta)
		positions[i] = u.Scale(r * math.Cos(theta)).Add(v.Scale(r * math.Sin(theta)))
		corners[i] = int32(i)
	}
	return positions, corners
}

// triangulationCheck measures a triangulation of a simple polygon: the area of its
// triangles against the polygon's (shoelace, in the plane normal to w), whether
// every triangle turns the polygon's way, whether some corner lies strictly inside
// a triangle (checked for sample triangles only, as a brute force), and the sum of
// the triangles' longest edges (the length a voxelizer bins).
type triangulationCheck struct {
	areaError   float64 // |sum of areas - polygon area| / polygon area
	backwards   int     // triangles turning against the polygon
	cornerInTri int     // sample triangles holding a corner strictly inside
	edgeSum     float64
}

func checkTriangulation(t *testing.T, positions []Vec3, corners []int32, tris [][3]int32, samples int) triangulationCheck {
	t.Helper()
	if len(tris) != len(corners)-2 {
		t.Fatalf("%d triangles for %d corners", len(tris), len(corners))
	}
	var area Vec3
	for i := range corners {
		area = area.Add(positions[corners[i]].Cross(positions[corners[(i+1)%len(corners)]]))
	}
	w := area.Unit()
	var c triangulationCheck
	sum := 0.0
	rng := rand.New(rand.NewPCG(3, 4))
	for k, tri := range tris {
		a, b, cc := positions[tri[0]], positions[tri[1]], positions[tri[2]]
		n := b.Sub(a).Cross(cc.Sub(a)).Dot(w)
		if n < -1e-12*area.Norm() {
			c.backwards++
		}
		sum += n
		c.edgeSum += max(b.Sub(a).Norm(), cc.Sub(b).Norm(), a.Sub(cc).Norm())
		if samples > 0 && rng.IntN(len(tris)) < samples || len(tris) < 50 {
			for _, p := range corners {
				q := positions[p]
				if p == tri[0] || p == tri[1] || p == tri[2] {
					continue
				}
				if b.Sub(a).Cross(q.Sub(a)).Dot(w) > 1e-12 && cc.Sub(b).Cross(q.Sub(b)).Dot(w) > 1e-12 && a.Sub(cc).Cross(q.Sub(cc)).Dot(w) > 1e-12 {
					c.cornerInTri++
					t.Logf("triangle %d %v holds corner %d", k, tri, p)
					break
				}
			}
		}
	}
	c.areaError = math.Abs(sum-area.Norm()) / area.Norm()
	return c
}

// Concave polygons, which a fan would cover wrongly: triangles that cover the
// polygon once (their areas add up to its area, none turns backwards, none holds a
// corner).
func TestTriangulateConcavePolygons(t *testing.T) {
	tilt := Vec3{0, 0.6, 0.8}
	cases := []struct {
		name   string
		n      int
		radius func(i int, theta float64) float64
	}{
		{"star of 12", 12, func(i int, _ float64) float64 { return 1 - 0.6*float64(i%2) }},
		{"wobbly 200", 200, func(_ int, th float64) float64 { return 1 + 0.5*math.Sin(7*th) }},
		{"comb 301", 301, func(i int, th float64) float64 { return 1 + 0.9*float64(i%3%2) }},
	}
	for _, tc := range cases {
		positions, corners := polygonMesh(tc.n, tc.radius, tilt)
		// Start the polygon at a reflex corner, where a fan goes wrong.
		corners = append(corners[1:], corners[0])
		tris := TriangulatePolygon(positions, corners, nil)
		c := checkTriangulation(t, positions, corners, tris, len(tris))
		if c.areaError > 1e-12 || c.backwards > 0 || c.cornerInTri > 0 {
			t.Errorf("%s: area off by %.3g, %d triangles backwards, %d hold a corner", tc.name, c.areaError, c.backwards, c.cornerInTri)
		}
	}
	// An L: a fan from the reflex corner is right, from the next one it is not.
	l := []Vec3{{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 0}, {1, 2, 0}, {0, 2, 0}, {0, 1.5, 0}}
	corners := []int32{3, 4, 5, 6, 0, 1, 2}
	c := checkTriangulation(t, l, corners, TriangulatePolygon(l, corners, nil), 100)
	if c.areaError > 1e-12 || c.backwards > 0 || c.cornerInTri > 0 {
		t.Errorf("L: area off by %.3g, %d triangles backwards, %d hold a corner", c.areaError, c.backwards, c.cornerInTri)
	}
}

// Polygons of up to FanCorners corners are fans, whatever their shape; larger ones
// that are not simple get triangles all the same, n - 2 of them in the polygon's
// winding where it has one.
func TestTriangulateFansAndFallbacks(t *testing.T) {
	square := []Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}}
	got := TriangulatePolygon(square, []int32{4, 0, 1, 2, 3}, nil)
	want := [][3]int32{{4, 0, 1}, {4, 1, 2}, {4, 2, 3}}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("pentagon: %v, want the fan %v", got, want)
	}
	// A figure of eight, a polygon wound three times over the same 9 corners, and
	// one without area.
	eight, corners := polygonMesh(40, func(int, float64) float64 { return 1 }, Vec3{0, 1, 0})
	for i := range 20 {
		eight[i+20][0] += 2.5 // the second half of the circle moved past the first
	}
	thrice := make([]int32, 27)
	for i := range thrice {
		thrice[i] = int32(i % 9)
	}
	line := []Vec3{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}}
	for _, tc := range []struct {
		name      string
		positions []Vec3
		corners   []int32
	}{
		{"figure of eight", eight, corners},
		{"wound three times", eight[:9], thrice},
		{"flat", line, []int32{0, 1, 2, 3, 4, 5}},
	} {
		tris := TriangulatePolygon(tc.positions, tc.corners, nil)
		if len(tris) != len(tc.corners)-2 {
			t.Errorf("%s: %d triangles for %d corners", tc.name, len(tris), len(tc.corners))
		}
	}
}

// 450,000 corners, convex and star-shaped: triangles as local as a balanced
// triangulation's, the sum of their longest edges within a few times the perimeter
// times log2 of the corners (a fan's is 450,000 times the diameter).
func TestTriangulateHugePolygonsLocally(t *testing.T) {
	n := 450_000
	if testing.Short() {
		n = 45_000
	}
	for _, tc := range []struct {
		name   string
		radius func(i int, theta float64) float64
	}{
		{"convex", func(int, float64) float64 { return 1 }},
		{"star", func(i int, _ float64) float64 { return 1 - 0.5*float64(i%2) }},
	} {
		positions, corners := polygonMesh(n, tc.radius, Vec3{0.1, 1, 0.3})
		tris := TriangulatePolygon(positions, corners, nil)
		c := checkTriangulation(t, positions, corners, tris, 20)
		perimeter := 0.0
		for i := range corners {
			perimeter += positions[corners[i]].Sub(positions[corners[(i+1)%n]]).Norm()
		}
		ratio := c.edgeSum / (perimeter * math.Log2(float64(n)))
		t.Logf("%s of %d corners: longest edges sum to %.3g perimeters x log2 n", tc.name, n, ratio)
		if c.areaError > 1e-9 || c.backwards > 0 || c.cornerInTri > 0 || ratio > 2 {
			t.Errorf("%s: area off by %.3g, %d triangles backwards, %d hold a corner, edges %.3g perimeters x log2 n", tc.name, c.areaError, c.backwards, c.cornerInTri, ratio)
		}
	}
}
