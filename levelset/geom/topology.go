package geom

import (
	"cmp"
	"slices"
)

// Topology is how a mesh's triangles meet along their edges. It depends only on the
// triangle list, so the frames of an animated mesh share one.
type Topology struct {
	// Across[t][e] is the triangle on the other side of edge e of triangle t (edges
	// ab, bc, ca, in the order of Feature's edges), or -1 when the edge is on a
	// boundary or is shared by more than two triangles.
	Across [][3]int32
	// Closed is true when every edge is shared by exactly two triangles that run
	// along it in opposite directions: a closed, consistently oriented surface, whose
	// inside the pseudonormal sign test of Baerentzen and Aanaes finds exactly.
	Closed bool
	// BoundaryEdges counts edges with one triangle; NonManifoldEdges counts edges with
	// more than two or whose two triangles disagree on orientation.
	BoundaryEdges, NonManifoldEdges int
}

// NewTopology finds the neighbours of every triangle. It brings the directed edges
// of each undirected edge together, without hashing, and sets Across from each
// group: a counting sort by lower vertex (linear time; the sort of the whole list,
// O(n log n), serves indices that are negative or beyond one per directed edge),
// then each vertex's few edges in order of upper vertex.
func NewTopology(triangles [][3]int32) *Topology {
	edges := make([]halfEdge, 0, 3*len(triangles))
	for t, tri := range triangles {
		for e := range 3 {
			a, b := tri[e], tri[(e+1)%3]
			edges = append(edges, halfEdge{lo: min(a, b), hi: max(a, b), forward: a < b, tri: int32(t), slot: uint8(e)})
		}
	}
	if sorted, ok := sortByLowerVertex(edges); ok {
		edges = sorted
	} else {
		slices.SortFunc(edges, compareHalfEdges)
	}
	topo := &Topology{Across: make([][3]int32, len(triangles))}
	for i := range topo.Across {
		topo.Across[i] = [3]int32{-1, -1, -1}
	}
	for i := 0; i < len(edges); {
		j := i + 1
		for j < len(edges) && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi {
			j++
		}
		switch {
		case j-i == 1:
			topo.BoundaryEdges++
		case j-i == 2 && edges[i].forward != edges[i+1].forward:
			x, y := edges[i], edges[i+1]
			topo.Across[x.tri][x.slot] = y.tri
			topo.Across[y.tri][y.slot] = x.tri
		default:
			topo.NonManifoldEdges++
		}
		i = j
	}
	topo.Closed = topo.BoundaryEdges == 0 && topo.NonManifoldEdges == 0 && len(triangles) > 0
	return topo
}

// halfEdge is edge slot (0, 1, 2: ab, bc, ca) of triangle tri, between vertices
// lo < hi; forward when the triangle runs lo -> hi.
type halfEdge struct {
	lo, hi  int32
	forward bool
	tri     int32
	slot    uint8
}

func compareHalfEdges(x, y halfEdge) int {
	if x.lo != y.lo {
		return cmp.Compare(x.lo, y.lo)
	}
	return cmp.Compare(x.hi, y.hi)
}

// sortByLowerVertex returns edges ordered by (lo, hi) as compareHalfEdges orders
// them, in linear time on a mesh's few edges per vertex: a counting sort by lo,
// then each vertex's edges sorted by hi. It reports false when a vertex index is
// negative or not below len(edges), which would size its counts.
func sortByLowerVertex(edges []halfEdge) ([]halfEdge, bool) {
	vertices := 0
	for _, e := range edges {
		if e.lo < 0 || int(e.hi) >= len(edges) {
			return nil, false
		}
		vertices = max(vertices, int(e.hi)+1)
	}
	start := make([]int32, vertices+1) // start[v+1] counts, then start[v] is v's first slot
	for _, e := range edges {
		start[e.lo+1]++
	}
	for v := range vertices {
		start[v+1] += start[v]
	}
	sorted := make([]halfEdge, len(edges))
	next := slices.Clone(start[:vertices])
	for _, e := range edges {
		sorted[next[e.lo]] = e
		next[e.lo]++
	}
	for v := range vertices {
		group := sorted[start[v]:start[v+1]]
		if len(group) > 16 { // the centre of a fan: a sort, not quadratic
			slices.SortFunc(group, compareHalfEdges)
			continue
		}
		for i := 1; i < len(group); i++ {
			for j := i; j > 0 && group[j].hi < group[j-1].hi; j-- {
				group[j], group[j-1] = group[j-1], group[j]
			}
		}
	}
	return sorted, true
}
