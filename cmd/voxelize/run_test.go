package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/vdb"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/sharedtest"
)

// writeCubeSequence writes name1.obj ... nameN.obj (Blender's naming): a cube of
// side 1 whose centre moves by step metres along x per frame, and whose side grows
// by grow metres per frame.
func writeCubeSequence(t *testing.T, dir, name string, frames int, step, grow float64) {
	t.Helper()
	for f := 1; f <= frames; f++ {
		var b strings.Builder
		x, side := step*float64(f-1), 1+grow*float64(f-1)
		for _, c := range [8][3]float64{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}} {
			fmt.Fprintf(&b, "v %g %g %g\n", side*(c[0]-0.5)+x, side*(c[1]-0.5), side*(c[2]-0.5))
		}
		// Quads, counter-clockwise from outside: the reader triangulates them.
		b.WriteString("f 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s%d.obj", name, f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func runVoxelize(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := run(args, &stderr)
	return code, stderr.String()
}

func readVDB(t *testing.T, path string) *vdb.File {
	t.Helper()
	file, err := vdb.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return file
}

// A translating cube: every frame's file has the three grids, the metadata, the
// cube's velocity (step x fps along x) on the band and the inside below it.
func TestVoxelizeOBJSequence(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "cube", 4, 0.05, 0)
	out := filepath.Join(dir, "out", "cube.####.vdb")
	code, log := runVoxelize(t, "-voxel", "0.05", "-fps", "10", "-o", out, filepath.Join(dir, "cube1.obj"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	t.Log(log)
	for f := 1; f <= 4; f++ {
		file := readVDB(t, filepath.Join(dir, "out", fmt.Sprintf("cube.%04d.vdb", f)))
		if file.Meta["frame"] != int32(f) || file.Meta["fps"] != 10.0 || math.Abs(file.Meta["time"].(float64)-float64(f)/10) > 1e-12 {
			t.Errorf("frame %d metadata: %v", f, file.Meta)
		}
		surface, velocity, normal := file.Grid("surface"), file.Grid("velocity"), file.Grid("normal")
		if surface == nil || velocity == nil || normal == nil {
			t.Fatalf("frame %d: grids %v", f, file.Grids)
		}
		if surface.Class != vdb.LevelSet || surface.Float == nil || velocity.Vec3 == nil || normal.Vec3 == nil {
			t.Fatalf("frame %d: wrong grid types", f)
		}
		// 0.05 m per frame at 10 fps: 0.5 m/s along x, central or one-sided.
		velocity.Vec3.ForEachActive(func(c levelset.Coord, v levelset.Vec3f) {
			if math.Abs(float64(v[0])-0.5) > 1e-5 || v[1] != 0 || v[2] != 0 {
				t.Fatalf("frame %d voxel %v: velocity %v, want (0.5, 0, 0)", f, c, v)
			}
		})
		// The cube's centre is inside, 2 m away is outside.
		centre := levelset.Coord{int32(math.Round(0.05 * float64(f-1) / 0.05)), 0, 0}
		if phi := surface.Float.Get(centre); phi >= 0 {
			t.Errorf("frame %d: phi at the centre = %g", f, phi)
		}
		if phi := surface.Float.Get(levelset.Coord{40, 0, 0}); phi <= 0 {
			t.Errorf("frame %d: phi 2 m away = %g", f, phi)
		}
	}
}

// Every -vdb-codec writes the grids of the default (zip) file, compressed as asked:
// each codec its own bytes, each smaller than none's.
func TestVoxelizeVDBCodec(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "cube", 1, 0, 0)
	path := func(codec string) string { return filepath.Join(dir, codec+".vdb") }
	for _, codec := range vdb.CodecNames {
		if code, log := runVoxelize(t, "-voxel", "0.05", "-vdb-codec", codec, "-o", path(codec), filepath.Join(dir, "cube1.obj")); code != 0 {
			t.Fatalf("%s: exit %d: %s", codec, code, log)
		}
	}
	zip := readVDB(t, path("zip"))
	none, _ := os.ReadFile(path("none"))
	seen := map[string]string{} // file contents -> the codec that wrote them
	for _, codec := range vdb.CodecNames {
		data, _ := os.ReadFile(path(codec))
		if other, dup := seen[string(data)]; dup {
			t.Errorf("%s wrote the same bytes as %s", codec, other)
		}
		seen[string(data)] = codec
		if codec != "none" && len(data) >= len(none) {
			t.Errorf("%s: %d bytes, not smaller than none's %d", codec, len(data), len(none))
		}
		want := map[string]string{"zip": "zip + active values", "none": "active values"}[codec]
		if want == "" {
			want = "blosc + active values"
		}
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("%s: the file does not say %q", codec, want)
		}
		f := readVDB(t, path(codec))
		for _, z := range zip.Grids {
			g := f.Grid(z.Name)
			if g == nil {
				t.Fatalf("%s: no grid %q", codec, z.Name)
			}
			same := true
			if z.Float != nil {
				z.Float.ForEachActive(func(c levelset.Coord, v float32) { same = same && g.Float.Get(c) == v })
				same = same && z.Float.ActiveVoxelCount() == g.Float.ActiveVoxelCount()
			} else {
				z.Vec3.ForEachActive(func(c levelset.Coord, v levelset.Vec3f) { same = same && g.Vec3.Get(c) == v })
				same = same && z.Vec3.ActiveVoxelCount() == g.Vec3.ActiveVoxelCount()
			}
			if !same {
				t.Errorf("%s: grid %q differs from the zip file's", codec, z.Name)
			}
		}
		t.Logf("%s: %d bytes", codec, len(data))
	}
}

// -frames gives the files of a full run, so a cache can be split over machines,
// also when -res sizes the voxels from a cube that grows.
func TestVoxelizeFrameRangeMatchesFullRun(t *testing.T) {
	for _, size := range [][]string{{"-voxel", "0.1"}, {"-res", "12"}} {
		dir := t.TempDir()
		writeCubeSequence(t, dir, "cube", 5, 0.1, 0.1)
		full, part := filepath.Join(dir, "full.####.vdb"), filepath.Join(dir, "part.####.vdb")
		if code, log := runVoxelize(t, append(size, "-o", full, filepath.Join(dir, "cube1.obj"))...); code != 0 {
			t.Fatal(log)
		}
		if code, log := runVoxelize(t, append(size, "-frames", "2-3", "-o", part, filepath.Join(dir, "cube1.obj"))...); code != 0 {
			t.Fatal(log)
		}
		for f := 1; f <= 5; f++ {
			_, err := os.Stat(filepath.Join(dir, fmt.Sprintf("part.%04d.vdb", f)))
			if (f == 2 || f == 3) != (err == nil) {
				t.Errorf("%v frame %d: written = %v", size, f, err == nil)
			}
		}
		for _, f := range []int{2, 3} {
			a, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("full.%04d.vdb", f)))
			b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("part.%04d.vdb", f)))
			if len(a) == 0 || !bytes.Equal(a, b) {
				t.Errorf("%v frame %d differs between the full and the partial run", size, f)
			}
		}
	}
}

