package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/preview"
	"snowtools/cmd/internal/seq"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// checkMeshName refuses a flag's mesh name that no mesh reader knows by its
// extension, or whose frame placeholder is malformed; alternatives are what else
// the flag takes, for the message ("" for nothing).
func checkMeshName(flag, text, alternatives string) error {
	if !slices.Contains(meshfile.Extensions, strings.ToLower(filepath.Ext(text))) {
		return fmt.Errorf("%s %q: use %sa mesh file or sequence (%s)", flag, text, alternatives, strings.Join(meshfile.Extensions, ", "))
	}
	if _, _, err := seq.ParsePattern(text); err != nil {
		return fmt.Errorf("%s %v", flag, err)
	}
	return nil
}

// meshSequence is the mesh a flag (-ground, -mesh) names for one particle input: a
// sequence by frame number, or one mesh for every frame.
type meshSequence struct {
	flag    string      // the flag, for messages: -ground or -mesh
	solid   bool        // prepared as solids (preview.NewSolidMesh: sharp edges), not ground
	text    string      // its value resolved against the input's folder, for messages
	pattern seq.Pattern // when text is a pattern: the path of any frame
	frames  []seq.Frame // the sequence's files; nil for one mesh
	static  string      // the one mesh; "" for a sequence
}

// findMeshes finds the meshes of the particle input for the value text of flag: a
// pattern (#### or %04d) or one file of a numbered sequence gives a mesh per particle
// frame, matched by frame number; a file that is not part of a sequence is the mesh
// of every frame. A name without a folder is looked up in the input's folder.
func findMeshes(flag, text, input string) (*meshSequence, error) {
	if filepath.Base(text) == text {
		text = filepath.Join(filepath.Dir(input), text)
	}
	g := &meshSequence{flag: flag, text: text}
	pattern, isPattern, err := seq.ParsePattern(text)
	if err != nil {
		return nil, fmt.Errorf("%s %v", flag, err)
	}
	frames, err := seq.Find(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (a name without a folder is looked up beside the particles; write ./name for the working folder)", flag, err)
	}
	if !isPattern && len(frames) == 1 {
		g.static = frames[0].Path
		return g, nil
	}
	g.pattern, g.frames = pattern, frames
	if !isPattern {
		g.pattern = seq.Pattern{} // a sequence found from one of its files: no pattern to name others
	}
	return g, nil
}

// path returns the mesh of particle frame n, or an error naming the frame and the
// file that is missing.
func (g *meshSequence) path(n int) (string, error) {
	if g.static != "" {
		return g.static, nil
	}
	i, found := slices.BinarySearchFunc(g.frames, n, func(f seq.Frame, n int) int { return f.Number - n })
	if found {
		return g.frames[i].Path, nil
	}
	missing := "frame " + strconv.Itoa(n)
	if g.pattern != (seq.Pattern{}) {
		missing += " (" + g.pattern.Path(n) + ")"
	}
	return "", fmt.Errorf("%s %s has no %s; it has %s", g.flag, g.text, missing, describeFrames(g.frames))
}

// check makes sure every particle frame of jobs has its mesh.
func (g *meshSequence) check(jobs []job) error {
	for _, j := range jobs {
		if _, err := g.path(j.in.Number); err != nil {
			return err
		}
	}
	return nil
}

// paths returns the meshes of the given particle frames, or of the whole sequence
// for nil, each once, in frame order.
func (g *meshSequence) paths(frames []int) ([]string, error) {
	if g.static != "" {
		return []string{g.static}, nil
	}
	if frames == nil {
		paths := make([]string, len(g.frames))
		for i, f := range g.frames {
			paths[i] = f.Path
		}
		return paths, nil
	}
	var paths []string
	for _, n := range frames {
		p, err := g.path(n)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return slices.Compact(paths), nil
}

// bounds returns the box of the meshes of the given particle frames (the whole
// sequence for nil), from meshfile.Bounds, read in parallel (for PLY only the vertex
// element), and those of them with a vertex, in frame order.
func (g *meshSequence) bounds(frames []int, threads int) (lo, hi geom.Vec3, nonEmpty []string, err error) {
	paths, err := g.paths(frames)
	if err != nil {
		return lo, hi, nil, err
	}
	los, his := make([]geom.Vec3, len(paths)), make([]geom.Vec3, len(paths))
	errs := make([]error, len(paths))
	parallel.For(threads, len(paths), func(_, i int) {
		los[i], his[i], errs[i] = meshfile.Bounds(paths[i])
	})
	lo = geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Scale(-1)
	for i, p := range paths {
		if errs[i] != nil {
			return lo, hi, nil, g.fileError(p, errs[i])
		}
		if los[i][0] > his[i][0] {
			continue // no vertices
		}
		lo, hi = lo.Min(los[i]), hi.Max(his[i])
		nonEmpty = append(nonEmpty, p)
	}
	return lo, hi, nonEmpty, nil
}

// load reads and prepares the mesh of particle frame n.
func (g *meshSequence) load(n int) (*preview.Mesh, error) {
	path, err := g.path(n)
	if err != nil {
		return nil, err
	}
	return g.loadFile(path)
}

// loadFile reads and prepares the mesh in path.
func (g *meshSequence) loadFile(path string) (*preview.Mesh, error) {
	m, err := meshfile.Read(path)
	if err != nil {
		return nil, g.fileError(path, err)
	}
	prepare := preview.NewMesh
	if g.solid {
		prepare = preview.NewSolidMesh
	}
	pm, err := prepare(m)
	if err != nil {
		return nil, g.fileError(path, err)
	}
	return pm, nil
}

// fileError names the flag and the mesh file of an error (the file unless the error
// already does): "ground ground.0003.ply: ..." for -ground, "mesh ..." for -mesh.
func (g *meshSequence) fileError(path string, err error) error {
	noun := strings.TrimPrefix(g.flag, "-")
	if strings.Contains(err.Error(), path) {
		return fmt.Errorf("%s %v", noun, err)
	}
	return fmt.Errorf("%s %s: %v", noun, path, err)
}
