package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// NewSolidMesh is NewMesh for a solid body, such as a collider drawn as
// Options.Objects: its shading keeps the body's sharp edges. A smooth vertex
// normal, the mean over every triangle around the vertex, would shade a box's
// faces as one rounded lump; here each triangle's corner takes the mean of only
// the triangles around its vertex whose planes turn from its own by less than
// creaseAngle, so that a box's faces are flat while a tessellated sphere or a
// cylinder's side stays smooth.
func NewSolidMesh(m *geom.Mesh) (*Mesh, error) {
	pm, err := NewMesh(m)
	if err != nil {
		return nil, err
	}
	pm.corners = creaseNormals(pm.positions, pm.triangles)
	return pm, nil
}

// creaseAngle is the largest turn between neighbouring triangles that is shaded
// smooth: a circle of 48 segments turns 7.5 degrees a segment and is smooth, the
// faces of a box meet at 90 degrees and are not.
const creaseAngle = 30.0

// creaseNormals returns, per triangle, the shading normal at each corner: the
// normalized sum of the cross products (b - a) x (c - a) (twice the area along the
// normal) of the triangles around the corner's vertex whose unit normals are
// within creaseAngle of the triangle's own. A triangle of no area gets zero
// normals, which the shader replaces by the facet's.
func creaseNormals(positions []geom.Vec3, triangles [][3]int32) [][3]geom.Vec3 {
	face := make([]geom.Vec3, len(triangles))
	unit := make([]geom.Vec3, len(triangles))
	for t, tri := range triangles {
		a, b, c := positions[tri[0]], positions[tri[1]], positions[tri[2]]
		face[t] = b.Sub(a).Cross(c.Sub(a))
		unit[t] = face[t].Unit()
	}
	// The triangles around each vertex v: around[first[v]:first[v+1]].
	first := make([]int32, len(positions)+1)
	for _, tri := range triangles {
		for _, v := range tri {
			first[v+1]++
		}
	}
	for v := range positions {
		first[v+1] += first[v]
	}
	around := make([]int32, 3*len(triangles))
	next := append([]int32(nil), first[:len(positions)]...)
	for t, tri := range triangles {
		for _, v := range tri {
			around[next[v]] = int32(t)
			next[v]++
		}
	}
	minCos := math.Cos(creaseAngle * math.Pi / 180)
	corners := make([][3]geom.Vec3, len(triangles))
	for t, tri := range triangles {
		if unit[t] == (geom.Vec3{}) {
			continue
		}
		for k, v := range tri {
			var sum geom.Vec3
			for _, s := range around[first[v]:first[v+1]] {
				if unit[s].Dot(unit[t]) >= minCos {
					sum = sum.Add(face[s])
				}
			}
			corners[t][k] = sum.Unit()
		}
	}
	return corners
}

// shadingNormals returns the shading normals at the corners of triangle t: its
// corner normals for a solid mesh, else its vertices' normals.
func (m *Mesh) shadingNormals(t int32) [3]geom.Vec3 {
	if m.corners != nil {
		return m.corners[t]
	}
	tri := m.triangles[t]
	return [3]geom.Vec3{m.normals[tri[0]], m.normals[tri[1]], m.normals[tri[2]]}
}

// allCornerNormals returns the shading normals at every triangle's corners.
func (m *Mesh) allCornerNormals() [][3]geom.Vec3 {
	if m.corners != nil {
		return m.corners
	}
	corners := make([][3]geom.Vec3, len(m.triangles))
	for t := range m.triangles {
		corners[t] = m.shadingNormals(int32(t))
	}
	return corners
}