func TestVoxelizeTopologyChangeNamesBothFrames(t *testing.T) {
	dir := t.TempDir()
	writeCubeSequence(t, dir, "cube", 3, 0.1, 0)
	// Frame 3 loses a face.
	p := filepath.Join(dir, "cube3.obj")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(data, []byte("f 4 1 5 8\n"), nil, 1), 0o644)
	code, log := runVoxelize(t, "-voxel", "0.1", "-o", filepath.Join(dir, "o.####.vdb"), filepath.Join(dir, "cube1.obj"))
	if code != cli.ExitFailure || !strings.Contains(log, "frames 2 and 3") {
		t.Errorf("exit %d: %s", code, log)
	}
	// Frame 1 was written before the error and is intact.
	readVDB(t, filepath.Join(dir, "o.0001.vdb"))
}

func TestVoxelizeBadInput(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.obj")
	os.WriteFile(bad, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n"), 0o644)
	nan := filepath.Join(dir, "nan.obj")
	os.WriteFile(nan, []byte("v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-voxel", "0.1", bad}, cli.ExitFailure, "bad.obj"},
		{[]string{"-voxel", "0.1", nan}, cli.ExitFailure, "nan.obj"},
		{[]string{"-voxel", "0.1", filepath.Join(dir, "missing.obj")}, cli.ExitFailure, "missing.obj"},
		{[]string{"-voxel", "0.1", filepath.Join(dir, "x.ply")}, cli.ExitFailure, "unknown mesh format"},
		{[]string{bad}, cli.ExitUsage, "-voxel"},
		{[]string{"-voxel", "0.1", "-res", "10", bad}, cli.ExitUsage, "give one"},
		{[]string{"-voxel", "0.1", "-frames", "5-2", bad}, cli.ExitUsage, "-frames"},
		{[]string{"-voxel", "0.1", "-normals", "magic", bad}, cli.ExitUsage, "-normals"},
		{[]string{"-voxel", "0.1", "-vdb-codec", "lzma", bad}, cli.ExitUsage, "-vdb-codec: unknown VDB codec \"lzma\""},
		{[]string{"-voxel", "0.1", "-o", "a.####.b.%04d.vdb", bad}, cli.ExitUsage, "-o"},
	} {
		code, log := runVoxelize(t, tc.args...)
		if code != tc.code || !strings.Contains(log, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit %d mentioning %q", tc.args, code, log, tc.code, tc.want)
		}
	}
}

