package voxelize

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/levelset/sharedtest"
)

// spotName is the closed 5,856-triangle test mesh in ../shared/assets.
const spotName = "spot_triangulated.obj"

// loadSpot returns the spot mesh, parsed once. Without it the test or benchmark skips
// with a message, or fails when SNOWTOOLS_REQUIRE_SHARED is set (package sharedtest).
func loadSpot(tb testing.TB) *geom.Mesh {
	tb.Helper()
	sharedtest.Asset(tb, spotName)
	m, err := spotOnce()
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

var spotOnce = sync.OnceValues(func() (*geom.Mesh, error) {
	path, err := sharedtest.Find("assets", spotName)
	if err != nil {
		return nil, err
	}
	return readTestOBJ(path)
})

// readTestOBJ is a test-only reader of the `v x y z` and `f a b c` lines of an
// OBJ file (face corners may carry /vt/vn suffixes, which it ignores; negative
// indices count from the end). Package formats/obj is the real reader; levelset
// must not import it.
func readTestOBJ(path string) (*geom.Mesh, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &geom.Mesh{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "v":
			if len(fields) < 4 {
				return nil, fmt.Errorf("%s:%d: vertex with %d coordinates", path, line, len(fields)-1)
			}
			var p geom.Vec3
			for k := range 3 {
				if p[k], err = strconv.ParseFloat(fields[1+k], 64); err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, line, err)
				}
			}
			m.Positions = append(m.Positions, p)
		case "f":
			if len(fields) != 4 {
				return nil, fmt.Errorf("%s:%d: face with %d corners, want 3", path, line, len(fields)-1)
			}
			var t [3]int32
			for k := range 3 {
				s, _, _ := strings.Cut(fields[1+k], "/")
				i, err := strconv.Atoi(s)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, line, err)
				}
				if i < 0 {
					i += len(m.Positions) + 1
				}
				t[k] = int32(i - 1)
			}
			m.Triangles = append(m.Triangles, t)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return m, m.Validate()
}

// randomSoup returns n random triangles in the unit cube, a fifth of them
// degenerate in some way (needles, slivers, collinear corners, repeated
// corners), without shared vertices.
func randomSoup(rng *rand.Rand, n int) *geom.Mesh {
	m := &geom.Mesh{}
	rp := func() geom.Vec3 { return geom.Vec3{rng.Float64(), rng.Float64(), rng.Float64()} }
	for range n {
		a, b, c := randomTriangle(rng, rp, -1)
		i := int32(len(m.Positions))
		m.Positions = append(m.Positions, a, b, c)
		m.Triangles = append(m.Triangles, [3]int32{i, i + 1, i + 2})
	}
	return m
}

// triangleKinds names the shapes randomTriangle makes, by its kind argument.
var triangleKinds = [...]string{"generic", "needle", "collinear", "almost collinear", "two corners equal", "point", "sliver"}

// randomTriangle returns a triangle from corners drawn by rp, of shape kind (an
// index into triangleKinds), or of a random kind when kind < 0: generic half the
// time, else one of the degenerate shapes.
func randomTriangle(rng *rand.Rand, rp func() geom.Vec3, kind int) (a, b, c geom.Vec3) {
	a, b, c = rp(), rp(), rp()
	if kind < 0 {
		kind = max(0, rng.IntN(2*len(triangleKinds))-len(triangleKinds)+1)
	}
	switch kind {
	case 1: // needle: two corners very close
		c = b.Add(c.Sub(b).Scale(1e-7))
	case 2: // collinear
		c = a.Add(b.Sub(a).Scale(rng.Float64()*3 - 1))
	case 3: // almost collinear
		c = a.Add(b.Sub(a).Scale(rng.Float64()*3 - 1)).Add(rp().Scale(1e-9))
	case 4: // two corners equal
		b = a
	case 5: // a point
		b, c = a, a
	case 6: // sliver: one corner close to the opposite edge
		c = a.Add(b.Sub(a).Scale(rng.Float64())).Add(c.Sub(a).Scale(1e-6))
	}
	// Rotate the corners (keeping the orientation) so that every degenerate
	// shape shows up at every corner position.
	for range rng.IntN(3) {
		a, b, c = b, c, a
	}
	return a, b, c
}

// bruteNearest is the definition Nearest must reproduce: the smallest Dist2 and,
// among equal ones, the lowest index.
func bruteNearest(m *geom.Mesh, p geom.Vec3, maxDist float64) (int32, ClosestPoint, bool) {
	best, bestTri, ok := ClosestPoint{Dist2: maxDist * maxDist}, int32(-1), false
	for t, tr := range m.Triangles {
		q := ClosestOnTriangle(p, m.Positions[tr[0]], m.Positions[tr[1]], m.Positions[tr[2]])
		if q.Dist2 < best.Dist2 || (!ok && q.Dist2 == best.Dist2) {
			best, bestTri, ok = q, int32(t), true
		}
	}
	if !ok {
		return -1, ClosestPoint{}, false
	}
	return bestTri, best, ok
}

