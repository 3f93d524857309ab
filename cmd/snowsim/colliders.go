package main

import (
	"fmt"

	"snowtools/cmd/internal/collidermesh"
	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
)

// colliderOutput meshes a scene's colliders at each frame's time, for the preview
// and for the [output] colliders files (OBJ or PLY, for export -mesh and DCCs).
type colliderOutput struct {
	sc      *scene.Scene
	meshes  *collidermesh.Colliders
	preview bool
}

// newColliderOutput prepares the colliders' meshes of sc for a run with or without
// a preview; nil when neither the preview nor the scene needs them. A colliders
// file for a scene without colliders is an error.
func newColliderOutput(sc *scene.Scene, preview bool) (*colliderOutput, error) {
	if sc.ColliderMesh == "" && (!preview || len(sc.Bodies) == 0) {
		return nil, nil
	}
	if sc.ColliderMesh != "" && len(sc.Bodies) == 0 {
		return nil, fmt.Errorf("output.colliders = %q: the scene has no collider to mesh", sc.ColliderMesh)
	}
	threads := sc.Config.Threads
	if sc.Ground != nil {
		threads = sc.Ground.Config.Threads
	}
	meshes := collidermesh.New(sc.Bodies, collidermesh.Box(sc), threads)
	return &colliderOutput{sc: sc, meshes: meshes, preview: preview}, nil
}

// frame writes frame f's colliders file, if the scene asks for one, and returns
// their mesh at time t for the preview (nil without one).
func (c *colliderOutput) frame(f int, t float64) (*geom.Mesh, error) {
	if c == nil {
		return nil, nil
	}
	m, err := c.meshes.At(t)
	if err != nil {
		return nil, err
	}
	if pattern := c.sc.ColliderMesh; pattern != "" {
		if err := writeMeshFile(c.sc, pattern, f, t, m, "colliders"); err != nil {
			return nil, err
		}
	}
	if !c.preview {
		return nil, nil
	}
	return m, nil
}