// The animated box of the Khronos samples: a node hierarchy with rotation and
// translation channels, one file per frame at 24 fps.
func TestVoxelizeGLB(t *testing.T) {
	asset := sharedtest.Asset(t, "BoxAnimated.glb")
	dir := t.TempDir()
	code, log := runVoxelize(t, "-voxel", "0.05", "-frames", "1-3", "-o", filepath.Join(dir, "box.####.vdb"), asset)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	for f := 1; f <= 3; f++ {
		file := readVDB(t, filepath.Join(dir, fmt.Sprintf("box.%04d.vdb", f)))
		if n := file.Grid("surface").Float.ActiveVoxelCount(); n == 0 {
			t.Errorf("frame %d: empty level set", f)
		}
		if !strings.Contains(file.Meta["source"].(string), "BoxAnimated.glb") {
			t.Errorf("frame %d: source %v", f, file.Meta["source"])
		}
	}
}

// The built-in example turns half a revolution a second about +Y: at frame 12 the
// central difference of the rotation is omega x r scaled by sin(omega dt)/(omega dt),
// at the closest surface point r = x - phi n of every band voxel.
func TestVoxelizeExamplePaddle(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "paddle.####.vdb")
	if code, log := runVoxelize(t, "-voxel", "0.02", "-frames", "12", "-o", out, filepath.Join("..", "..", "examples", "paddle.gltf")); code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	file := readVDB(t, filepath.Join(dir, "paddle.0012.vdb"))
	surface, velocity, normal := file.Grid("surface").Float, file.Grid("velocity").Vec3, file.Grid("normal").Vec3
	const omega, dt = math.Pi, 1.0 / 24
	sinc := math.Sin(omega*dt) / (omega * dt)
	worst, n := 0.0, 0
	surface.ForEachActive(func(c levelset.Coord, phi float32) {
		x := surface.Transform.IndexToWorld(c)
		r := x.Sub(normal.Get(c).Vec3().Scale(float64(phi)))
		want := geom.Vec3{omega * r[2], 0, -omega * r[0]}.Scale(sinc)
		worst = max(worst, velocity.Get(c).Vec3().Sub(want).Norm())
		n++
	})
	if n == 0 || worst > 1e-4 {
		t.Errorf("%d band voxels: velocity off omega x r by up to %.3g m/s", n, worst)
	}
	t.Logf("%d band voxels, velocity within %.2g m/s of omega x r", n, worst)
}
