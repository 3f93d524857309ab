package scene

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/seq"
	"snowtools/levelset/geom"
	"snowtools/simcore"
	"snowtools/simcore/collider"
	"snowtools/simcore/heightfield"
)

// Scene is a loaded, validated scene, ready to simulate.
type Scene struct {
	Config    simcore.Config
	FPS       float64
	Start     int // the first frame's number: its initial state, at Start/FPS seconds
	Frames    int // frames after the first
	OutDir    string
	Pattern   string // file name with #### or %04d for the frame number
	Sources   []simcore.Source
	Materials map[string]simcore.Material // the presets and the scene's own, by name
	// Sequences are the deforming colliders read from voxelize's files; they are in
	// the colliders too, and the frame loop hands them their keyframes
	// (collider.AdvanceTo).
	Sequences []*collider.Sequence
	// Channels are the frame channels of FrameChannels that output.channels asks for,
	// as the scene lists them; frames carry only the others unless asked.
	Channels []string
	// Bodies are the [[collider]] tables in order, as pictures draw them; their
	// Colliders are the solver's (Config.Colliders, or Ground.Config.Colliders).
	Bodies []ColliderBody
	// ColliderMesh is the file pattern of the colliders' meshes, written per frame
	// beside the particles ([output] colliders); "" for none.
	ColliderMesh string
	// MeshAxes are the axes and unit of the meshes snowsim writes (colliders, ground),
	// [output] up and scale, for DCCs that are Z up or not in metres.
	MeshAxes geom.Axes
	// Memory is the run's memory budget from solver.memory; Bytes is 0 when the
	// scene does not set it (the -memory flag replaces it).
	Memory budget.Budget
	// Ground, when not nil, makes this a ground scene: Ground.Config holds the
	// ground's settings and colliders, and Config, Sources and Materials are empty.
	Ground *GroundScene
}

// GroundScene is what a ground scene adds to Scene.
type GroundScene struct {
	Config    heightfield.Config
	Mesh      string // file pattern of the ground meshes; "" for none
	HeightMap string // file pattern of the height maps; "" for none
	Touched   bool   // write only the columns the simulation created
	Low, High float64
}

// Last returns the last frame's number. Frame n is at n/FPS seconds, in every file
// the tools read or write: a scene that starts at frame 1 starts at 1/FPS s, as
// Blender's frame 1 does.
func (sc *Scene) Last() int { return sc.Start + sc.Frames }

// Read decodes, loads and validates a scene. name is the scene file's path: errors
// start with it, and the files the scene names are found from its folder (a name
// without a folder, such as a built-in scene's, looks in the current one).
// resolution scales the grid spacing (0.5 doubles the resolution), for -quality.
func Read(name string, r io.Reader, resolution float64) (*Scene, error) {
	l := &loader{dir: filepath.Dir(name), resolution: resolution}
	sc, err := l.read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return sc, nil
}

// read decodes a scene and loads it by its method: MPM snow, or a ground.
func (l *loader) read(r io.Reader) (*Scene, error) {
	f, err := decode(r)
	if err != nil {
		return nil, err
	}
	if err := checkValues(f); err != nil {
		return nil, err
	}
	if f.Ground != nil {
		return l.groundScene(f)
	}
	return l.snowScene(f)
}

// loader is what loading a scene needs beyond its tables.
type loader struct {
	dir        string  // where relative paths start
	resolution float64 // a factor on the grid spacing
}

// snowScene loads a scene of MPM snow: the cheap parts first, so that a mistake in
// them shows before meshes are voxelized.
func (l *loader) snowScene(f *sceneFile) (*Scene, error) {
	sc, err := framesAndOutput(f, "snow.####.prt")
	if err != nil {
		return nil, err
	}
	if sc.Channels, err = frameChannels(f.Output.Channels); err != nil {
		return nil, err
	}
	if sc.Config, err = l.solverConfig(f); err != nil {
		return nil, err
	}
	if sc.Materials, err = materials(f.Materials); err != nil {
		return nil, err
	}
	if sc.Sources, err = l.snowVolumes(f.Snow, sc.Materials, sc.Config.Domain); err != nil {
		return nil, err
	}
	if sc.Bodies, sc.Sequences, err = l.colliders(f.Collider, sc.Config.H); err != nil {
		return nil, err
	}
	sc.Config.Colliders = colliderList(sc.Bodies)
	return sc, nil
}

// framesAndOutput loads the keys both methods share: the [time] table's frame rate
// and count, and the [output] folder and file pattern.
func framesAndOutput(f *sceneFile, pattern string) (*Scene, error) {
	sc := &Scene{FPS: 24, Frames: 48, OutDir: "snowsim-out", Pattern: pattern}
	set(&sc.FPS, f.Time.FPS)
	if !(sc.FPS > 0) || math.IsInf(sc.FPS, 0) {
		return nil, keyError("time.fps", "%g: must be > 0", sc.FPS)
	}
	set(&sc.Frames, f.Time.Frames)
	if sc.Frames < 1 {
		return nil, keyError("time.frames", "%d: must be >= 1", sc.Frames)
	}
	var err error
	if sc.Memory, err = memoryBudget(f.Solver.Memory); err != nil {
		return nil, err
	}
	set(&sc.Start, f.Time.Start)
	if sc.Start < 0 {
		return nil, keyError("time.start", "%d: must be >= 0", sc.Start)
	}
	set(&sc.OutDir, f.Output.Dir)
	set(&sc.Pattern, f.Output.Pattern)
	if err := checkPattern(sc.Pattern); err != nil {
		return nil, keyError("output.pattern", "%v", err)
	}
	set(&sc.ColliderMesh, f.Output.Colliders)
	axes, err := axesKeys("output", f.Output.Up, f.Output.Scale)
	if err != nil {
		return nil, err
	}
	sc.MeshAxes = axes
	if err := checkFilePattern("output.colliders", sc.ColliderMesh, ".obj", ".ply"); err != nil {
		return nil, err
	}
	return sc, nil
}

// FrameChannels are the channels that snowsim's frames carry only when the scene's
// output.channels asks for them, beside those they always carry: RestPosition, where
// each particle was seeded, and Orientation, the rotation of its material (see
// cmd/snowsim/output.go), which point-deform workflows need.
var FrameChannels = []string{"RestPosition", "Orientation"}

// frameChannels checks the names of output.channels: each one of FrameChannels, once.
func frameChannels(names []string) ([]string, error) {
	for i, name := range names {
		if !slices.Contains(FrameChannels, name) {
			return nil, keyError("output.channels", "%q: must be %s (the channels written on request)", name, quotedList(FrameChannels))
		}
		if slices.Contains(names[:i], name) {
			return nil, keyError("output.channels", "%q is listed twice", name)
		}
	}
	return names, nil
}

// checkPattern accepts a plain file name holding exactly one frame placeholder
// (see package seq: ####, %04d, or another padding).
func checkPattern(p string) error {
	if p != filepath.Base(p) {
		return fmt.Errorf("%q: a file name, without folders (set output.dir for the folder)", p)
	}
	_, ok, err := seq.ParsePattern(p)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%q: needs one #### or %%04d for the frame number", p)
	}
	return nil
}

// path resolves a file path of the scene against the scene's folder.
func (l *loader) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(l.dir, p)
}
