package main

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/gltf"
	"snowtools/levelset/geom"
)

// source is an animated mesh: numbered frames that each give a mesh of the same
// topology. Frame f is at (f - first)/fps seconds, first being the source's first
// frame, whatever part of it a run voxelizes.
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

// gltfSource samples one clip of a glTF scene at fps.
type gltfSource struct {
	path  string
	scene *gltf.Scene
	clip  int // -1: the scene has no animation
	start float64
	fps   float64
	count int
}

func openGLTF(path string, fps float64, clipName string) (*gltfSource, error) {
	scene, err := gltf.Open(path)
	if err != nil {
		return nil, err
	}
	s := &gltfSource{path: path, scene: scene, clip: gltf.RestPose, fps: fps, count: 1}
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
		s.start = start
		s.count = clipFrames(end-start, fps)
	}
	return s, nil
}

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

// keyTimeTolerance is how far from a whole frame, in frames, a clip's end may fall
// and still count as that frame: glTF stores key times as float32, so Blender's
// frame 24 at 24 fps comes as 0.99999994 or 1.0000001 s, and frame 10 as
// 0.41666666 s, a millionth of a frame short of 10/24 s.
const keyTimeTolerance = 1e-3

// clipFrames returns how many frames 1..n cover a clip of the given duration at fps:
// the last at or just before its end, an end within keyTimeTolerance of a frame
// counting as that frame.
func clipFrames(duration, fps float64) int {
	return int(math.Floor(duration*fps+keyTimeTolerance)) + 1
}

func (s *gltfSource) Frames() []int {
	f := make([]int, s.count)
	for i := range f {
		f[i] = i + 1
	}
	return f
}

func (s *gltfSource) Mesh(frame int) (*geom.Mesh, error) {
	return s.scene.Mesh(s.clip, s.start+float64(frame-1)/s.fps)
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
	return fmt.Sprintf("%s at %.6g s", s.Name(), s.start+float64(frame-1)/s.fps)
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
