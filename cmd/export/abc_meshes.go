package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"snowtools/cmd/internal/meshfile"
)

// -to abc with a mesh sequence for input (snowsim's ground.####.ply or .obj, its
// colliders, export's surface meshes) writes ONE Alembic archive holding a PolyMesh
// object named after the sequence (/ground), a sample per frame, each with its own
// topology (the ground's "touched" area grows). The samples are in metres, Y up, as
// our other .abc output: the axes and unit that a file's header comment states
// (meshfile.FrameComment: [output] up and scale) are undone. The frame rate comes
// from the comments' frame times, else from -fps. Vertex velocities are not written:
// the ground's topology may change from frame to frame, so a vertex has no
// neighbour in the next frame to difference with.

// isMeshInput reports whether the input names meshes (by extension) rather than
// PRT particle frames.
func isMeshInput(input string) bool {
	return slices.Contains(meshfile.Extensions, strings.ToLower(filepath.Ext(input)))
}

// checkMeshInput refuses the flags of -to abc that are about particles.
func (s *settings) checkMeshInput() error {
	switch {
	case len(s.keep) > 0 || len(s.drop) > 0:
		return errors.New("-keep, -drop: a mesh sequence has no channels")
	case s.mass != 0 || s.view.radius != 0:
		return errors.New("-mass, -radius: they size particles, and the input is a mesh sequence")
	}
	return nil
}

// meshSequenceConverter writes the frames' meshes to the archive.
type meshSequenceConverter struct {
	archive  *meshArchive
	fps      float64
	comments []meshfile.FrameComment // each job's, by index; HasAxes false where unknown
}

// newMeshSequenceConverter reads the header comments of every frame (the headers
// only), decides the frame rate and prepares the archive.
func newMeshSequenceConverter(s *settings, jobs []job) (*meshSequenceConverter, error) {
	a, err := newArchive(s.abc.output, jobs)
	if err != nil {
		return nil, err
	}
	c := &meshSequenceConverter{
		archive:  &meshArchive{archive: a, name: objectName(s.input, "mesh")},
		comments: make([]meshfile.FrameComment, len(jobs)),
	}
	timed := make([]bool, len(jobs))
	for i, j := range jobs {
		texts, err := meshfile.Comments(j.in.Path)
		if err != nil {
			return nil, fmt.Errorf("frame %d (%s): %v", j.in.Number, j.in.Path, err)
		}
		c.comments[i], timed[i] = meshfile.ParseFrameComment(texts)
	}
	if c.fps, err = meshFrameRate(jobs, c.comments, timed, s.abc.fps); err != nil {
		return nil, err
	}
	return c, nil
}

// meshFrameRate returns the sequence's frame rate: n/t from the first comment of a
// frame n != 0 at time t (snowsim writes frame n at n/fps s), rounded to 1/1000 fps
// when within 1e-9 of it, as snowsim's FrameRate metadata is; else -fps (given).
// Every comment's time must then be its file's frame number over that rate (within
// 1e-6 frames): the archive's uniform sampling puts each sample there.
func meshFrameRate(jobs []job, comments []meshfile.FrameComment, timed []bool, given float64) (float64, error) {
	fps := 0.0
	for i, c := range comments {
		if timed[i] && c.Frame != 0 && c.Time != 0 {
			fps = float64(c.Frame) / c.Time
			if r := math.Round(fps*1000) / 1000; math.Abs(r-fps) <= 1e-9*r {
				fps = r
			}
			break
		}
	}
	switch {
	case fps <= 0 && given == 0:
		return 0, errors.New("the meshes' header comments give no frame time (\"frame N time T\", as snowsim writes them, at a frame other than 0): give the sequence's frame rate with -fps")
	case fps <= 0:
		fps = given
	case given > 0 && math.Abs(fps-given) > 1e-9*fps:
		return 0, fmt.Errorf("-fps %g: the meshes' comments say %g fps", given, fps)
	}
	for i, j := range jobs {
		if !timed[i] {
			continue
		}
		if n := comments[i].Time * fps; math.Abs(n-float64(j.in.Number)) > 1e-6 {
			return 0, fmt.Errorf("frame %d (%s): its comment says time %g s, frame %.6g at %g fps: the file is not frame %d of this sequence",
				j.in.Number, j.in.Path, comments[i].Time, n, fps, j.in.Number)
		}
	}
	return fps, nil
}

// convert reads a frame's mesh, brings it into metres, Y up, and appends it to the
// archive in frame order.
func (c *meshSequenceConverter) convert(j job, _ int) result {
	m, err := meshfile.Read(j.in.Path)
	if err == nil {
		if comment := c.comments[j.index]; comment.HasAxes {
			comment.Axes.Apply(m)
		}
	}
	if err = c.archive.write(j.index, m, c.fps, err); err != nil {
		return result{err: err}
	}
	return result{particles: len(m.Positions)}
}

func (c *meshSequenceConverter) finish(log io.Writer) error {
	if unknown := c.unknownAxes(); unknown > 0 {
		fmt.Fprintf(log, "export: %d of %d meshes do not state their axes and unit in a header comment: their coordinates are kept as written\n",
			unknown, len(c.comments))
	}
	return c.archive.finish(log)
}

// unknownAxes counts the frames whose comments do not state their axes.
func (c *meshSequenceConverter) unknownAxes() int {
	n := 0
	for _, comment := range c.comments {
		if !comment.HasAxes {
			n++
		}
	}
	return n
}

func (c *meshSequenceConverter) abort() { c.archive.archive.abort() }
