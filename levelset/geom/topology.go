package geom

import "slices"

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

// NewTopology finds the neighbours of every triangle. It sorts the directed edges,
// so it costs O(n log n) and no hashing.
func NewTopology(triangles [][3]int32) *Topology {
	type halfEdge struct {
		lo, hi  int32 // the edge's vertices, lo < hi
		forward bool  // the triangle runs lo -> hi
		tri     int32
		slot    uint8 // 0, 1, 2: edge ab, bc, ca
	}
	edges := make([]halfEdge, 0, 3*len(triangles))
	for t, tri := range triangles {
		for e := range 3 {
			a, b := tri[e], tri[(e+1)%3]
			edges = append(edges, halfEdge{lo: min(a, b), hi: max(a, b), forward: a < b, tri: int32(t), slot: uint8(e)})
		}
	}
	slices.SortFunc(edges, func(x, y halfEdge) int {
		if x.lo != y.lo {
			return int(x.lo - y.lo)
		}
		return int(x.hi - y.hi)
	})
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
