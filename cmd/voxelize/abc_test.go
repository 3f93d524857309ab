package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/cli"
	"snowtools/formats/abc"
	"snowtools/formats/abc/abctest"
	"snowtools/formats/obj"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/limittest"
)

// writeArchive writes an Alembic archive with package abc: fill adds its objects.
func writeArchive(t *testing.T, path string, fill func(w *abc.Writer) error) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := abc.NewWriter(f, abc.Metadata{"_ai_Application": "voxelize test"})
	if err != nil {
		t.Fatal(err)
	}
	if err := fill(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// translate returns the transform that moves points by d.
func translate(d geom.Vec3) abc.Matrix {
	m := abc.Identity
	m[12], m[13], m[14] = d[0], d[1], d[2]
	return m
}

// cubeFrame is frame f (1, 2, ...) of writeCubeSequence's cube, centred at the origin
// (the motion is left to a transform): side 1 + grow (f-1).
func cubeFrame(f int, grow float64) *geom.Mesh {
	side := 1 + grow*float64(f-1)
	return geom.BoxMesh(geom.Vec3{-side / 2, -side / 2, -side / 2}, geom.Vec3{side / 2, side / 2, side / 2})
}

// movingCubeArchive writes writeCubeSequence's cube as an Alembic archive at 24 fps
// from frame 1: an Xform /rig moving step metres along x per frame, and under it the
// PolyMesh /rig/cube growing by grow metres per frame, with stored velocities v when
// v is not nil.
func movingCubeArchive(t *testing.T, path string, frames int, step, grow float64, v *geom.Vec3) {
	writeArchive(t, path, func(w *abc.Writer) error {
		ts, err := w.AddTimeSampling(abc.Uniform(1.0/24, 1.0/24))
		if err != nil {
			return err
		}
		xw, rig, err := w.AddXform(w.Top(), "rig", ts)
		if err != nil {
			return err
		}
		mw, err := w.AddPolyMesh(rig, "cube", ts, v != nil)
		if err != nil {
			return err
		}
		for f := 1; f <= frames; f++ {
			if err := xw.WriteSample(translate(geom.Vec3{step * float64(f-1), 0, 0}), true); err != nil {
				return err
			}
			m := cubeFrame(f, grow)
			if v != nil {
				m.Velocities = make([]geom.Vec3, len(m.Positions))
				for i := range m.Velocities {
					m.Velocities[i] = *v
				}
			}
			if err := mw.WriteMesh(m); err != nil {
				return err
			}
		}
		return nil
	})
}

// compareGrids returns the largest difference between two files' grids, voxel by
// voxel, and an error when their active voxels differ.
func compareGrids(a, b *levelset.FloatGrid) (float64, error) {
	if a.ActiveVoxelCount() != b.ActiveVoxelCount() {
		return 0, fmt.Errorf("%d active voxels against %d", a.ActiveVoxelCount(), b.ActiveVoxelCount())
	}
	worst := 0.0
	var err error
	a.ForEachActive(func(c levelset.Coord, v float32) {
		if !b.IsActive(c) && err == nil {
			err = fmt.Errorf("voxel %v active in one file only", c)
		}
		worst = max(worst, math.Abs(float64(v-b.Get(c))))
	})
	return worst, err
}

// The same moving, growing cube as an OBJ sequence (the same triangles, in world
// space) and as an archive whose Xform moves it: every frame's grids agree, with the velocities of the OBJ run (central
// differences of the world positions, so the transform's motion too), and the
// archive's frame rate (24 fps) and frame numbers (frame 1 at 1/24 s) come from its
// time sampling with no -fps.
func TestVoxelizeAlembicMatchesOBJ(t *testing.T) {
	dir := t.TempDir()
	const frames, step, grow = 4, 0.25, 0.125 // exact in float32: the archive's positions
	for f := 1; f <= frames; f++ {            // the archive's world-space meshes, as OBJ files
		m := cubeFrame(f, grow)
		for i := range m.Positions {
			m.Positions[i][0] += step * float64(f-1)
		}
		var b bytes.Buffer
		if err := obj.Write(&b, m); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("cube%d.obj", f)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	movingCubeArchive(t, filepath.Join(dir, "cube.abc"), frames, step, grow, nil)
	code, log := runVoxelize(t, "-voxel", "0.05", "-fps", "24", "-o", filepath.Join(dir, "obj.####.vdb"), filepath.Join(dir, "cube1.obj"))
	if code != 0 {
		t.Fatalf("OBJ: exit %d: %s", code, log)
	}
	code, log = runVoxelize(t, "-voxel", "0.05", "-o", filepath.Join(dir, "abc.####.vdb"), filepath.Join(dir, "cube.abc"))
	if code != 0 {
		t.Fatalf("abc: exit %d: %s", code, log)
	}
	if !strings.Contains(log, "24 fps, from its time sampling") {
		t.Errorf("the log does not say where the frame rate comes from: %s", log)
	}
	for f := 1; f <= frames; f++ {
		want := readVDB(t, filepath.Join(dir, fmt.Sprintf("obj.%04d.vdb", f)))
		got := readVDB(t, filepath.Join(dir, fmt.Sprintf("abc.%04d.vdb", f)))
		if got.Meta["frame"] != int32(f) || got.Meta["fps"] != 24.0 || got.Meta["time"] != want.Meta["time"] {
			t.Errorf("frame %d metadata %v, want the OBJ run's %v", f, got.Meta, want.Meta)
		}
		d, err := compareGrids(got.Grid("surface").Float, want.Grid("surface").Float)
		if err != nil || d > 0 {
			t.Errorf("frame %d: surface differs by %g (%v)", f, d, err)
		}
		worstV := 0.0
		wantV := want.Grid("velocity").Vec3
		got.Grid("velocity").Vec3.ForEachActive(func(c levelset.Coord, v levelset.Vec3f) {
			worstV = max(worstV, v.Vec3().Sub(wantV.Get(c).Vec3()).Norm())
		})
		if worstV > 1e-5 {
			t.Errorf("frame %d: velocity differs by up to %g m/s", f, worstV)
		}
	}
}

// An archive that stores velocities: those are used (barycentric, so the stored
// (0, 1, 0) everywhere), plus the velocity of the Xform above the mesh (0.25 m a
// frame at 24 fps: 6 m/s along x), at every frame including the ends.
func TestVoxelizeAlembicStoredVelocities(t *testing.T) {
	dir := t.TempDir()
	stored := geom.Vec3{0, 1, 0}
	movingCubeArchive(t, filepath.Join(dir, "cube.abc"), 3, 0.25, 0, &stored)
	code, log := runVoxelize(t, "-voxel", "0.05", "-o", filepath.Join(dir, "v.####.vdb"), filepath.Join(dir, "cube.abc"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	want := geom.Vec3{6, 1, 0}
	for f := 1; f <= 3; f++ {
		checkVelocity(t, filepath.Join(dir, fmt.Sprintf("v.%04d.vdb", f)), f, want)
	}
}

// A mesh whose topology changes (a cube, the cube moved, then a pyramid) and stores
// no velocities: frame 2 differences frame 1 alone (one-sided, 6 m/s along x), frame 3
// has no neighbour of its topology and is at rest, which the log says once.
func TestVoxelizeAlembicChangingTopology(t *testing.T) {
	dir := t.TempDir()
	pyramid := &geom.Mesh{
		Positions: []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}, {0.5, 1, 0.5}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}, {0, 4, 1}, {1, 4, 2}, {2, 4, 3}, {3, 4, 0}},
	}
	if pyramid.SignedVolume() <= 0 {
		t.Fatal("the pyramid is inside out")
	}
	writeArchive(t, filepath.Join(dir, "morph.abc"), func(w *abc.Writer) error {
		ts, err := w.AddTimeSampling(abc.Uniform(1.0/24, 1.0/24))
		if err != nil {
			return err
		}
		mw, err := w.AddPolyMesh(w.Top(), "morph", ts, false)
		if err != nil {
			return err
		}
		moved := cubeFrame(1, 0)
		for i := range moved.Positions {
			moved.Positions[i][0] += 0.25
		}
		for _, m := range []*geom.Mesh{cubeFrame(1, 0), moved, pyramid} {
			if err := mw.WriteMesh(m); err != nil {
				return err
			}
		}
		return nil
	})
	code, log := runVoxelize(t, "-voxel", "0.05", "-o", filepath.Join(dir, "m.####.vdb"), filepath.Join(dir, "morph.abc"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, log)
	}
	if !strings.Contains(log, "frame 3") || !strings.Contains(log, "at rest (0 m/s)") {
		t.Errorf("the log does not say that frame 3 is at rest: %s", log)
	}
	for f, want := range map[int]geom.Vec3{1: {6, 0, 0}, 2: {6, 0, 0}, 3: {}} {
		checkVelocity(t, filepath.Join(dir, fmt.Sprintf("m.%04d.vdb", f)), f, want)
	}
}

// -objects chooses meshes by path or by name, with the objects below what matches;
// a pattern that matches no mesh names the meshes there are.
func TestVoxelizeAlembicObjects(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "two.abc")
	writeArchive(t, in, func(w *abc.Writer) error {
		for _, o := range []struct {
			name string
			at   float64
		}{{"left", -2}, {"right", 2}} {
			xw, x, err := w.AddXform(w.Top(), o.name, 0)
			if err != nil {
				return err
			}
			if err := xw.WriteSample(translate(geom.Vec3{o.at, 0, 0}), true); err != nil {
				return err
			}
			mw, err := w.AddPolyMesh(x, o.name+"Shape", 0, false)
			if err != nil {
				return err
			}
			if err := mw.WriteMesh(cubeFrame(1, 0)); err != nil {
				return err
			}
		}
		return nil
	})
	inside := func(file string, x float64) bool {
		s := readVDB(t, file).Grid("surface").Float
		return s.Get(levelset.Coord{int32(math.Round(x / 0.1)), 0, 0}) < 0
	}
	for _, c := range []struct {
		objects     string
		left, right bool
	}{{"", true, true}, {"/left", true, false}, {"right*", false, true}, {"/*/leftShape,/right", true, true}} {
		out := filepath.Join(dir, "o.vdb")
		args := []string{"-voxel", "0.1", "-o", out}
		if c.objects != "" {
			args = append(args, "-objects", c.objects)
		}
		if code, log := runVoxelize(t, append(args, in)...); code != 0 {
			t.Fatalf("-objects %q: exit %d: %s", c.objects, code, log)
		}
		if l, r := inside(out, -2), inside(out, 2); l != c.left || r != c.right {
			t.Errorf("-objects %q: left %v right %v, want %v %v", c.objects, l, r, c.left, c.right)
		}
	}
	code, log := runVoxelize(t, "-voxel", "0.1", "-objects", "/nothing*", "-o", filepath.Join(dir, "o.vdb"), in)
	if code != cli.ExitFailure || !strings.Contains(log, "no mesh matches") || !strings.Contains(log, "/left/leftShape, /right/rightShape") {
		t.Errorf("exit %d: %s", code, log)
	}
	code, log = runVoxelize(t, "-voxel", "0.1", "-objects", "x", filepath.Join(dir, "cube.obj"))
	if code != cli.ExitFailure || !strings.Contains(log, "only Alembic archives") {
		t.Errorf("-objects on an OBJ: exit %d: %s", code, log)
	}
}

