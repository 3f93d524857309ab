package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"snowtools/cmd/internal/collidermesh"
	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
)

// colliderOutput meshes a scene's colliders at each frame's time, for the preview
// and for the [output] colliders files (OBJ or PLY, for export -mesh and DCCs).
type colliderOutput struct {
	sc      *scene.Scene
	box     geom.Box // where planes are cut
	preview bool
}

// newColliderOutput prepares the colliders' meshes of sc for a run with or without
// a preview; nil when neither the preview nor the scene needs them. Colliders it
// cannot draw (VDB level sets) are named on log; a colliders file with none to draw
// is an error.
func newColliderOutput(sc *scene.Scene, preview bool, log io.Writer) (*colliderOutput, error) {
	if sc.ColliderMesh == "" && (!preview || len(sc.Bodies) == 0) {
		return nil, nil
	}
	undrawn := collidermesh.Undrawn(sc.Bodies)
	if sc.ColliderMesh != "" && len(undrawn) == len(sc.Bodies) {
		return nil, fmt.Errorf("output.colliders = %q: the scene has no collider to mesh (VDB level sets are not meshed)", sc.ColliderMesh)
	}
	if len(undrawn) > 0 {
		fmt.Fprintf(log, "snowsim: %s not drawn: VDB level sets are not meshed\n", strings.Join(undrawn, ", "))
	}
	return &colliderOutput{sc: sc, box: collidermesh.Box(sc), preview: preview}, nil
}

// frame writes frame f's colliders file, if the scene asks for one, and returns
// their mesh at time t for the preview (nil without one).
func (c *colliderOutput) frame(f int, t float64) (*geom.Mesh, error) {
	if c == nil {
		return nil, nil
	}
	m := collidermesh.At(c.sc.Bodies, t, c.box)
	if pattern := c.sc.ColliderMesh; pattern != "" {
		write := func(w io.Writer) error { return writeMeshPLY(w, m, "snowsim colliders, metres, Y up") }
		if filepath.Ext(pattern) == ".obj" {
			write = func(w io.Writer) error { return writeMeshOBJ(w, m) }
		}
		if err := writeFrameFile(c.sc.OutDir, pattern, f, write); err != nil {
			return nil, err
		}
	}
	if !c.preview {
		return nil, nil
	}
	return m, nil
}
