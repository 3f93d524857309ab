// Package collidermesh turns a scene's colliders into triangles at a time, for
// pictures and for DCCs: snowsim -preview draws them with the snow, and
// [output] colliders writes them beside the particles, so that export can draw
// them too.
//
// Every body is meshed in its own frame and placed by its collider's motion at
// time t: an analytic shape (box, sphere, cylinder) as a closed mesh, a half-space
// as the polygon where its plane cuts the scene's box, a mesh body as the file's
// triangles (not the level set the solver samples), a VDB level set, still or on
// keys, as its zero surface (package mesher), meshed once and placed like the
// others. A deforming VDB sequence shows the surface of its keyframe nearest t:
// the frame's own file when the sequence has the scene's frame rate.
package collidermesh

import (
	"fmt"

	"snowtools/cmd/internal/scene"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/mesher"
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

// Colliders meshes a scene's bodies at any time. It keeps the meshes of level
// sets, which cost far more than placing them: a still or keyed body's, meshed
// once, and each sequence's last keyframe, which the next frames of a run at the
// sequence's own rate or faster show again. Not safe for concurrent use.
type Colliders struct {
	bodies  []scene.ColliderBody
	box     geom.Box // where planes are cut
	threads int      // the mesher's; the meshes do not depend on it
	still   map[int]*geom.Mesh
	frames  map[int]keyframeMesh
}

// keyframeMesh is the mesh of a sequence's keyframe.
type keyframeMesh struct {
	index int
	mesh  *geom.Mesh
}

// New returns the meshes of bodies, planes cut to box (a scene's Box), level sets
// meshed with threads goroutines (0: one per CPU).
func New(bodies []scene.ColliderBody, box geom.Box, threads int) *Colliders {
	return &Colliders{bodies: bodies, box: box, threads: threads,
		still: map[int]*geom.Mesh{}, frames: map[int]keyframeMesh{}}
}

// At returns the surfaces of the bodies at time t as one mesh, in the bodies'
// order, counter-clockwise from outside. The error is a sequence's keyframe that
// cannot be read or a level set that cannot be meshed.
func (c *Colliders) At(t float64) (*geom.Mesh, error) {
	out := &geom.Mesh{}
	for i := range c.bodies {
		m, err := c.body(i, t)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.bodies[i].Key, err)
		}
		if m != nil {
			appendMesh(out, m)
		}
	}
	return out, nil
}

// body returns body i's mesh at time t; nil for a body of no kind it knows.
func (c *Colliders) body(i int, t float64) (*geom.Mesh, error) {
	b := &c.bodies[i]
	if b.Sequence != nil {
		return c.keyframe(i, b.Sequence, t)
	}
	pl, ok := placementOf(b.Collider, t)
	if !ok {
		return nil, nil
	}
	switch {
	case b.Mesh != nil:
		return pl.apply(b.Mesh), nil
	case b.LevelSet != nil:
		m, ok := c.still[i]
		if !ok {
			var err error
			if m, err = c.levelSet(b.LevelSet); err != nil {
				return nil, err
			}
			c.still[i] = m
		}
		return pl.apply(m), nil
	case b.Shape != nil:
		return shapeMesh(b.Shape, pl, c.box), nil
	}
	return nil, nil
}

// keyframe returns the mesh of sequence s's keyframe nearest t, body i's.
func (c *Colliders) keyframe(i int, s *collider.Sequence, t float64) (*geom.Mesh, error) {
	k := s.Nearest(t)
	if cached, ok := c.frames[i]; ok && cached.index == k {
		return cached.mesh, nil
	}
	kf, err := s.Keyframe(k)
	if err != nil {
		return nil, err
	}
	m, err := c.levelSet(kf.Surface)
	if err != nil {
		return nil, err
	}
	c.frames[i] = keyframeMesh{index: k, mesh: m}
	return m, nil
}

// levelSet meshes the zero surface of a level set grid.
func (c *Colliders) levelSet(g *levelset.FloatGrid) (*geom.Mesh, error) {
	return mesher.Mesh(g, mesher.Options{Threads: c.threads})
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
// keyframed pose. ok is false for any other collider (a deforming sequence's).
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
