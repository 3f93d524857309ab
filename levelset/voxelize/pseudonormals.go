package voxelize

import (
	"math"

	"snowtools/levelset/geom"
)

// Pseudonormals are the angle-weighted pseudonormals of a mesh's faces, edges and
// vertices (Baerentzen and Aanaes, "Signed distance computation using the angle
// weighted pseudonormal", 2005): the unit face normal; for an edge the sum of its two
// faces' normals; for a vertex the sum of its faces' normals, each weighted by the
// face's angle at the vertex. For a closed mesh, with p any point and c its closest
// point on feature f, p is inside exactly when (p - c) . N_f < 0.
type Pseudonormals struct {
	mesh   *geom.Mesh
	topo   *geom.Topology
	face   []geom.Vec3
	vertex []geom.Vec3
}

// NewPseudonormals computes the pseudonormals of m's current positions; topo must be
// m's topology.
func NewPseudonormals(m *geom.Mesh, topo *geom.Topology) *Pseudonormals {
	pn := &Pseudonormals{mesh: m, topo: topo, face: make([]geom.Vec3, len(m.Triangles)), vertex: make([]geom.Vec3, len(m.Positions))}
	for t, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		n := b.Sub(a).Cross(c.Sub(a)).Unit()
		pn.face[t] = n
		corners := [3]geom.Vec3{a, b, c}
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
func angleBetween(u, v geom.Vec3) float64 {
	return math.Atan2(u.Cross(v).Norm(), u.Dot(v))
}

// Face returns the unit normal of triangle t (zero for a triangle without area).
func (pn *Pseudonormals) Face(t int32) geom.Vec3 { return pn.face[t] }

// At returns the pseudonormal of feature f of triangle t. It is not of unit length:
// only its direction matters to the sign test.
func (pn *Pseudonormals) At(t int32, f Feature) geom.Vec3 {
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
func (pn *Pseudonormals) Inside(p geom.Vec3, t int32, cp ClosestPoint) bool {
	return p.Sub(cp.Point).Dot(pn.At(t, cp.Feature)) < 0
}
