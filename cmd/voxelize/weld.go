package main

import (
	"fmt"
	"slices"

	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

// welder welds each frame's vertices by position (voxelize.Welded) and keeps the
// topology of the welded triangles, which the frames of a sequence share until the
// weld changes (two vertices that met part, or parts that were apart meet).
type welder struct {
	triangles [][3]int32     // the welded triangles topo belongs to
	topo      *geom.Topology // their topology
	merged    int            // vertices the latest frame's weld merged
	vertices  int            // of so many
	signLine  string         // the last sign note logged, without its frame
}

// weld returns m welded within tolerance metres, and updates topo.
func (w *welder) weld(m *geom.Mesh, tolerance float64) (*geom.Mesh, error) {
	welded, merged, err := voxelize.Welded(m, tolerance)
	if err != nil {
		return nil, err
	}
	w.merged, w.vertices = merged, len(m.Positions)
	if w.topo == nil || !slices.Equal(welded.Triangles, w.triangles) {
		w.triangles, w.topo = welded.Triangles, geom.NewTopology(welded.Triangles)
	}
	return welded, nil
}

// signNote says which sign method the frame got and why, the first time and
// whenever the method or the reason changes: one line, not one a frame.
func (w *welder) signNote(frame int, s *settings, sign voxelize.SignMethod) string {
	weld := "by position"
	if s.weld > 0 {
		weld = fmt.Sprintf("within %g m", s.weld)
	}
	shape := "closed"
	if !w.topo.Closed {
		shape = fmt.Sprintf("open (%d boundary and %d non-manifold edges)", w.topo.BoundaryEdges, w.topo.NonManifoldEdges)
	}
	method := "pseudonormal signs"
	if sign == voxelize.SignWinding {
		method = "winding-number signs"
	}
	if s.sign != voxelize.SignAuto {
		method += " (-sign)"
	}
	line := fmt.Sprintf("the mesh welded %s is %s: %s", weld, shape, method)
	if line == w.signLine {
		return ""
	}
	w.signLine = line
	return fmt.Sprintf("frame %d: %s; the weld merged %d of %d vertices", frame, line, w.merged, w.vertices)
}
