package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// joinedMesh is what Render draws of Options.Mesh, Options.Objects and
// Options.Snow: one mesh whose triangles from firstObject on are the objects' and
// from firstSnow on the snow's, so that all go through the same depth buffers,
// shadow map and shading, and a triangle's id tells which albedo it takes.
type joinedMesh struct {
	*Mesh
	firstObject, firstSnow int32 // math.MaxInt32 for a part with no triangles
}

// joinMeshes returns ground, objects and snow (any may be nil) as one mesh. With
// only one of them drawable it is returned itself, not copied; otherwise the copy
// has their vertices in that order, the triangles renumbered, the normals each had
// alone (per corner if any has them) and the union of their bounds, and no
// footprint: the ground plane takes that from ground alone.
func joinMeshes(ground, objects, snow *Mesh) joinedMesh {
	parts := [3]*Mesh{ground, objects, snow}
	var drawn []*Mesh
	first := [3]int32{math.MaxInt32, math.MaxInt32, math.MaxInt32}
	triangles := 0
	for i, p := range parts {
		if p.drawable() {
			first[i] = int32(triangles)
			triangles += len(p.triangles)
			drawn = append(drawn, p)
		}
	}
	joined := joinedMesh{firstObject: first[1], firstSnow: first[2]}
	switch len(drawn) {
	case 0:
		joined.Mesh = ground
		return joined
	case 1:
		joined.Mesh = drawn[0]
		return joined
	}
	m := &Mesh{triangles: make([][3]int32, 0, triangles)}
	m.lo, m.hi = drawn[0].lo, drawn[0].hi
	corners := false
	for _, p := range drawn {
		base := int32(len(m.positions))
		m.positions = append(m.positions, p.positions...)
		m.normals = append(m.normals, p.normals...)
		for _, tri := range p.triangles {
			m.triangles = append(m.triangles, [3]int32{tri[0] + base, tri[1] + base, tri[2] + base})
		}
		m.lo, m.hi = m.lo.Min(p.lo), m.hi.Max(p.hi)
		corners = corners || p.corners != nil
	}
	if corners {
		m.corners = make([][3]geom.Vec3, 0, triangles)
		for _, p := range drawn {
			m.corners = append(m.corners, p.allCornerNormals()...)
		}
	}
	joined.Mesh = m
	return joined
}
