package geom

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestTopology(t *testing.T) {
	box := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	if topo := NewTopology(box.Triangles); !topo.Closed || topo.BoundaryEdges != 0 || topo.NonManifoldEdges != 0 {
		t.Errorf("box: %+v", topo)
	}
	holed := OpenSphereMesh(Vec3{}, 1, 12, 16, 2)
	if topo := NewTopology(holed.Triangles); topo.Closed || topo.BoundaryEdges != 16 {
		t.Errorf("sphere with a hole: closed %v, %d boundary edges, want 16", topo.Closed, topo.BoundaryEdges)
	}
	// One triangle turned over: its three edges now run the same way as their
	// neighbours', which is not a consistently oriented surface.
	flipped := BoxMesh(Vec3{-1, -1, -1}, Vec3{1, 1, 1})
	tri := &flipped.Triangles[5]
	tri[1], tri[2] = tri[2], tri[1]
	if topo := NewTopology(flipped.Triangles); topo.Closed || topo.NonManifoldEdges != 3 {
		t.Errorf("flipped triangle: closed %v, %d non-manifold edges, want 3", topo.Closed, topo.NonManifoldEdges)
	}
	// Across is symmetric on the closed box.
	topo := NewTopology(box.Triangles)
	for t0, across := range topo.Across {
		for _, t1 := range across {
			if t1 < 0 || !slices.Contains(topo.Across[t1][:], int32(t0)) {
				t.Errorf("triangle %d's neighbour %d does not name it back", t0, t1)
			}
		}
	}
}

// TestTopologyAgainstPairs checks NewTopology on meshes with open, non-manifold,
// misoriented and fan-centre edges against a count of each undirected edge's
// triangles, with indices in the counting sort's range and beyond it (the sort of
// the whole list).
func TestTopologyAgainstPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for n, offset := range []int32{0, 0, 0, 1 << 20, -5, math.MaxInt32 - 100, math.MinInt32 + 1} {
		var tris [][3]int32
		// A random soup over few vertices (many shared, non-manifold and
		// misoriented edges) and a fan of 40 triangles around vertex 0.
		for range 300 {
			a, b, c := rng.Int32N(60), rng.Int32N(60), rng.Int32N(60)
			if a != b && b != c && a != c {
				tris = append(tris, [3]int32{a, b, c})
			}
		}
		for k := range int32(40) {
			tris = append(tris, [3]int32{0, 1 + k, 2 + k})
		}
		if n == 1 {
			tris = BoxMesh(Vec3{}, Vec3{1, 1, 1}).Triangles
		}
		for i := range tris {
			for k := range 3 {
				tris[i][k] += offset
			}
		}
		type edge [2]int32
		uses := map[edge][][2]int32{} // triangle and slot of each directed use
		for ti, tri := range tris {
			for e := range 3 {
				a, b := tri[e], tri[(e+1)%3]
				uses[edge{min(a, b), max(a, b)}] = append(uses[edge{min(a, b), max(a, b)}], [2]int32{int32(ti), int32(e)})
			}
		}
		var want Topology
		want.Across = make([][3]int32, len(tris))
		for i := range want.Across {
			want.Across[i] = [3]int32{-1, -1, -1}
		}
		for _, u := range uses {
			forward := func(i int) bool { tri := tris[u[i][0]]; return tri[u[i][1]] < tri[(u[i][1]+1)%3] }
			switch {
			case len(u) == 1:
				want.BoundaryEdges++
			case len(u) == 2 && forward(0) != forward(1):
				want.Across[u[0][0]][u[0][1]] = u[1][0]
				want.Across[u[1][0]][u[1][1]] = u[0][0]
			default:
				want.NonManifoldEdges++
			}
		}
		want.Closed = want.BoundaryEdges == 0 && want.NonManifoldEdges == 0
		got := NewTopology(tris)
		if got.Closed != want.Closed || got.BoundaryEdges != want.BoundaryEdges || got.NonManifoldEdges != want.NonManifoldEdges ||
			!slices.Equal(got.Across, want.Across) {
			t.Errorf("mesh %d (indices from %d): closed %v, %d boundary, %d non-manifold edges; want %v, %d, %d; Across equal: %v",
				n, offset, got.Closed, got.BoundaryEdges, got.NonManifoldEdges, want.Closed, want.BoundaryEdges, want.NonManifoldEdges,
				slices.Equal(got.Across, want.Across))
		}
	}
}

// BenchmarkTopology times NewTopology on a sphere of 2e5 triangles.
func BenchmarkTopology(b *testing.B) {
	m := SphereMesh(Vec3{}, 1, 200, 500)
	b.ReportMetric(float64(len(m.Triangles)), "triangles")
	for b.Loop() {
		NewTopology(m.Triangles)
	}
}
