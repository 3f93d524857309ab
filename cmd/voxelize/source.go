package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/gltf"
	"snowtools/levelset/geom"
)

// source is an animated mesh: numbered frames that each give a mesh of the same
// topology. Frame n is at n/fps seconds, the rule of every file the tools read and
// write: a glTF's frames are numbered by their times (Blender writes its frame 1 at
// 1/24 s at 24 fps), an OBJ or STL sequence's by its file names.
type source interface {
	Frames() []int                      // every frame the source holds, ascending
	Mesh(frame int) (*geom.Mesh, error) // positions and triangles, no velocities
	Name() string                       // what the logs call it
	Origin(frame int) string            // what a frame's file says it comes from
}

// openSource reads what the user named: a glTF/GLB file (its animation sampled at
// fps, clip chosen by name), or an OBJ/STL file or sequence (name.####.obj,
// name.%04d.stl, or any one frame of a numbered sequence such as Blender's name1.obj).
func openSource(path string, fps float64, clip string) (source, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".gltf", ".glb":
		if _, isPattern, _ := seq.ParsePattern(path); !isPattern {
			return openGLTF(path, fps, clip)
		}
	case ".obj", ".stl":
	default:
		return nil, fmt.Errorf("%s: unknown mesh format %q: use .gltf, .glb, .obj or .stl", path, ext)
	}
	if clip != "" {
		return nil, fmt.Errorf("-clip %q: only glTF files have clips", clip)
	}
	frames, err := seq.Find(path)
	if err != nil {
		return nil, err
	}
	return &fileSequence{pattern: path, frames: frames}, nil
}

// gltfSource samples the animations of a glTF scene at fps: frame n at n/fps s.
// Its frames are first to last; a run over part of them (limit) holds only the
// numbers of those and of their neighbours, so that a clip of 1e9 s, 2.4e10 frames,
// costs nothing until it is voxelized whole.
type gltfSource struct {
	path        string
	scene       *gltf.Scene
	clip        int // an animation, or gltf.AllClips or gltf.RestPose
	fps         float64
	first, last int // the clip's frames
	lo, hi      int // the frames Frames lists between first and last
}

func openGLTF(path string, fps float64, clipName string) (*gltfSource, error) {
	scene, err := gltf.Open(path)
	if err != nil {
		return nil, err
	}
	s := &gltfSource{path: path, scene: scene, clip: gltf.RestPose, fps: fps}
	clips := scene.Clips()
	switch {
	case clipName != "":
		if s.clip, err = scene.ClipByName(clipName); err != nil {
			return nil, err
		}
		clips = clips[s.clip : s.clip+1]
	case len(clips) == 1:
		s.clip = 0
	case len(clips) > 1:
		s.clip = gltf.AllClips
	}
	if len(clips) > 0 {
		start, end := clips[0].Start, clips[0].End
		for _, c := range clips[1:] {
			start, end = min(start, c.Start), max(end, c.End)
		}
		if t := max(math.Abs(start), math.Abs(end)); !(t*fps < maxFrameNumber) {
			return nil, fmt.Errorf("%s: ends at %.6g s, frame %.3g at %g fps: frame numbers must stay below %.3g",
				s.Name(), end, t*fps, fps, float64(maxFrameNumber))
		}
		s.first, s.last = clipFrames(start, end, fps)
	}
	s.lo, s.hi = s.first, s.last
	return s, nil
}

// maxFrameNumber bounds the frame numbers of a glTF clip: a key time of 3e38 s
// overflowed int(math.Floor(t * fps)). Every float64 frame time below it is exact.
const maxFrameNumber = 1 << 53

// limit keeps, of the frames between the clip's first and last, only frames lo-1 to
// hi+1: a run over frames lo to hi needs no others (a frame's velocity needs its
// neighbours). The clip's first and last frames stay, for the messages and -res.
func (s *gltfSource) limit(lo, hi float64) {
	s.lo, s.hi = int(max(lo-1, float64(s.first))), int(min(hi+1, float64(s.last)))
	if s.lo > s.hi { // none selected: the ends alone
		s.lo, s.hi = s.first, s.first
	}
}

// checkFrameCount refuses a source that lists more than maxFrames frames, or more
// than the budget holds at frameSlotBytes each, before Frames lists them.
func (s *gltfSource) checkFrameCount(b budget.Budget) error {
	n := s.hi - s.lo + 3
	what := fmt.Sprintf("%s: frames %d-%d (%.6g s to %.6g s at %g fps)", s.Name(), s.lo, s.hi,
		float64(s.lo)/s.fps, float64(s.hi)/s.fps, s.fps)
	if n > maxFrames {
		return fmt.Errorf("%s: %d frames, more than %g: voxelize part of it with -frames A-B", what, s.hi-s.lo+1, float64(maxFrames))
	}
	return b.Check(what, int64(n)*frameSlotBytes)
}

