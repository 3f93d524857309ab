package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/blendertest"
	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// An STL that Blender 3.4 writes with its defaults is Z up, in Blender's own
// coordinates: its default cube (2 m) raised 3 m is, in ours, the box x, z in [-1, 1],
// y in [2, 4] and comes in sideways without -up z (issue 22's third failure). -scale
// turns centimetres into metres.
func TestVoxelizeBlenderSTLZUp(t *testing.T) {
	dir := t.TempDir()
	stl := filepath.Join(dir, "cube.stl")
	blendertest.Run(t, `
import bpy, sys
path = sys.argv[sys.argv.index("--") + 1]
cube = bpy.data.objects["Cube"]
cube.location = (0, 0, 3)
bpy.ops.object.select_all(action="DESELECT")
cube.select_set(True)
bpy.ops.export_mesh.stl(filepath=path, use_selection=True)
print("SNOWTOOLS wrote", path)
`, stl)
	inside := func(file string, p geom.Vec3) bool {
		s := levelset.NewFloatSampler(readVDB(t, file).Grid("surface").Float)
		return s.Sample(p) < 0
	}
	up, sideways := geom.Vec3{0, 3, 0}, geom.Vec3{0, 0, 3}

	out := filepath.Join(dir, "z.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.1", "-up", "z", "-o", out, stl); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	if !inside(out, up) || inside(out, sideways) {
		t.Errorf("-up z: the cube is not at y = 3 (inside at (0,3,0): %v, at (0,0,3): %v)", inside(out, up), inside(out, sideways))
	}
	out = filepath.Join(dir, "y.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.1", "-o", out, stl); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	if inside(out, up) || !inside(out, sideways) {
		t.Errorf("without -up z the file's Z stays our Z: inside at (0,3,0): %v, at (0,0,3): %v", inside(out, up), inside(out, sideways))
	}
	out = filepath.Join(dir, "cm.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.001", "-up", "z", "-scale", "0.01", "-o", out, stl); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	if !inside(out, geom.Vec3{0, 0.03, 0}) || inside(out, geom.Vec3{0, 0.045, 0}) {
		t.Error("-scale 0.01: the cube is not 2 cm across at y = 3 cm")
	}
}

func TestVoxelizeAxesFlags(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "c", 1, 0, 0)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-voxel", "0.1", "-up", "x", filepath.Join(dir, "c1.obj")}, `-up "x": use y or z`},
		{[]string{"-voxel", "0.1", "-scale", "0", filepath.Join(dir, "c1.obj")}, "-scale 0: must be > 0"},
		{[]string{"-voxel", "0.1", "-up", "z", filepath.Join(dir, "box.glb")}, "-up z: " + filepath.Join(dir, "box.glb") + " is glTF"},
	} {
		if code, log := runVoxelize(t, c.args...); code != 2 || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, %q; want a usage error with %q", c.args, code, log, c.want)
		}
	}
}

// A clip whose ends are whole frames in float32, as Blender writes key times, keeps
// those frames (issue 22's fourth failure: 10/24 s in float32 is a millionth of a
// frame short, and the last frame was dropped); a clip ending well between frames
// does not gain one. Frame n is at n/fps: Blender's frame 1, at 1/24 s in float32,
// is frame 1 (issue 22's sixth failure: glTF frames were renumbered from 1 at the
// clip's start, one off from Blender and from snowsim).
func TestClipFramesFromFloat32Times(t *testing.T) {
	for _, c := range []struct {
		start, end  float32
		fps         float64
		first, last int
	}{
		{0, float32(10.0 / 24), 24, 0, 10},
		{float32(1.0 / 24), float32(24.0 / 24), 24, 1, 24},
		{0, float32(1.0) - 1e-7, 24, 0, 24}, // 0.99999994 s
		{float32(1.0 / 30), float32(249.0 / 30), 30, 1, 249},
		{0, float32(10.5 / 24), 24, 0, 10},
		{float32(0.5 / 24), float32(10.99 / 24), 24, 1, 10},
		{float32(3.0 / 24), float32(3.0 / 24), 24, 3, 3},
		{float32(3.2 / 24), float32(3.5 / 24), 24, 4, 4}, // shorter than a frame: one frame
	} {
		first, last := clipFrames(float64(c.start), float64(c.end), c.fps)
		if first != c.first || last != c.last {
			t.Errorf("a clip of %.9g-%.9g s at %g fps: frames %d-%d, want %d-%d", c.start, c.end, c.fps, first, last, c.first, c.last)
		}
	}
}