// Every damaged archive that Alembic's own tests keep stops voxelize with exit 1 and
// a message naming the file, never a panic, in a child process whose memory and time
// stay bounded.
func TestVoxelizeDamagedAlembic(t *testing.T) {
	for _, in := range abctest.DamagedArchives(t) {
		t.Run(filepath.Base(in), func(t *testing.T) {
			status, msgs, res := limittest.Tool(t, limittest.Limits{RSS: 150 << 20, Time: time.Minute}, func(stderr io.Writer) int {
				dir, _ := os.MkdirTemp("", "voxelize-damaged")
				defer os.RemoveAll(dir)
				return run([]string{"-voxel", "0.1", "-o", filepath.Join(dir, "d.####.vdb"), in}, stderr)
			})
			if status != cli.ExitFailure || !strings.Contains(msgs, filepath.Base(in)) || strings.Contains(msgs, "panic") {
				t.Errorf("exit %d: %s", status, msgs)
			}
			t.Logf("%.1f MB, %v: %s", float64(res.PeakRSS)/1e6, res.Elapsed.Round(time.Millisecond), strings.TrimSpace(msgs))
		})
	}
}

// checkVelocity fails t unless frame f's file has velocity voxels, all within 1e-5 m/s
// of want.
func checkVelocity(t *testing.T, path string, f int, want geom.Vec3) {
	t.Helper()
	worst, n := 0.0, 0
	readVDB(t, path).Grid("velocity").Vec3.ForEachActive(func(_ levelset.Coord, v levelset.Vec3f) {
		worst = max(worst, v.Vec3().Sub(want).Norm())
		n++
	})
	if n == 0 || worst > 1e-5 {
		t.Errorf("frame %d: %d voxels, velocity off %v by up to %g m/s", f, n, want, worst)
	}
}