// surfacePoints returns n points on m (area-weighted random triangle, uniform
// point on it) moved by a random offset of length up to maxOffset.
func surfacePoints(rng *rand.Rand, m *geom.Mesh, n int, maxOffset float64) []geom.Vec3 {
	cum := make([]float64, len(m.Triangles))
	var total float64
	for t, tr := range m.Triangles {
		a, b, c := m.Positions[tr[0]], m.Positions[tr[1]], m.Positions[tr[2]]
		total += b.Sub(a).Cross(c.Sub(a)).Norm()
		cum[t] = total
	}
	pts := make([]geom.Vec3, n)
	for i := range pts {
		x := rng.Float64() * total
		lo, hi := 0, len(cum)-1
		for lo < hi {
			if mid := (lo + hi) / 2; cum[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		tr := m.Triangles[lo]
		u, v := rng.Float64(), rng.Float64()
		if u+v > 1 {
			u, v = 1-u, 1-v
		}
		a, b, c := m.Positions[tr[0]], m.Positions[tr[1]], m.Positions[tr[2]]
		p := a.Add(b.Sub(a).Scale(u)).Add(c.Sub(a).Scale(v))
		var d geom.Vec3
		for {
			d = geom.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1}
			if d.Dot(d) <= 1 {
				break
			}
		}
		pts[i] = p.Add(d.Scale(maxOffset))
	}
	return pts
}

// boxPoints returns n uniform random points in the mesh's bounding box grown by
// grow times its size on every side.
func boxPoints(rng *rand.Rand, m *geom.Mesh, n int, grow float64) []geom.Vec3 {
	lo, hi := m.Bounds()
	size := hi.Sub(lo)
	lo = lo.Sub(size.Scale(grow))
	size = size.Scale(1 + 2*grow)
	pts := make([]geom.Vec3, n)
	for i := range pts {
		pts[i] = lo.Add(geom.Vec3{rng.Float64() * size[0], rng.Float64() * size[1], rng.Float64() * size[2]})
	}
	return pts
}

// TestClosestOnTriangleAgainstSampling checks ClosestOnTriangle on random
// triangles of every shape in triangleKinds: the answer's Dist2 is no larger than
// the minimum over a fine sampling of the face and the edges (it is a lower bound
// of the true minimum, so only rounding needs a tolerance), its barycentrics are
// in [0, 1] and sum to 1, Point is the barycentric combination of the corners and
// Feature agrees with which barycentrics are zero.
func TestClosestOnTriangleAgainstSampling(t *testing.T) {
	for kind, name := range triangleKinds {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(kind)))
			rp := func() geom.Vec3 { return geom.Vec3{rng.Float64()*2 - 1, rng.Float64()*2 - 1, rng.Float64()*2 - 1} }
			bad := 0
			for trial := range 100 {
				a, b, c := randomTriangle(rng, rp, kind)
				p := rp().Scale(1.5)
				if trial%4 == 0 { // close to the plane of the triangle
					p = a.Add(b.Sub(a).Scale(rng.Float64())).Add(c.Sub(a).Scale(rng.Float64() * 0.5)).Add(rp().Scale(1e-3))
				}
				if errs := checkClosest(p, a, b, c); len(errs) > 0 {
					if bad++; bad <= 3 {
						t.Errorf("p=%v tri=(%v, %v, %v): got %+v: %s", p, a, b, c,
							ClosestOnTriangle(p, a, b, c), strings.Join(errs, "; "))
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of 100 cases wrong", bad)
			}
		})
	}
}