// Blender 3.4's glTF export of a scene whose two cubes each have their own action
// writes one animation per action; voxelize plays them together, so both cubes move
// (issue 22's second failure: only the first played, the other stayed put), and says
// so on stderr.
func TestVoxelizeBlenderGLTFPlaysEveryAnimation(t *testing.T) {
	dir := t.TempDir()
	glb := filepath.Join(dir, "two.glb")
	blendertest.Run(t, `
import bpy, sys
path = sys.argv[sys.argv.index("--") + 1]
scene = bpy.context.scene
scene.frame_start, scene.frame_end = 1, 25
a = bpy.data.objects["Cube"]
a.name = "Mover"
bpy.ops.mesh.primitive_cube_add(location=(0, 5, 0))
b = bpy.context.object
b.name = "Riser"
for obj, axis in ((a, 0), (b, 2)):
    start = obj.location[axis]
    scene.frame_set(1)
    obj.keyframe_insert("location", index=axis, frame=1)
    obj.location[axis] = start + 2
    obj.keyframe_insert("location", index=axis, frame=25)
    obj.animation_data.action.name = obj.name + "Action"
for o in list(bpy.data.objects):
    if o.type != "MESH":
        bpy.data.objects.remove(o)
bpy.ops.export_scene.gltf(filepath=path, export_format="GLB")
print("SNOWTOOLS", [act.name for act in bpy.data.actions])
`, glb)
	out := filepath.Join(dir, "two.####.vdb")
	code, log := runVoxelize(t, "-voxel", "0.1", "-o", out, glb)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	if !strings.Contains(log, "2 animations, played together") {
		t.Errorf("no note of the animations played: %s", log)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "two.*.vdb"))
	if len(files) != 25 {
		t.Fatalf("%d frames, want 25 (Blender's 1-25): %v", len(files), files)
	}
	// The files carry Blender's frame numbers, frame n at n/24 s (issue 22's sixth
	// failure: they were renumbered from 1 at the clip's start).
	if first, lastName := filepath.Base(files[0]), filepath.Base(files[24]); first != "two.0001.vdb" || lastName != "two.0025.vdb" {
		t.Errorf("files %s to %s, want Blender's frames two.0001.vdb to two.0025.vdb", first, lastName)
	}
	if meta := readVDB(t, files[24]).Meta; meta["frame"] != int32(25) || math.Abs(meta["time"].(float64)-25.0/24) > 1e-12 {
		t.Errorf("frame 25's metadata: %v, want frame 25 at %g s", meta, 25.0/24)
	}
	last := levelset.NewFloatSampler(readVDB(t, files[len(files)-1]).Grid("surface").Float)
	// Blender's (x, y, z) is glTF's (x, z, -y): the mover ends at x = 2, the riser,
	// from (0, 5, 0), at (0, 2, -5).
	for _, c := range []struct {
		p      geom.Vec3
		inside bool
	}{
		{geom.Vec3{2, 0, 0}, true}, {geom.Vec3{0, 2, -5}, true},
		{geom.Vec3{-0.5, 0, 0}, false}, {geom.Vec3{0, -0.5, -5}, false},
	} {
		if got := last.Sample(c.p) < 0; got != c.inside {
			t.Errorf("last frame: inside at %v is %v, want %v", c.p, got, c.inside)
		}
	}
}

