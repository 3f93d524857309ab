package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/scene/scenetest"
	"snowtools/formats/abc"
	"snowtools/formats/abc/abctest"
	"snowtools/levelset/geom"
)

// runGroundScene builds snowsim and runs scenetest.GroundScene (a ball pressing a
// 40 x 30 cm patch of sand 2 cm deep, frames 0-6 at 20 fps) into out with the given
// -set overrides, and returns out.
func runGroundScene(t *testing.T, snowsim, out string, sets ...string) string {
	t.Helper()
	scene := filepath.Join(t.TempDir(), "ground.toml")
	if err := os.WriteFile(scene, []byte(scenetest.GroundScene), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", out}
	for _, s := range sets {
		args = append(args, "-set", s)
	}
	if msg, err := exec.Command(snowsim, append(args, scene)...).CombinedOutput(); err != nil {
		t.Fatalf("snowsim: %v\n%s", err, msg)
	}
	return out
}

// buildSnowsim builds cmd/snowsim into a temporary folder.
func buildSnowsim(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./cmd/snowsim")
	build.Dir = filepath.Join("..", "..")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	return filepath.Join(bin, "snowsim")
}

// TestExportGroundABC: snowsim's ground meshes of a ground scene, written as PLY in
// centimetres Z up with only the touched tiles (empty at frame 0, then 32 x 32
// columns: the topology changes) and as OBJ in metres Y up over the whole patch,
// become one PolyMesh /ground each: 7 samples at 20 fps from 0 s, each sample the
// file's mesh in metres Y up (within 1e-6 m: float32), and the crater 2 cm deep at
// frame 2 in both (within 1 mm), which checks the undoing of the axes and unit
// without the code that does it.
func TestExportGroundABC(t *testing.T) {
	snowsim := buildSnowsim(t)
	dir := t.TempDir()
	runs := []struct {
		files string
		sets  []string
		axes  geom.Axes
	}{
		{"ground.####.ply", []string{`output.ground_mesh="ground.####.ply"`, `output.up="z"`, `output.scale=0.01`, `output.ground_area="touched"`},
			geom.Axes{ZUp: true, Scale: 0.01}},
		{"ground.####.obj", []string{`output.ground_mesh="ground.####.obj"`}, geom.Axes{}},
	}
	for i, r := range runs {
		out := runGroundScene(t, snowsim, filepath.Join(dir, fmt.Sprint("run", i)), r.sets...)
		archive := filepath.Join(dir, fmt.Sprintf("ground%d.abc", i))
		log := mustExport(t, "-to", "abc", filepath.Join(out, r.files), archive)
		if !strings.Contains(log, "PolyMesh /ground, 7 samples at 20 fps from 0 s (frame 0)") || strings.Contains(log, "kept as written") {
			t.Errorf("%s: log %s", r.files, log)
		}
		a, err := abc.OpenFile(archive)
		if err != nil {
			t.Fatal(err)
		}
		defer a.Close()
		o, err := a.Find("/ground")
		if err != nil || o == nil {
			t.Fatalf("%s: no /ground: %v", r.files, err)
		}
		pm, err := o.PolyMesh()
		if err != nil {
			t.Fatal(err)
		}
		if pm.NumSamples() != 7 || pm.HasVelocities() {
			t.Fatalf("%s: %d samples, velocities %v", r.files, pm.NumSamples(), pm.HasVelocities())
		}
		var counts []int
		worst := 0.0
		for k := range 7 {
			if got := pm.TimeSampling().SampleTime(k); math.Abs(got-float64(k)/20) > 1e-12 {
				t.Errorf("%s: sample %d at %g s, want %g", r.files, k, got, float64(k)/20)
			}
			s, err := pm.Read(k)
			if err != nil {
				t.Fatal(err)
			}
			got := s.Mesh(abc.Identity)
			want, err := meshfile.Read(filepath.Join(out, strings.Replace(r.files, "####", fmt.Sprintf("%04d", k), 1)))
			if err != nil {
				t.Fatal(err)
			}
			r.axes.Apply(want)
			if len(got.Positions) != len(want.Positions) || len(got.Triangles) != len(want.Triangles) {
				t.Fatalf("%s sample %d: %d vertices %d triangles, the file %d and %d", r.files, k, len(got.Positions), len(got.Triangles), len(want.Positions), len(want.Triangles))
			}
			for i := range got.Positions {
				worst = max(worst, got.Positions[i].Sub(want.Positions[i]).Norm())
			}
			for i := range got.Triangles {
				if got.Triangles[i] != want.Triangles[i] {
					t.Fatalf("%s sample %d triangle %d: %v, the file's %v", r.files, k, i, got.Triangles[i], want.Triangles[i])
				}
			}
			counts = append(counts, len(got.Positions))
			if k == 2 {
				lo, hi := got.Bounds()
				if math.Abs(lo[1]+0.02) > 1e-3 || lo[0] < -0.2-1e-6 || hi[0] > 0.2+1e-6 || hi[1] > 0.01 {
					t.Errorf("%s frame 2: bounds %v to %v: want the crater floor at y = -0.02 m within x in [-0.2, 0.2] m", r.files, lo, hi)
				}
			}
		}
		t.Logf("%s: vertices per sample %v, largest difference from the file %.3g m", r.files, counts, worst)
		if worst > 1e-6 {
			t.Errorf("%s: samples differ from the files by up to %g m", r.files, worst)
		}
		if i == 0 && (counts[0] != 0 || counts[1] == 0 || pm.ConstantTopology()) {
			t.Errorf("touched ground: vertices %v, constant topology %v: want an empty frame 0, then the tiles", counts, pm.ConstantTopology())
		}
	}
	echo, err := exec.Command(abctest.Tool(t, "abcecho"), filepath.Join(dir, "ground0.abc")).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"file written by: snowtools export", "Object name=/ground", "name=P;interpretation=point;datatype=float32_t[3];", "numsamps=7"} {
		if !strings.Contains(string(echo), w) {
			t.Errorf("abcecho does not list %q:\n%s", w, echo)
		}
	}
}

