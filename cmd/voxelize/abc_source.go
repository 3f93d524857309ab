package main

import (
	"fmt"
	"math"
	"strings"

	"snowtools/cmd/internal/meshfile"
	"snowtools/levelset/geom"
)

// abcSource reads the meshes of an Alembic archive that -objects chooses, in world
// space, at frame n's time n/fps (each property at its nearest sample, as Maya and
// Houdini show a frame), over the time span of their samples. Its fps is the
// archive's own (its time sampling's) unless -fps gives another. A mesh that stores
// .velocities gives them (with its transform's motion); others are differenced
// between frames as every other input is.
type abcSource struct {
	timeline
	archive *meshfile.Alembic
	notes   []string // what the log should say about the frame rate
}

// openAlembic opens an archive, chooses its meshes by the -objects patterns, and
// numbers its frames: at the archive's frame rate, unless -fps is given (fpsGiven)
// or the archive says none (acyclic samples only), when fps is used.
func openAlembic(path string, patterns []string, fps float64, fpsGiven bool) (*abcSource, error) {
	a, err := meshfile.OpenAlembic(path, patterns)
	if err != nil {
		return nil, err
	}
	s := &abcSource{archive: a}
	switch {
	case !a.Animated:
	case fpsGiven && a.FrameRate > 0 && math.Abs(fps-a.FrameRate) > 1e-6*fps:
		s.notes = append(s.notes, fmt.Sprintf("%s is sampled at %.6g fps; -fps %g reads each property's nearest sample at every frame", path, a.FrameRate, fps))
	case !fpsGiven && a.FrameRate > 0:
		fps = a.FrameRate
		s.notes = append(s.notes, fmt.Sprintf("%s: %.6g fps, from its time sampling (-fps to choose another)", path, fps))
	case !fpsGiven:
		s.notes = append(s.notes, fmt.Sprintf("%s: its samples are acyclic, at times that say no frame rate: frames at %g fps, each reading the nearest sample; give the DCC's with -fps", path, fps))
	}
	if a.VaryingTopology {
		s.notes = append(s.notes, fmt.Sprintf("%s: the meshes' topology changes between samples; %s", path, describeVelocities(a)))
	}
	if s.timeline, err = newTimeline(path, a.Start, a.End, fps); err != nil {
		a.Close()
		return nil, err
	}
	return s, nil
}

// describeVelocities says where velocities come from across a change of topology.
func describeVelocities(a *meshfile.Alembic) string {
	if a.HasVelocities() {
		return "velocities come from their stored .velocities"
	}
	return "they store no .velocities, so a frame takes its velocities from a neighbour of the same topology, or none (0 m/s) when neither has it"
}

func (s *abcSource) Mesh(frame int) (*geom.Mesh, error) {
	return s.archive.MeshAt(float64(frame)/s.fps, 1/s.fps)
}

func (s *abcSource) Name() string { return s.archive.Path }

// Origin names the archive and the time read.
func (s *abcSource) Origin(frame int) string {
	return fmt.Sprintf("%s at %.6g s", s.archive.Path, float64(frame)/s.fps)
}

// VaryingTopology is true: Alembic meshes may change their faces from sample to sample.
func (s *abcSource) VaryingTopology() bool { return true }

// splitPatterns reads -objects: comma-separated patterns, empty ones dropped.
func splitPatterns(text string) []string {
	var patterns []string
	for _, p := range strings.Split(text, ",") {
		if p = strings.TrimSpace(p); p != "" {
			patterns = append(patterns, p)
		}
	}
	return patterns
}
