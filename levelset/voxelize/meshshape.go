package voxelize

import (
	"fmt"
	"math"

	"snowtools/levelset/geom"
)

// MeshShape is the solid bounded by a triangle mesh, as a Shape: a snow source or
// collider given by a mesh from a DCC. For a query point p with closest point cp on
// the mesh (BVH.Nearest) and d = |p - cp|,
//
//	phi(p) = -d if p is inside, +d otherwise,
//	grad phi(p) = s (p - cp)/d with s = +1 outside and -1 inside (unit, pointing out),
//
// and on the surface itself (d below a rounding floor) the normal is the unit
// pseudonormal of the feature that holds cp. Inside is decided by the pseudonormal
// test of Baerentzen and Aanaes when the mesh is closed and consistently oriented
// (Topology.Closed), which makes phi the exact signed distance; otherwise by the
// generalized winding number, w(p) >= 1/2, which tolerates holes and soups but makes
// phi jump (from -d to +d) across the w = 1/2 surface that spans a hole. A mesh of
// negative signed volume (wound clockwise seen from outside) is turned around, so
// that its inside is still the inside.
//
// Copies of a triangle on the same vertices count once, and a face drawn in both
// windings is a sheet without inside (see coincident.go).
//
// A MeshShape keeps its own copy of the mesh, is immutable once built and is safe for
// concurrent use.
type MeshShape struct {
	mesh   geom.Mesh // private copy: positions and triangles only
	bvh    *BVH
	pn     *Pseudonormals // the sign test when closed; surface normals always
	topo   *geom.Topology
	closed bool
	flip   bool // the triangles wind clockwise seen from outside (negative volume)
	lo, hi geom.Vec3
	floor  float64 // distances below this count as "on the surface"
}

// NewMeshShape validates m (Mesh.Validate, and some triangle with area) and
// precomputes its BVH, topology and, for a closed mesh, its pseudonormals; for an
// open mesh it builds the winding-number expansion now rather than on the first query.
func NewMeshShape(m *geom.Mesh) (*MeshShape, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	// Welded by exact position, as Mesh does: an unindexed closed mesh is closed.
	welded, _, _ := Welded(m, 0)
	s := &MeshShape{mesh: geom.Mesh{
		Positions: append([]geom.Vec3(nil), m.Positions...),
		Triangles: welded.Triangles,
	}}
	// Copies of a triangle count once, as in Mesh (see coincident.go).
	s.topo = geom.NewTopology(s.mesh.Triangles)
	coincident := findCoincident(s.mesh.Triangles, s.topo)
	if coincident.kept != nil {
		s.mesh.Triangles = withTriangles(&s.mesh, coincident.kept).Triangles
		s.topo = geom.NewTopology(s.mesh.Triangles)
	}
	s.lo, s.hi = s.mesh.Bounds()
	area := 0.0
	for _, t := range s.mesh.Triangles {
		a, b, c := s.mesh.Positions[t[0]], s.mesh.Positions[t[1]], s.mesh.Positions[t[2]]
		area += b.Sub(a).Cross(c.Sub(a)).Norm() / 2
	}
	if !(area > 0) {
		return nil, fmt.Errorf("mesh of %d triangles has no area: it bounds no solid", len(s.mesh.Triangles))
	}
	s.flip = enclosedVolume(&s.mesh, newRimPatches(&s.mesh, findRim(s.mesh.Triangles, s.topo))) < 0
	s.bvh = NewBVH(&s.mesh)
	s.pn = NewPseudonormals(&s.mesh, s.topo)
	s.closed = s.topo.Closed && coincident.sheets == 0
	if !s.closed {
		s.bvh.WindingNumber(s.lo) // builds the expansion now, not in the first query
	}
	s.floor = 0x1p-40 * max(s.bvh.scale, 1e-300)
	return s, nil
}

// Closed reports whether the mesh is closed and consistently oriented, so that phi
// is the exact signed distance (see MeshShape).
func (s *MeshShape) Closed() bool { return s.closed }

// Topology returns the mesh's edge topology (boundary and non-manifold edge counts
// explain why a mesh is not Closed).
func (s *MeshShape) Topology() *geom.Topology { return s.topo }

// Bounds returns the bounding box of the mesh's vertices: where phi < 0 can be.
func (s *MeshShape) Bounds() geom.Box { return geom.Box{Min: s.lo, Max: s.hi} }

// Lipschitz returns L such that |phi(p) - phi(q)| <= L |p - q|: 1 for a closed mesh,
// whose phi is a signed distance, and +Inf for an open one, whose phi jumps across
// holes. A seeder uses it to decide whole cells from the distance at their centre.
func (s *MeshShape) Lipschitz() float64 {
	if s.Closed() {
		return 1
	}
	return math.Inf(1)
}

// Distance implements Shape (see MeshShape for the formulas).
func (s *MeshShape) Distance(p geom.Vec3) (float64, geom.Vec3) {
	t, cp, ok := s.bvh.Nearest(p, math.Inf(1))
	if !ok { // only for a non-finite p
		return math.NaN(), geom.Vec3{0, 1, 0}
	}
	d := math.Sqrt(cp.Dist2)
	var inside bool
	if s.closed {
		inside = s.pn.Inside(p, t, cp) != s.flip
	} else {
		w := s.bvh.WindingNumber(p)
		if s.flip {
			w = -w
		}
		inside = w >= 0.5
	}
	if d <= s.floor {
		n := s.surfaceNormal(t, cp.Feature)
		if s.flip {
			n = n.Scale(-1)
		}
		if inside {
			return -d, n
		}
		return d, n
	}
	n := p.Sub(cp.Point).Scale(1 / d)
	if inside {
		return -d, n.Scale(-1)
	}
	return d, n
}

// surfaceNormal returns the unit pseudonormal of feature f of triangle t (on a
// boundary edge of an open mesh, the face normal), or (0, 1, 0) when it vanishes.
func (s *MeshShape) surfaceNormal(t int32, f Feature) geom.Vec3 {
	if n := s.pn.At(t, f).Unit(); n != (geom.Vec3{}) {
		return n
	}
	return geom.Vec3{0, 1, 0}
}