// An OBJ sequence carries no frame rate, nor does a glTF (its times become frame
// numbers by the rate): without -fps, voxelize says which it assumed (issue 22's
// fifth failure: a 30 fps sequence got velocities scaled by 24/30, silently); with
// -fps, or for one file, it says nothing.
func TestVoxelizeNamesTheAssumedFrameRate(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "c", 3, 0.1, 0)
	for _, c := range []struct {
		args []string
		note bool
	}{
		{[]string{"-voxel", "0.1", "-o", filepath.Join(dir, "a.####.vdb"), filepath.Join(dir, "c1.obj")}, true},
		{[]string{"-voxel", "0.1", "-fps", "30", "-o", filepath.Join(dir, "b.####.vdb"), filepath.Join(dir, "c1.obj")}, false},
		{[]string{"-voxel", "0.1", "-frames", "2", "-o", filepath.Join(dir, "d.vdb"), filepath.Join(dir, "c1.obj")}, true},
		// A glTF's times become frame numbers by the rate: a 30 fps scene read at 24
		// fps is renumbered, so the rate assumed is named too (found by review).
		{[]string{"-voxel", "0.1", "-frames", "3", "-o", filepath.Join(dir, "p.vdb"), filepath.Join("..", "..", "examples", "paddle.gltf")}, true},
		{[]string{"-voxel", "0.1", "-fps", "30", "-frames", "3", "-o", filepath.Join(dir, "q.vdb"), filepath.Join("..", "..", "examples", "paddle.gltf")}, false},
	} {
		code, log := runVoxelize(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, log)
		}
		if got := strings.Contains(log, "24 fps assumed"); got != c.note {
			t.Errorf("%v: note %v, want %v: %s", c.args, got, c.note, log)
		}
	}
}

// -start renumbers the frames, each still the mesh of the source frame it replaces,
// with its time at the new number over fps; -frames selects by the new numbers.
func TestVoxelizeStartRenumbers(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "cube", 4, 0.05, 0) // cube1.obj .. cube4.obj, moving 5 cm a frame
	out := filepath.Join(dir, "out", "cube.####.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.05", "-fps", "10", "-start", "1001", "-frames", "1002-1003", "-o", out, filepath.Join(dir, "cube1.obj")); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "out", "*.vdb"))
	if len(files) != 2 || filepath.Base(files[0]) != "cube.1002.vdb" || filepath.Base(files[1]) != "cube.1003.vdb" {
		t.Fatalf("wrote %v, want cube.1002.vdb and cube.1003.vdb", files)
	}
	renumbered := readVDB(t, files[0])
	if renumbered.Meta["frame"] != int32(1002) || math.Abs(renumbered.Meta["time"].(float64)-100.2) > 1e-9 ||
		!strings.Contains(renumbered.Meta["source"].(string), "cube2.obj") {
		t.Errorf("frame 1002's metadata: %v, want frame 1002 at 100.2 s from cube2.obj", renumbered.Meta)
	}
	// The same mesh as the plain run's frame 2.
	plain := filepath.Join(dir, "plain.####.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.05", "-fps", "10", "-frames", "2", "-o", plain, filepath.Join(dir, "cube1.obj")); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	a := levelset.NewFloatSampler(renumbered.Grid("surface").Float)
	b := levelset.NewFloatSampler(readVDB(t, filepath.Join(dir, "plain.0002.vdb")).Grid("surface").Float)
	for _, p := range []geom.Vec3{{0, 0, 0}, {0.1, 0.05, 0}, {0.3, 0.1, 0.1}} {
		if a.Sample(p) != b.Sample(p) {
			t.Errorf("at %v: phi %g renumbered, %g plain", p, a.Sample(p), b.Sample(p))
		}
	}
	if code, log := runVoxelize(t, "-voxel", "0.05", "-start", "-1", filepath.Join(dir, "cube1.obj")); code != 2 || !strings.Contains(log, "-start -1: must be >= 0") {
		t.Errorf("-start -1: exit %d, %s", code, log)
	}
}

// A glTF animation starting at t = 0 starts at frame 0, as snowsim's frames do, so
// the colliders and the snow of one time share a number (issue 22's sixth failure:
// voxelize renumbered glTF frames from 1, and export -mesh found "no frame 0").
func TestVoxelizeGLTFStartsAtFrameZero(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "paddle.####.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.1", "-fps", "24", "-frames", "0-1", "-o", out, filepath.Join("..", "..", "examples", "paddle.gltf")); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	for f, want := range []float64{0, 1.0 / 24} {
		meta := readVDB(t, filepath.Join(dir, fmt.Sprintf("paddle.%04d.vdb", f))).Meta
		if meta["frame"] != int32(f) || math.Abs(meta["time"].(float64)-want) > 1e-12 {
			t.Errorf("paddle.%04d.vdb: %v, want frame %d at %g s", f, meta, f, want)
		}
	}
}
