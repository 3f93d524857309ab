package preview

import (
	"fmt"
	"math"

	"snowtools/levelset/geom"
)

// Mesh is a triangle mesh prepared for rendering with the particles, such as
// the ground that a height-field simulation deforms (sand, mud, snow with the
// prints of feet and wheels): the triangles with finite corners, a smooth unit
// normal per vertex and the mesh's footprint on the ground (see footprint.go).
// Prepare it once with NewMesh and render it with as many cameras and picture
// sizes as needed (Options.Mesh); it is read-only, so renders may share it.
type Mesh struct {
	positions []geom.Vec3
	triangles [][3]int32
	normals   []geom.Vec3
	corners   [][3]geom.Vec3 // per triangle, the shading normal at each corner (NewSolidMesh); nil: normals
	lo, hi    geom.Vec3      // of the drawn triangles' corners; lo > hi without any
	footprint *footprint
}

// NewMesh prepares m for rendering. It keeps m's position slice, which must not
// change while the Mesh is in use. Triangles with a non-finite corner are not
// drawn; a triangle index outside the vertices is an error. A mesh without
// triangles is valid and draws nothing.
func NewMesh(m *geom.Mesh) (*Mesh, error) {
	n := int32(len(m.Positions))
	if len(m.Positions) > math.MaxInt32 {
		return nil, fmt.Errorf("%d vertices: more than a 32-bit index can reach", len(m.Positions))
	}
	pm := &Mesh{positions: m.Positions, triangles: m.Triangles}
	for t, tri := range m.Triangles {
		for _, i := range tri {
			if i < 0 || i >= n {
				return nil, fmt.Errorf("triangle %d: vertex index %d is outside 0..%d", t, i, n-1)
			}
		}
	}
	finite := make([]bool, len(m.Positions))
	allFinite := true
	for i, p := range m.Positions {
		finite[i] = p.IsFinite()
		allFinite = allFinite && finite[i]
	}
	if !allFinite {
		pm.triangles = make([][3]int32, 0, len(m.Triangles))
		for _, tri := range m.Triangles {
			if finite[tri[0]] && finite[tri[1]] && finite[tri[2]] {
				pm.triangles = append(pm.triangles, tri)
			}
		}
	}
	pm.lo, pm.hi = cornerBounds(m.Positions, pm.triangles)
	pm.normals = vertexNormals(m.Positions, pm.triangles)
	if len(pm.triangles) > 0 {
		pm.footprint = newFootprint(pm)
	}
	return pm, nil
}

// Bounds returns the smallest box that holds every drawn triangle; ok is false
// when there is none. Frame the union of a sequence's particle and mesh bounds
// to keep the camera still.
func (m *Mesh) Bounds() (lo, hi geom.Vec3, ok bool) {
	if !m.drawable() {
		inf := math.Inf(1)
		return geom.Vec3{inf, inf, inf}, geom.Vec3{-inf, -inf, -inf}, false
	}
	return m.lo, m.hi, true
}

// RimHeight returns the height of the ground that continues the mesh beyond
// its edge: the median height of the mesh along the outline of its footprint
// (for a closed mesh, such as a rock, the height of its underside there), or
// its lowest point when it has no footprint. GroundAuto puts the ground plane
// there; use it as Options.GroundHeight to keep the plane still over a sequence.
// ok is false for a mesh without triangles.
func (m *Mesh) RimHeight() (height float64, ok bool) {
	if !m.drawable() {
		return 0, false
	}
	return m.footprint.rim, true
}

// cornerBounds returns the box of the positions that are corners of triangles
// (lo > hi without any).
func cornerBounds(positions []geom.Vec3, triangles [][3]int32) (lo, hi geom.Vec3) {
	used := make([]bool, len(positions))
	for _, tri := range triangles {
		used[tri[0]], used[tri[1]], used[tri[2]] = true, true, true
	}
	lo = geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Scale(-1)
	for i, p := range positions {
		if !used[i] {
			continue
		}
		for k := range 3 {
			if p[k] < lo[k] {
				lo[k] = p[k]
			}
			if p[k] > hi[k] {
				hi[k] = p[k]
			}
		}
	}
	return lo, hi
}

// drawable reports whether m is a mesh with triangles; m may be nil.
func (m *Mesh) drawable() bool { return m != nil && len(m.triangles) > 0 }

// vertexNormals returns the area-weighted unit normal of each vertex: the sum
// of the cross products (b - a) x (c - a) of the triangles (a, b, c) around it,
// each twice its triangle's area along the triangle's normal, normalized. A
// counter-clockwise triangle seen from above has an upward normal. Vertices of
// no triangle, or whose triangles cancel, get the zero vector.
func vertexNormals(positions []geom.Vec3, triangles [][3]int32) []geom.Vec3 {
	normals := make([]geom.Vec3, len(positions))
	for _, tri := range triangles {
		a, b, c := positions[tri[0]], positions[tri[1]], positions[tri[2]]
		n := b.Sub(a).Cross(c.Sub(a))
		for _, i := range tri {
			normals[i] = normals[i].Add(n)
		}
	}
	for i, n := range normals {
		if l := n.Norm(); l > 0 {
			normals[i] = n.Scale(1 / l)
		}
	}
	return normals
}