// checkClosest returns what is wrong with ClosestOnTriangle(p, a, b, c).
func checkClosest(p, a, b, c geom.Vec3) (errs []string) {
	const fine = 120   // barycentric grid steps over the face
	const edge = 10000 // steps along each edge, where most closest points lie
	q := ClosestOnTriangle(p, a, b, c)
	sampled := math.Inf(1)
	for i := 0; i <= fine; i++ {
		for j := 0; i+j <= fine; j++ {
			u, v := float64(i)/fine, float64(j)/fine
			sampled = min(sampled, geom.Dist2(p, a.Scale(1-u-v).Add(b.Scale(u)).Add(c.Scale(v))))
		}
	}
	for _, e := range [3][2]geom.Vec3{{a, b}, {b, c}, {c, a}} {
		for i := 0; i <= edge; i++ {
			s := float64(i) / edge
			sampled = min(sampled, geom.Dist2(p, e[0].Scale(1-s).Add(e[1].Scale(s))))
		}
	}
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	if !(q.Dist2 <= sampled+1e-12) {
		bad("Dist2 %g > sampled minimum %g", q.Dist2, sampled)
	}
	var sum float64
	for _, w := range q.Bary {
		if !(w >= 0 && w <= 1) {
			bad("barycentric %g outside [0, 1]", w)
		}
		sum += w
	}
	if !(math.Abs(sum-1) <= 1e-12) {
		bad("barycentrics sum to %v", sum)
	}
	x := a.Scale(q.Bary[0]).Add(b.Scale(q.Bary[1])).Add(c.Scale(q.Bary[2]))
	if d := x.Sub(q.Point).Norm(); !(d <= 1e-12) {
		bad("Point is %g from the sum of bary x corners %v", d, x)
	}
	if d := geom.Dist2(p, q.Point); !(math.Abs(d-q.Dist2) <= 1e-14) {
		bad("Dist2 %g but |p - Point|^2 = %g", q.Dist2, d)
	}
	w := q.Bary
	switch q.Feature {
	case FeatureVertexA, FeatureVertexB, FeatureVertexC:
		want := [3]float64{}
		want[q.Feature-FeatureVertexA] = 1
		if w != want {
			bad("feature %d (a corner) with barycentrics %v", q.Feature, w)
		}
	case FeatureEdgeAB, FeatureEdgeBC, FeatureEdgeCA:
		// The corner opposite the edge has weight exactly 0.
		opp := map[Feature]int{FeatureEdgeAB: 2, FeatureEdgeBC: 0, FeatureEdgeCA: 1}[q.Feature]
		if w[opp] != 0 {
			bad("feature %d (an edge) with barycentrics %v", q.Feature, w)
		}
	case FeatureFace:
		if w[0] == 0 || w[1] == 0 || w[2] == 0 {
			bad("feature face with barycentrics %v", w)
		}
	default:
		bad("unknown feature %d", q.Feature)
	}
	return errs
}

// checkNearest compares Nearest with the brute force at every point.
func checkNearest(t *testing.T, name string, m *geom.Mesh, b *BVH, pts []geom.Vec3, maxDist float64) {
	t.Helper()
	bad := 0
	for _, p := range pts {
		wt, wq, wok := bruteNearest(m, p, maxDist)
		gt, gq, gok := b.Nearest(p, maxDist)
		if gt != wt || gok != wok || gq != wq {
			if bad++; bad <= 5 {
				t.Errorf("%s: Nearest(%v, %g) = %d %+v %v, brute force %d %+v %v", name, p, maxDist, gt, gq, gok, wt, wq, wok)
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d of %d points differ", name, bad, len(pts))
	}
}

func TestNearestMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	type testMesh struct {
		name string
		m    *geom.Mesh
	}
	meshes := []testMesh{
		{"sphere with hole", geom.OpenSphereMesh(geom.Vec3{0.1, -0.2, 0.3}, 0.7, 24, 48, 4)},
		{"soup", randomSoup(rng, 1500)},
		{"box", geom.BoxMesh(geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1})},
		{"single triangle", &geom.Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Triangles: [][3]int32{{0, 1, 2}}}},
	}
	if _, ok := sharedtest.Optional(t, "assets", spotName); ok {
		meshes = append(meshes, testMesh{"spot", loadSpot(t)})
	}
	for _, tm := range meshes {
		b := NewBVH(tm.m)
		pts := boxPoints(rng, tm.m, 1000, 0.3)
		pts = append(pts, surfacePoints(rng, tm.m, 1000, 0.01)...)
		pts = append(pts, surfacePoints(rng, tm.m, 300, 0)...)
		checkNearest(t, tm.name, tm.m, b, pts, math.Inf(1))
		checkNearest(t, tm.name+" maxDist 0.02", tm.m, b, pts[:2000], 0.02)
		checkNearest(t, tm.name+" maxDist 0", tm.m, b, pts[len(pts)-50:], 0)
	}
}