// Meshes without header comments need -fps and keep their coordinates; a gap, a
// file that is not a mesh, a comment whose time is not the file's frame, an -fps
// that the comments contradict and the particle flags are refused, and a failed
// frame leaves no archive behind.
func TestExportMeshSequenceErrors(t *testing.T) {
	dir := t.TempDir()
	for f := 1; f <= 3; f++ {
		writeGroundPLY(t, filepath.Join(dir, fmt.Sprintf("ground.%04d.ply", f)), 0.1*float64(f))
	}
	pattern, out := filepath.Join(dir, "ground.####.ply"), filepath.Join(dir, "ground.abc")
	if code, log := runExport(t, "-to", "abc", pattern, out); code == 0 || !strings.Contains(log, "give the sequence's frame rate with -fps") {
		t.Errorf("no comments, no -fps: exit %d, %s", code, log)
	}
	log := mustExport(t, "-to", "abc", "-fps", "24", pattern, out)
	if !strings.Contains(log, "3 of 3 meshes do not state their axes") || !strings.Contains(log, "PolyMesh /ground, 3 samples at 24 fps from 0.0416667 s (frame 1)") {
		t.Errorf("log: %s", log)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-to", "abc", "-fps", "24", "-keep", "Density", pattern, out}, "a mesh sequence has no channels"},
		{[]string{"-to", "abc", "-fps", "24", "-radius", "0.01", pattern, out}, "the input is a mesh sequence"},
	} {
		if code, log := runExport(t, c.args...); code == 0 || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, log)
		}
	}

	// A frame whose comment gives another time, and -fps against the comments.
	m, err := meshfile.Read(filepath.Join(dir, "ground.0001.ply"))
	if err != nil {
		t.Fatal(err)
	}
	writeCommented := func(frame int, text string) {
		var b bytes.Buffer
		if err := meshfile.WritePLY(&b, m, text); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("ground.%04d.ply", frame)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for f := 1; f <= 3; f++ {
		writeCommented(f, meshfile.FrameComment{What: "snowsim ground", Frame: f, Time: float64(f) / 24}.String())
	}
	mustExport(t, "-to", "abc", pattern, out)
	writeCommented(2, meshfile.FrameComment{What: "snowsim ground", Frame: 5, Time: 5.0 / 24}.String())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-to", "abc", pattern, out}, "frame 2 (" + filepath.Join(dir, "ground.0002.ply") + "): its comment says time"},
		{[]string{"-to", "abc", "-fps", "25", "-frames", "1-1", pattern, out}, "-fps 25: the meshes' comments say 24 fps"},
	} {
		if code, log := runExport(t, c.args...); code == 0 || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d, %s", c.args, code, log)
		}
	}

	// A point cloud among the meshes: named by frame and file, and nothing written.
	os.Remove(out)
	spray, _ := writeSequence(t, dir, 2) // frame 2 at 2/24 s, as its comment says
	mustExport(t, "-to", "ply", strings.Replace(spray, "####", "0002", 1), filepath.Join(dir, "ground.0002.ply"))
	code, log := runExport(t, "-to", "abc", "-fps", "24", pattern, out)
	if code == 0 || !strings.Contains(log, "frame 2 ("+filepath.Join(dir, "ground.0002.ply")+")") || !strings.Contains(log, "point cloud, not a mesh") || !strings.Contains(log, "nothing was written") {
		t.Errorf("a point cloud: exit %d, %s", code, log)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*abc*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}

	// A gap.
	os.Remove(filepath.Join(dir, "ground.0002.ply"))
	if code, log := runExport(t, "-to", "abc", "-fps", "24", pattern, out); code == 0 || !strings.Contains(log, "frames 1 and 3: the sequence has a gap") {
		t.Errorf("a gap: exit %d, %s", code, log)
	}
}
