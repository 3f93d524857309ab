// Package collidermesh turns a scene's colliders into triangles at a time, for
// pictures and for DCCs: snowsim -preview draws them with the snow, and
// [output] colliders writes them beside the particles, so that export can draw
// them too.
//
// Every body is meshed in its own frame and placed by its collider's motion at
// time t: an analytic shape (box, sphere, cylinder) as a closed mesh, a half-space
// as the polygon where its plane cuts the scene's box, a mesh body as the file's
// triangles (not the level set the solver samples). Level sets read from VDB files,
// still, on keys or deforming sequences, have no triangles and are left out
// (Undrawn lists them).
package collidermesh

import (
	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// The tessellation of round shapes: 48 corners around a circle keep the
// inscribed polygon's area within 0.3% of the circle's, and its corners within
// 0.21% of the radius of the true outline (1 - cos(pi/48)), under a pixel for a
// body that fills a preview.
const (
	circleSegments = 48
	sphereRings    = 24
)

// At returns the surfaces of bodies at time t as one mesh, in the bodies' order,
// counter-clockwise from outside; planes are cut to box (a scene's Box). Bodies
// that Undrawn lists add nothing; with none to draw the mesh has no triangles.
func At(bodies []scene.ColliderBody, t float64, box geom.Box) *geom.Mesh {
	out := &geom.Mesh{}
	for _, b := range bodies {
		pl, ok := placementOf(b.Collider, t)
		if !ok {
			continue
		}
		var m *geom.Mesh
		switch {
		case b.Mesh != nil:
			m = pl.apply(b.Mesh)
		case b.Shape != nil:
			m = shapeMesh(b.Shape, pl, box)
		}
		if m != nil {
			appendMesh(out, m)
		}
	}
	return out
}

// Undrawn returns the keys of the bodies that At leaves out: VDB level sets, which
// have no triangles.
func Undrawn(bodies []scene.ColliderBody) []string {
	var keys []string
	for _, b := range bodies {
		if _, ok := placementOf(b.Collider, 0); !ok || b.Mesh == nil && b.Shape == nil {
			keys = append(keys, b.Key)
		}
	}
	return keys
}

// Box returns the box a scene's planes are cut to: the domain of a snow scene; for a
// ground scene, the ground's extent in x and z, from the columns' bottom to as far
// above the terrain's top.
func Box(sc *scene.Scene) geom.Box {
	if sc.Ground == nil {
		return sc.Config.Domain
	}
	cfg := sc.Ground.Config
	e := cfg.Extent
	top := cfg.Terrain.Top()
	return geom.Box{
		Min: geom.Vec3{cfg.X(e.I0), cfg.Bottom, cfg.Z(e.J0)},
		Max: geom.Vec3{cfg.X(e.I1 - 1), top + (top - cfg.Bottom), cfg.Z(e.J1 - 1)},
	}
}

// shapeMesh meshes an analytic shape placed by pl; nil for a shape it does not know.
func shapeMesh(s geom.Shape, pl placement, box geom.Box) *geom.Mesh {
	switch s := s.(type) {
	case geom.Box:
		return pl.apply(geom.BoxMesh(s.Min, s.Max))
	case geom.Sphere:
		return pl.apply(geom.SphereMesh(s.Center, s.Radius, sphereRings, circleSegments))
	case geom.Cylinder:
		return pl.apply(geom.CylinderMesh(s, circleSegments))
	case geom.HalfSpace:
		// The plane is placed first and then cut, since the box is the world's.
		return planeInBox(geom.HalfSpace{Point: pl.point(s.Point), Normal: pl.q.Rotate(s.Normal)}, box)
	}
	return nil
}

// placement is a rigid motion x = q p + offset, from a body's frame to the world.
type placement struct {
	q      collider.Quat
	offset geom.Vec3
}

// placementOf returns where collider c puts its body at time t: a moving shape
// displaced by its velocity times t (section 8's phi(x - v t)), a rigid body at its
// keyframed pose. ok is false for any other collider (a deforming level set).
func placementOf(c collider.Collider, t float64) (placement, bool) {
	switch c := c.(type) {
	case *collider.MovingShape:
		return placement{q: collider.Quat{W: 1}, offset: c.Velocity.Scale(t)}, true
	case *collider.RigidBody:
		q, origin, _, _ := c.Pose(t)
		return placement{q: q, offset: origin}, true
	}
	return placement{}, false
}

// point returns body point p in the world.
func (pl placement) point(p geom.Vec3) geom.Vec3 { return pl.q.Rotate(p).Add(pl.offset) }

// apply returns a copy of m placed in the world (a rigid motion keeps the winding).
func (pl placement) apply(m *geom.Mesh) *geom.Mesh {
	out := &geom.Mesh{Positions: make([]geom.Vec3, len(m.Positions)), Triangles: m.Triangles}
	for i, p := range m.Positions {
		out.Positions[i] = pl.point(p)
	}
	return out
}

// appendMesh adds m's vertices and triangles to dst.
func appendMesh(dst, m *geom.Mesh) {
	base := int32(len(dst.Positions))
	dst.Positions = append(dst.Positions, m.Positions...)
	for _, tri := range m.Triangles {
		dst.Triangles = append(dst.Triangles, [3]int32{tri[0] + base, tri[1] + base, tri[2] + base})
	}
}
