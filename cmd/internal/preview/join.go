package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// joinedMesh is what Render draws of Options.Mesh and Options.Objects: one mesh
// whose triangles from firstObject on are the objects', so that both go through
// the same depth buffers, shadow map and shading, and a triangle's id tells which
// albedo it takes.
type joinedMesh struct {
	*Mesh
	firstObject int32
}

// joinMeshes returns ground and objects (either may be nil) as one mesh. With
// only one of them drawable it is returned itself, not copied; otherwise the
// copy has the objects' vertices after the ground's, their triangles renumbered,
// the normals each had alone (per corner if either has them) and the union of
// their bounds, and no footprint:
// the ground plane takes that from ground alone.
func joinMeshes(ground, objects *Mesh) joinedMesh {
	switch {
	case !objects.drawable():
		return joinedMesh{Mesh: ground, firstObject: math.MaxInt32}
	case !ground.drawable():
		return joinedMesh{Mesh: objects}
	}
	base := int32(len(ground.positions))
	m := &Mesh{
		positions: append(append(make([]geom.Vec3, 0, len(ground.positions)+len(objects.positions)), ground.positions...), objects.positions...),
		normals:   append(append(make([]geom.Vec3, 0, len(ground.normals)+len(objects.normals)), ground.normals...), objects.normals...),
		triangles: make([][3]int32, 0, len(ground.triangles)+len(objects.triangles)),
		lo:        ground.lo.Min(objects.lo),
		hi:        ground.hi.Max(objects.hi),
	}
	m.triangles = append(m.triangles, ground.triangles...)
	for _, tri := range objects.triangles {
		m.triangles = append(m.triangles, [3]int32{tri[0] + base, tri[1] + base, tri[2] + base})
	}
	if ground.corners != nil || objects.corners != nil {
		m.corners = append(append(make([][3]geom.Vec3, 0, len(m.triangles)), ground.allCornerNormals()...), objects.allCornerNormals()...)
	}
	return joinedMesh{Mesh: m, firstObject: int32(len(ground.triangles))}
}
