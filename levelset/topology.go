package levelset

import (
	"math"
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

// Pseudonormals are the angle-weighted pseudonormals of a mesh's faces, edges and
// vertices (Baerentzen and Aanaes, "Signed distance computation using the angle
// weighted pseudonormal", 2005): the unit face normal; for an edge the sum of its two
// faces' normals; for a vertex the sum of its faces' normals, each weighted by the
// face's angle at the vertex. For a closed mesh, with p any point and c its closest
// point on feature f, p is inside exactly when (p - c) . N_f < 0.
type Pseudonormals struct {
	mesh   *Mesh
	topo   *Topology
	face   []Vec3
	vertex []Vec3
}

// NewPseudonormals computes the pseudonormals of m's current positions; topo must be
// m's topology.
func NewPseudonormals(m *Mesh, topo *Topology) *Pseudonormals {
	pn := &Pseudonormals{mesh: m, topo: topo, face: make([]Vec3, len(m.Triangles)), vertex: make([]Vec3, len(m.Positions))}
	for t, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		n := b.Sub(a).Cross(c.Sub(a)).Unit()
		pn.face[t] = n
		corners := [3]Vec3{a, b, c}
		for k := range 3 {
			u := corners[(k+1)%3].Sub(corners[k])
			v := corners[(k+2)%3].Sub(corners[k])
			pn.vertex[tri[k]] = pn.vertex[tri[k]].Add(n.Scale(angleBetween(u, v)))
		}
	}
	return pn
}

// angleBetween returns the angle between u and v in [0, pi], accurate for small and
// near-straight angles alike (atan2 of the cross and dot products).
func angleBetween(u, v Vec3) float64 {
	return math.Atan2(u.Cross(v).Norm(), u.Dot(v))
}

// Face returns the unit normal of triangle t (zero for a triangle without area).
func (pn *Pseudonormals) Face(t int32) Vec3 { return pn.face[t] }

// At returns the pseudonormal of feature f of triangle t. It is not of unit length:
// only its direction matters to the sign test.
func (pn *Pseudonormals) At(t int32, f Feature) Vec3 {
	switch f {
	case FeatureFace:
		return pn.face[t]
	case FeatureEdgeAB, FeatureEdgeBC, FeatureEdgeCA:
		n := pn.face[t]
		if o := pn.topo.Across[t][f-FeatureEdgeAB]; o >= 0 {
			n = n.Add(pn.face[o])
		}
		return n
	default:
		return pn.vertex[pn.mesh.Triangles[t][f-FeatureVertexA]]
	}
}

// Inside reports whether p, whose closest point on the mesh is cp on triangle t, lies
// inside. It is exact for a closed mesh; elsewhere it tells the side of the nearest
// feature only.
func (pn *Pseudonormals) Inside(p Vec3, t int32, cp ClosestPoint) bool {
	return p.Sub(cp.Point).Dot(pn.At(t, cp.Feature)) < 0
}
