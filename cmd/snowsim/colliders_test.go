package main

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/levelset/geom"
)

// colliderScene is a small snow scene with a block sliding at 0.6 m/s along x and
// a ball on keys, both written per frame by [output] colliders.
const colliderScene = `
[domain]
min = [0, 0, 0]
max = [0.6, 0.4, 0.4]
h = 0.04

[time]
fps = 10
frames = 2

[output]
colliders = "cols.####.obj"

[[snow]]
shape = "sphere"
center = [0.3, 0.2, 0.2]
radius = 0.06

[[collider]]
shape = "box"
min = [0.0, 0.0, 0.1]
max = [0.1, 0.3, 0.3]
velocity = [0.6, 0, 0]

[[collider]]
shape = "sphere"
center = [0, 0, 0]
radius = 0.05
[[collider.key]]
time = 0
translation = [0.5, 0.1, 0.2]
[[collider.key]]
time = 0.2
translation = [0.5, 0.3, 0.2]
`

// writeScene writes a scene file into dir and returns its path.
func writeScene(t *testing.T, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "scene.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// [output] colliders writes each frame's colliders at the frame's time, and
// -preview draws them in the objects' clay, which nothing else in a picture is.
func TestCollidersAreWrittenAndDrawn(t *testing.T) {
	dir := t.TempDir()
	path := writeScene(t, dir, colliderScene)
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if code := run([]string{"-threads", "2", "-preview", "-checkpoint", "0", "-o", out, path}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for f := 0; f <= 2; f++ {
		tm := float64(f) / 10
		m, err := meshfile.Read(filepath.Join(out, frameName("cols.####.obj", f)))
		if err != nil {
			t.Fatal(err)
		}
		// The block (8 vertices) then the ball, whose poles are on its axis.
		lo, hi := (&geom.Mesh{Positions: m.Positions[:8]}).Bounds()
		wantLo, wantHi := geom.Vec3{0.6 * tm, 0, 0.1}, geom.Vec3{0.1 + 0.6*tm, 0.3, 0.3}
		if lo.Sub(wantLo).Norm() > 1e-12 || hi.Sub(wantHi).Norm() > 1e-12 {
			t.Errorf("frame %d: block from %v to %v, want %v to %v", f, lo, hi, wantLo, wantHi)
		}
		lo, hi = (&geom.Mesh{Positions: m.Positions[8:]}).Bounds()
		if y := 0.1 + tm; math.Abs(lo[1]-(y-0.05)) > 1e-12 || math.Abs(hi[1]-(y+0.05)) > 1e-12 {
			t.Errorf("frame %d: ball from y = %g to %g, want %g to %g", f, lo[1], hi[1], y-0.05, y+0.05)
		}
		img := readPNG(t, filepath.Join(out, frameName("snow.####.png", f)))
		if n := clayPixels(img); n < 2000 {
			t.Errorf("frame %d: %d clay pixels: the colliders are not drawn", f, n)
		}
	}
	// Without colliders, nothing is clay.
	noColliders := colliderScene[:strings.Index(colliderScene, "[[collider]]")]
	noColliders = strings.Replace(noColliders, `colliders = "cols.####.obj"`, "", 1)
	path = writeScene(t, dir, noColliders)
	out = filepath.Join(dir, "bare")
	if code := run([]string{"-threads", "2", "-frames", "1", "-preview", "-checkpoint", "0", "-o", out, path}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := clayPixels(readPNG(t, filepath.Join(out, "snow.0001.png"))); n != 0 {
		t.Errorf("no colliders, yet %d clay pixels", n)
	}
}

// clayPixels counts the pixels with the colliders' warm hue: red well above blue.
func clayPixels(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, _, bl, _ := img.At(x, y).RGBA()
			if r>>8 > bl>>8+30 && r>>8 > 60 {
				n++
			}
		}
	}
	return n
}

// A ground scene's preview draws its colliders too, and writes them when asked.
func TestGroundSceneColliders(t *testing.T) {
	dir := t.TempDir()
	path := writeScene(t, dir, scenetest.GroundScene)
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	args := []string{"-frames", "2", "-preview", "-set", `output.colliders="ball.####.ply"`, "-o", out, path}
	if code := run(args, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	// At t = 0.1 the ball (radius 0.05 about (0, 0.05, 0)) is at its lowest key, -0.02.
	m, err := meshfile.Read(filepath.Join(out, "ball.0002.ply"))
	if err != nil {
		t.Fatal(err)
	}
	// PLY stores float32: within 1e-8 m.
	if lo, hi := m.Bounds(); math.Abs(lo[1]+0.02) > 1e-8 || math.Abs(hi[1]-0.08) > 1e-8 {
		t.Errorf("ball from y = %g to %g at t = 0.1, want -0.02 to 0.08", lo[1], hi[1])
	}
	if n := clayPixels(readPNG(t, filepath.Join(out, "spray.0002.png"))); n < 500 {
		t.Errorf("%d clay pixels: the ball is not drawn", n)
	}
}

// The colliders key is checked with the scene, and names itself and the file.
func TestColliderOutputErrors(t *testing.T) {
	dir := t.TempDir()
	noColliders := colliderScene[:strings.Index(colliderScene, "[[collider]]")]
	for _, c := range []struct{ text, want string }{
		{strings.Replace(colliderScene, `"cols.####.obj"`, `"sub/cols.####.obj"`, 1), `output.colliders: "sub/cols.####.obj": a file name, without folders`},
		{strings.Replace(colliderScene, `"cols.####.obj"`, `"cols.obj"`, 1), `output.colliders: "cols.obj": needs one #### or %04d`},
		{strings.Replace(colliderScene, `"cols.####.obj"`, `"cols.####.stl"`, 1), `output.colliders: "cols.####.stl": use a .obj or .ply file`},
		{noColliders, `output.colliders = "cols.####.obj": the scene has no collider to mesh`},
	} {
		path := writeScene(t, dir, c.text)
		var stderr bytes.Buffer
		code := run([]string{"-o", filepath.Join(dir, "out"), path}, &bytes.Buffer{}, &stderr)
		if code != 1 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("exit %d, %q; want 1 and %q", code, stderr.String(), c.want)
		}
	}
}

// [output] up and scale write the colliders' meshes for a Z-up DCC in centimetres:
// the same vertices as the plain run's, as (x, -z, y) x 100, and the PLY says its
// frame, time and axes (issue 22: an up-axis and unit option on every tool that
// writes geometry).
func TestColliderMeshesInDCCAxes(t *testing.T) {
	dir := t.TempDir()
	plain := strings.Replace(colliderScene, `colliders = "cols.####.obj"`, `colliders = "cols.####.ply"`, 1)
	zup := strings.Replace(plain, "[output]\n", "[output]\nup = \"z\"\nscale = 0.01\n", 1)
	var meshes [2]*geom.Mesh
	for i, text := range []string{plain, zup} {
		out := filepath.Join(dir, fmt.Sprint("out", i))
		var stderr bytes.Buffer
		if code := run([]string{"-threads", "2", "-checkpoint", "0", "-frames", "1", "-o", out, writeScene(t, dir, text)}, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		path := filepath.Join(out, "cols.0001.ply")
		m, err := meshfile.Read(path)
		if err != nil {
			t.Fatal(err)
		}
		meshes[i] = m
		data, _ := os.ReadFile(path)
		want := []string{"comment snowsim colliders, frame 1 time 0.1, metres, Y up", "comment snowsim colliders, frame 1 time 0.1, units of 0.01 m, Z up"}[i]
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("%s: no %q in its header", path, want)
		}
	}
	if len(meshes[0].Positions) == 0 || len(meshes[0].Positions) != len(meshes[1].Positions) {
		t.Fatalf("%d and %d vertices", len(meshes[0].Positions), len(meshes[1].Positions))
	}
	for i, p := range meshes[0].Positions {
		want := geom.Vec3{p[0], -p[2], p[1]}.Scale(100)
		if meshes[1].Positions[i].Sub(want).Norm() > 1e-4 {
			t.Fatalf("vertex %d: %v, want %v (ours %v)", i, meshes[1].Positions[i], want, p)
		}
	}
	if code := run([]string{"-set", `output.up="x"`, "-o", dir, writeScene(t, dir, plain)}, &bytes.Buffer{}, &bytes.Buffer{}); code == 0 {
		t.Error(`output.up = "x" ran`)
	}
}

// One frame rule for every tool (issue 22's sixth failure): frame n is at n/fps. A
// scene that starts at frame 1 (time.start = 1), as Blender's scenes do, writes frames
// 1 to 3 (none numbered 0), each at n/fps, and meets a collider sequence that starts
// at file 0001 (Blender's frame 1, voxelized) with the file of its own number.
func TestSceneStartFollowsFrameNumbers(t *testing.T) {
	dir := t.TempDir()
	c0, size, v := geom.Vec3{0.1, 0.2, 0.2}, geom.Vec3{0.04, 0.3, 0.3}, geom.Vec3{0.5, 0, 0}
	scenetest.WritePlateSequence(t, dir, c0, size, v, 10, 4, 0.02)
	if err := os.Remove(filepath.Join(dir, "plate.0000.vdb")); err != nil { // Blender's scenes start at 1
		t.Fatal(err)
	}
	text := colliderScene[:strings.Index(colliderScene, "[[collider]]")] +
		"[[collider]]\nshape = \"vdb\"\npath = \"plate.####.vdb\"\n"
	path := writeScene(t, dir, strings.Replace(text, "h = 0.04", "h = 0.02", 1))
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if code := run([]string{"-threads", "2", "-checkpoint", "0", "-set", "time.start=1", "-frames", "2", "-o", out, path}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if names, _ := filepath.Glob(filepath.Join(out, "snow.*.prt")); len(names) != 3 || filepath.Base(names[0]) != "snow.0001.prt" {
		t.Fatalf("wrote %v, want snow.0001.prt to snow.0003.prt", names)
	}
	for f := 1; f <= 3; f++ {
		fr := readFrame(t, filepath.Join(out, frameName("snow.####.prt", f)))
		frame, _ := fr.Header.Int64Meta("", "Frame")
		at, _ := fr.Header.Float64Meta("", "Time")
		if len(frame) != 1 || frame[0] != int64(f) || len(at) != 1 || math.Abs(at[0]-float64(f)/10) > 1e-9 {
			t.Errorf("snow.%04d.prt: frame %v at %v s, want frame %d at %g s", f, frame, at, f, float64(f)/10)
		}
		m, err := meshfile.Read(filepath.Join(out, frameName("cols.####.obj", f)))
		if err != nil {
			t.Fatal(err)
		}
		c := c0.Add(v.Scale(float64(f) / 10)) // plate.000f.vdb's plate
		if lo, _ := m.Bounds(); lo.Sub(c.Sub(size.Scale(0.5))).Norm() > 5e-5 {
			t.Errorf("frame %d: plate from %v, want the box of centre %v and size %v", f, lo, c, size)
		}
	}
	if code := run([]string{"-set", "time.start=-1", "-o", out, path}, &bytes.Buffer{}, &stderr); code != 2 && code != 1 {
		t.Errorf("time.start = -1: exit %d", code)
	} else if !strings.Contains(stderr.String(), "time.start: -1: must be >= 0") {
		t.Errorf("time.start = -1: %s", stderr.String())
	}
}

// A deforming VDB sequence is drawn and written too: each frame shows the plate of
// the frame's own file (the sequence has the scene's frame rate), where it is.
func TestLevelSetCollidersAreWrittenAndDrawn(t *testing.T) {
	dir := t.TempDir()
	c0, size, v := geom.Vec3{0.1, 0.2, 0.2}, geom.Vec3{0.04, 0.3, 0.3}, geom.Vec3{0.5, 0, 0}
	scenetest.WritePlateSequence(t, dir, c0, size, v, 10, 3, 0.02)
	text := colliderScene[:strings.Index(colliderScene, "[[collider]]")] +
		"[[collider]]\nshape = \"vdb\"\npath = \"plate.####.vdb\"\n"
	path := writeScene(t, dir, strings.Replace(text, "h = 0.04", "h = 0.02", 1))
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if code := run([]string{"-threads", "2", "-preview", "-checkpoint", "0", "-o", out, path}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for f := 0; f <= 2; f++ {
		m, err := meshfile.Read(filepath.Join(out, frameName("cols.####.obj", f)))
		if err != nil {
			t.Fatal(err)
		}
		// The faces lie on voxel centres: the mesher keeps its vertices 1e-3 voxel
		// (2e-5 m) off them.
		c := c0.Add(v.Scale(float64(f) / 10))
		lo, hi := m.Bounds()
		if lo.Sub(c.Sub(size.Scale(0.5))).Norm() > 5e-5 || hi.Sub(c.Add(size.Scale(0.5))).Norm() > 5e-5 {
			t.Errorf("frame %d: plate from %v to %v, want the box of centre %v and size %v", f, lo, hi, c, size)
		}
		if !geom.NewTopology(m.Triangles).Closed {
			t.Errorf("frame %d: the plate is not closed", f)
		}
		if n := clayPixels(readPNG(t, filepath.Join(out, frameName("snow.####.png", f)))); n < 500 {
			t.Errorf("frame %d: %d clay pixels: the plate is not drawn", f, n)
		}
	}
	if strings.Contains(stderr.String(), "not drawn") {
		t.Errorf("snowsim still says it leaves a collider out: %s", stderr.String())
	}
}
