package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/gltf"
	"snowtools/levelset/geom"
)

// source is an animated mesh: numbered frames that each give a mesh. Frame n is at
// n/fps seconds, the rule of every file the tools read and write: a glTF's and an
// Alembic archive's frames are numbered by their times (Blender writes its frame 1 at
// 1/24 s at 24 fps), an OBJ or STL sequence's by its file names.
type source interface {
	Frames() []int                      // every frame the source holds, ascending
	Mesh(frame int) (*geom.Mesh, error) // positions and triangles; velocities when the file stores them
	Name() string                       // what the logs call it
	Origin(frame int) string            // what a frame's file says it comes from
	// VaryingTopology reports whether the source's format lets the vertices and
	// triangles change from frame to frame (Alembic's meshes); elsewhere a change is
	// an error, as it is most likely a mistake of the export.
	VaryingTopology() bool
}

// openSource reads what the user named: a glTF/GLB file (its animation sampled at
// fps, clip chosen by name), an Alembic archive (its meshes chosen by -objects), or
// an OBJ/STL file or sequence (name.####.obj, name.%04d.stl, or any one frame of a
// numbered sequence such as Blender's name1.obj).
func openSource(s *settings) (source, error) {
	path := s.input
	ext := strings.ToLower(filepath.Ext(path))
	if ext != meshfile.AlembicExtension && len(s.objects) > 0 {
		return nil, fmt.Errorf("-objects %q: only Alembic archives (.abc) have objects to choose", strings.Join(s.objects, ","))
	}
	switch ext {
	case ".gltf", ".glb":
		if _, isPattern, _ := seq.ParsePattern(path); !isPattern {
			return openGLTF(path, s.fps, s.clip)
		}
	case meshfile.AlembicExtension:
		if s.clip != "" {
			return nil, fmt.Errorf("-clip %q: only glTF files have clips (-objects chooses an archive's meshes)", s.clip)
		}
		return openAlembic(path, s.objects, s.fps, s.fpsGiven)
	case ".obj", ".stl":
	default:
		return nil, fmt.Errorf("%s: unknown mesh format %q: use .gltf, .glb, .abc, .obj or .stl", path, ext)
	}
	if s.clip != "" {
		return nil, fmt.Errorf("-clip %q: only glTF files have clips", s.clip)
	}
	frames, err := seq.Find(path)
	if err != nil {
		return nil, err
	}
	return &fileSequence{pattern: path, frames: frames}, nil
}

// gltfSource samples the animations of a glTF scene at fps: frame n at n/fps s, over
// the clip's time span.
type gltfSource struct {
	timeline
	path  string
	scene *gltf.Scene
	clip  int // an animation, or gltf.AllClips or gltf.RestPose
}

func openGLTF(path string, fps float64, clipName string) (*gltfSource, error) {
	scene, err := gltf.Open(path)
	if err != nil {
		return nil, err
	}
	s := &gltfSource{path: path, scene: scene, clip: gltf.RestPose, timeline: timeline{fps: fps}}
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
		if s.timeline, err = newTimeline(s.Name(), start, end, fps); err != nil {
			return nil, err
		}
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

// VaryingTopology is false: a glTF mesh keeps its vertices as it moves.
func (s *gltfSource) VaryingTopology() bool { return false }

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

// VaryingTopology is false: a change between OBJ or STL files is an error.
func (s *fileSequence) VaryingTopology() bool { return false }

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