// maxFrames is the most frames one voxelize run lists: a clip longer than that
// (115 hours at 24 fps) is voxelized in parts with -frames.
const maxFrames = 10_000_000

// frameSlotBytes is what a run holds per frame before voxelizing any: the source's
// list of frame numbers, renumbered with -start, and the run's selection.
const frameSlotBytes = 3 * 8

// clipNote says which animations a glTF source plays when the file has several:
// all at once (Blender's whole-scene export writes one per action, each moving its
// own objects, and playing only the first froze the others), or the one -clip
// named. "" for files with one animation or none.
func (s *gltfSource) clipNote() string {
	clips := s.scene.Clips()
	if len(clips) < 2 {
		return ""
	}
	names := make([]string, len(clips))
	for i, c := range clips {
		names[i] = fmt.Sprintf("%q", c.Name)
	}
	if s.clip == gltf.AllClips {
		return fmt.Sprintf("%s has %d animations, played together: %s (-clip NAME plays one)", s.path, len(clips), strings.Join(names, ", "))
	}
	return fmt.Sprintf("%s has %d animations; -clip plays %q alone, not %s", s.path, len(clips), clips[s.clip].Name,
		strings.Join(slices.Delete(names, s.clip, s.clip+1), ", "))
}

// keyTimeTolerance is how far from a whole frame, in frames, a clip's ends may fall
// and still count as that frame: glTF stores key times as float32, so Blender's
// frame 24 at 24 fps comes as 0.99999994 or 1.0000001 s, and frame 10 as
// 0.41666666 s, a millionth of a frame short of 10/24 s.
const keyTimeTolerance = 1e-3

// clipFrames returns the first and last frames (frame n at n/fps s) inside a clip
// from start to end seconds, an end within keyTimeTolerance of a frame counting as
// that frame. A clip shorter than a frame gives its first frame alone.
func clipFrames(start, end, fps float64) (first, last int) {
	first = int(math.Ceil(start*fps - keyTimeTolerance))
	last = int(math.Floor(end*fps + keyTimeTolerance))
	return first, max(first, last)
}

// Frames lists the clip's frames first to last, or, after limit, the first, the
// frames limit kept and the last.
func (s *gltfSource) Frames() []int {
	f := make([]int, 0, s.hi-s.lo+3)
	if s.first < s.lo {
		f = append(f, s.first)
	}
	for n := s.lo; n <= s.hi; n++ {
		f = append(f, n)
	}
	if s.last > s.hi {
		f = append(f, s.last)
	}
	return f
}

func (s *gltfSource) Mesh(frame int) (*geom.Mesh, error) {
	return s.scene.Mesh(s.clip, float64(frame)/s.fps)
}

func (s *gltfSource) Name() string {
	switch s.clip {
	case gltf.RestPose:
		return s.path
	case gltf.AllClips:
		return s.path + " (all animations)"
	}
	return fmt.Sprintf("%s (clip %q)", s.path, s.scene.Clips()[s.clip].Name)
}

// Origin names the file, the clip and the time sampled.
func (s *gltfSource) Origin(frame int) string {
	return fmt.Sprintf("%s at %.6g s", s.Name(), float64(frame)/s.fps)
}

// renumbered is a source whose frames are numbered from first on (-start), each
// still the mesh of the source's frame it replaces.
type renumbered struct {
	source
	shift int // added to the source's numbers
}

// renumber returns src with its first frame numbered first.
func renumber(src source, first int) source {
	shift := first - src.Frames()[0]
	if shift == 0 {
		return src
	}
	return &renumbered{src, shift}
}

func (r *renumbered) Frames() []int {
	f := r.source.Frames()
	for i := range f {
		f[i] += r.shift
	}
	return f
}

func (r *renumbered) Mesh(frame int) (*geom.Mesh, error) { return r.source.Mesh(frame - r.shift) }

// Origin names the source frame as well: the number moved.
func (r *renumbered) Origin(frame int) string {
	return fmt.Sprintf("%s (source frame %d)", r.source.Origin(frame-r.shift), frame-r.shift)
}

// fileSequence is one mesh file per frame.
type fileSequence struct {
	pattern string
	frames  []seq.Frame
}

func (s *fileSequence) Frames() []int {
	f := make([]int, len(s.frames))
	for i, fr := range s.frames {
		f[i] = fr.Number
	}
	return f
}

func (s *fileSequence) Name() string { return s.pattern }

// Origin is the frame's own file.
func (s *fileSequence) Origin(frame int) string { return s.path(frame) }

func (s *fileSequence) Mesh(frame int) (*geom.Mesh, error) {
	return meshfile.Read(s.path(frame))
}

// path returns the file of a frame that Frames listed.
func (s *fileSequence) path(frame int) string {
	i, _ := slices.BinarySearchFunc(s.frames, frame, func(f seq.Frame, n int) int { return f.Number - n })
	return s.frames[i].Path
}