// TestNearestTies uses meshes where many points are exactly equidistant from
// several triangles: a box sampled on a lattice (corners and edges shared by
// several triangles, symmetric faces), and the same surface listed twice in a
// shuffled order, so that every answer has an identical duplicate and only the
// tie rule decides.
func TestNearestTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	box := geom.BoxMesh(geom.Vec3{-1, -1, -1}, geom.Vec3{1, 1, 1})
	dup := &geom.Mesh{Positions: box.Positions}
	dup.Triangles = append(dup.Triangles, box.Triangles...)
	dup.Triangles = append(dup.Triangles, box.Triangles...)
	sphere := geom.OpenSphereMesh(geom.Vec3{}, 1, 8, 16, 0)
	dsph := &geom.Mesh{Positions: sphere.Positions}
	dsph.Triangles = append(dsph.Triangles, sphere.Triangles...)
	dsph.Triangles = append(dsph.Triangles, sphere.Triangles...)
	for _, m := range []*geom.Mesh{dup, dsph} {
		rng.Shuffle(len(m.Triangles), func(i, j int) { m.Triangles[i], m.Triangles[j] = m.Triangles[j], m.Triangles[i] })
	}
	var lattice []geom.Vec3
	for x := -6; x <= 6; x++ {
		for y := -6; y <= 6; y++ {
			for z := -6; z <= 6; z++ {
				lattice = append(lattice, geom.Vec3{float64(x), float64(y), float64(z)}.Scale(0.25))
			}
		}
	}
	checkNearest(t, "box", box, NewBVH(box), lattice, math.Inf(1))
	checkNearest(t, "box twice, shuffled", dup, NewBVH(dup), lattice, math.Inf(1))
	checkNearest(t, "sphere twice, shuffled", dsph, NewBVH(dsph), lattice, math.Inf(1))
	// On the axes every point is equidistant from the triangles around a pole.
	var axes []geom.Vec3
	for i := -20; i <= 20; i++ {
		for k := range 3 {
			var p geom.Vec3
			p[k] = float64(i) / 10
			axes = append(axes, p)
		}
	}
	checkNearest(t, "sphere twice, shuffled, axes", dsph, NewBVH(dsph), axes, math.Inf(1))
	// Duplicates must give the lower index even when the lattice makes no tie.
	b := NewBVH(dup)
	for _, p := range boxPoints(rng, dup, 200, 0.5) {
		tri, _, _ := b.Nearest(p, math.Inf(1))
		for u := range tri {
			if dup.Triangles[u] == dup.Triangles[tri] {
				t.Fatalf("Nearest(%v) = %d, but triangle %d is the same triangle", p, tri, u)
			}
		}
	}
}

func TestBVHStructure(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for _, m := range []*geom.Mesh{
		randomSoup(rng, 1000),
		geom.OpenSphereMesh(geom.Vec3{}, 1, 30, 60, 3),
		// Every centroid the same: no split plane separates them.
		&geom.Mesh{Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, Triangles: make([][3]int32, 100)},
	} {
		b := NewBVH(m)
		seen := make([]int, len(m.Triangles))
		var walk func(i int32, depth int) (lo, hi geom.Vec3)
		maxDepth := 0
		walk = func(i int32, depth int) (lo, hi geom.Vec3) {
			maxDepth = max(maxDepth, depth)
			nd := b.nodes[i]
			if nd.count > 0 {
				if nd.count > bvhLeafSize {
					t.Errorf("leaf %d holds %d triangles", i, nd.count)
				}
				inf := math.Inf(1)
				lo, hi = geom.Vec3{inf, inf, inf}, geom.Vec3{-inf, -inf, -inf}
				for s := nd.first; s < nd.first+nd.count; s++ {
					seen[b.tri[s]]++
					tr := m.Triangles[b.tri[s]]
					for k, v := range tr {
						if b.pos[s][k] != m.Positions[v] {
							t.Errorf("slot %d corner %d: %v, mesh has %v", s, k, b.pos[s][k], m.Positions[v])
						}
						lo, hi = lo.Min(m.Positions[v]), hi.Max(m.Positions[v])
					}
				}
			} else {
				llo, lhi := walk(i+1, depth+1)
				rlo, rhi := walk(nd.first, depth+1)
				lo, hi = llo.Min(rlo), lhi.Max(rhi)
			}
			if lo != nd.lo || hi != nd.hi {
				t.Errorf("node %d box %v %v, its triangles span %v %v", i, nd.lo, nd.hi, lo, hi)
			}
			return lo, hi
		}
		walk(0, 0)
		for tri, n := range seen {
			if n != 1 {
				t.Errorf("triangle %d is in %d leaves", tri, n)
			}
		}
		if limit := 2*math.Log2(float64(len(m.Triangles))) + 2; float64(maxDepth) > limit {
			t.Errorf("%d triangles: depth %d > %g", len(m.Triangles), maxDepth, limit)
		}
		if c := NewBVH(m); !reflect.DeepEqual(c.nodes, b.nodes) || !reflect.DeepEqual(c.tri, b.tri) {
			t.Error("two builds of the same mesh differ")
		}
	}
}

func TestEmptyBVH(t *testing.T) {
	b := NewBVH(&geom.Mesh{})
	if tri, _, ok := b.Nearest(geom.Vec3{}, math.Inf(1)); ok || tri != -1 {
		t.Errorf("Nearest on an empty BVH = %d, %v", tri, ok)
	}
	if w := b.WindingNumber(geom.Vec3{}); w != 0 {
		t.Errorf("WindingNumber on an empty BVH = %g", w)
	}
}
