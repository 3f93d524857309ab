package main

import (
	"math"
	"strconv"

	"snowtools/levelset/geom"
)

// -ground MESH (png, compare): a ground mesh drawn with the particles, such as the
// height field that snowsim's ground model writes as ground.####.ply beside the
// spray's spray.####.prt. A pattern (#### or %04d) or one file of a numbered
// sequence gives a mesh per particle frame, matched by frame number; a file that is
// not part of a sequence is the ground of every frame. A name without a folder is
// looked up in the particle input's folder (each input's, for compare), so that one
// -ground serves every run of a comparison.

// isGroundPlane reports whether a -ground value chooses the ground plane (auto, none
// or a height) rather than naming a mesh.
func isGroundPlane(text string) bool {
	if text == "auto" || text == "none" {
		return true
	}
	_, err := strconv.ParseFloat(text, 64)
	return err == nil
}

// checkGroundMesh refuses a -ground value that is neither a plane nor a mesh name.
func checkGroundMesh(text string) error {
	return checkMeshName("-ground", text, "auto, none, a height, or ")
}

// groundOf returns the box of the ground meshes of the given particle frames (the
// whole sequence for nil) and the height of the ground plane that continues them:
// the rim (preview.Mesh.RimHeight) of the first mesh with triangles, or NaN when
// every mesh is empty. The rim costs a whole mesh read and prepared.
func groundOf(g *meshSequence, frames []int, threads int) (lo, hi geom.Vec3, rim float64, err error) {
	lo, hi, nonEmpty, err := g.bounds(frames, threads)
	if err != nil {
		return lo, hi, 0, err
	}
	for _, p := range nonEmpty {
		m, err := g.loadFile(p)
		if err != nil {
			return lo, hi, 0, err
		}
		if h, ok := m.RimHeight(); ok {
			return lo, hi, h, nil
		}
	}
	return lo, hi, math.NaN(), nil
}
