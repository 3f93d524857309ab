package scene

import (
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// A ColliderBody is a [[collider]] as a picture draws it: its solid in its own frame,
// and the collider that places it at a time (package collidermesh turns it into
// triangles). The solver sees only Collider, whose mesh bodies are level sets.
type ColliderBody struct {
	Key string // collider[i], as errors name it
	// Shape is an analytic body (geom.Box, Sphere, Cylinder or HalfSpace); nil for a
	// body read from a file.
	Shape geom.Shape
	// Mesh is a "mesh" body's triangles as the file gives them (a glTF posed at its
	// time key), before voxelizing; nil otherwise.
	Mesh *geom.Mesh
	// LevelSet is a "vdb" body's level set grid, still or on keys, in its own frame
	// (the file's world space); nil otherwise. A picture meshes it.
	LevelSet *levelset.FloatGrid
	// Sequence is a deforming "vdb" sequence, whose keyframes are in world space;
	// nil otherwise. Collider is then Sequence.Collider.
	Sequence *collider.Sequence
	// Collider moves the body: a *collider.MovingShape (still or at a velocity), a
	// *collider.RigidBody (on keys), or a deforming sequence's collider.
	Collider collider.Collider
}

// colliderList returns the solver's colliders of bodies, in their order.
func colliderList(bodies []ColliderBody) []collider.Collider {
	cols := make([]collider.Collider, len(bodies))
	for i, b := range bodies {
		cols[i] = b.Collider
	}
	return cols
}
