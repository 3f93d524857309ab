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
	if !slices.Contains(meshfile.Extensions, strings.ToLower(filepath.Ext(text))) {
		return fmt.Errorf("-ground %q: use auto, none, a height, or a mesh file or sequence (%s)",
			text, strings.Join(meshfile.Extensions, ", "))
	}
	if _, _, err := seq.ParsePattern(text); err != nil {
		return fmt.Errorf("-ground %v", err)
	}
	return nil
}

// groundMeshes is the ground mesh of one particle input: a sequence by frame number,
// or one mesh for every frame.
type groundMeshes struct {
	text    string      // -ground resolved against the input's folder, for messages
	pattern seq.Pattern // when text is a pattern: the path of any frame
	frames  []seq.Frame // the sequence's files; nil for one mesh
	static  string      // the one mesh; "" for a sequence
}

// findGround finds the ground mesh of the particle input for the -ground value text.
func findGround(text, input string) (*groundMeshes, error) {
	if filepath.Base(text) == text {
		text = filepath.Join(filepath.Dir(input), text)
	}
	g := &groundMeshes{text: text}
	pattern, isPattern, err := seq.ParsePattern(text)
	if err != nil {
		return nil, fmt.Errorf("-ground %v", err)
	}
	frames, err := seq.Find(text)
	if err != nil {
		return nil, fmt.Errorf("-ground: %v (a name without a folder is looked up beside the particles; write ./name for the working folder)", err)
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
func (g *groundMeshes) path(n int) (string, error) {
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
	return "", fmt.Errorf("-ground %s has no %s; it has %s", g.text, missing, describeFrames(g.frames))
}

// check makes sure every particle frame of jobs has its mesh.
func (g *groundMeshes) check(jobs []job) error {
	for _, j := range jobs {
		if _, err := g.path(j.in.Number); err != nil {
			return err
		}
	}
	return nil
}

// paths returns the meshes of the given particle frames, or of the whole sequence
// for nil, each once, in frame order.
func (g *groundMeshes) paths(frames []int) ([]string, error) {
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

// sceneOf returns the box of the meshes of the given particle frames (the whole
// sequence for nil) and the height of the ground plane that continues them: the rim
// (preview.Mesh.RimHeight) of the first mesh with triangles, or NaN when every mesh
// is empty. The boxes come from meshfile.Bounds, read in parallel (for PLY only the
// vertex element); the rim costs one whole mesh read and prepared.
func (g *groundMeshes) sceneOf(frames []int, threads int) (lo, hi geom.Vec3, rim float64, err error) {
	paths, err := g.paths(frames)
	if err != nil {
		return lo, hi, 0, err
	}
	los, his := make([]geom.Vec3, len(paths)), make([]geom.Vec3, len(paths))
	errs := make([]error, len(paths))
	parallel.For(threads, len(paths), func(_, i int) {
		los[i], his[i], errs[i] = meshfile.Bounds(paths[i])
	})
	lo = geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi, rim = lo.Scale(-1), math.NaN()
	for i, p := range paths {
		if errs[i] != nil {
			return lo, hi, 0, groundError(p, errs[i])
		}
		if los[i][0] > his[i][0] {
			continue // no vertices
		}
		lo, hi = lo.Min(los[i]), hi.Max(his[i])
		if math.IsNaN(rim) {
			m, err := loadGround(p)
			if err != nil {
				return lo, hi, 0, err
			}
			if h, ok := m.RimHeight(); ok {
				rim = h
			}
		}
	}
	return lo, hi, rim, nil
}

// load reads and prepares the mesh of particle frame n.
func (g *groundMeshes) load(n int) (*preview.Mesh, error) {
	path, err := g.path(n)
	if err != nil {
		return nil, err
	}
	return loadGround(path)
}

// loadGround reads and prepares the mesh in path.
func loadGround(path string) (*preview.Mesh, error) {
	m, err := meshfile.Read(path)
	if err != nil {
		return nil, groundError(path, err)
	}
	pm, err := preview.NewMesh(m)
	if err != nil {
		return nil, groundError(path, err)
	}
	return pm, nil
}

// groundError names the mesh file of an error, unless the error already does.
func groundError(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return fmt.Errorf("ground %v", err)
	}
	return fmt.Errorf("ground %s: %v", path, err)
}
