package main

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/scene"
	"snowtools/formats/prt"
	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// decodeFile opens path and decodes it with decode, failing the test on an error.
func decodeFile[T any](t *testing.T, path string, decode func(io.Reader) (T, error)) T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func readFrame(t *testing.T, path string) *prt.Frame {
	t.Helper()
	return decodeFile(t, path, prt.ReadAll)
}

// The demo at draft quality: mass is conserved, nothing is NaN, no particle is deeper
// than h/2 inside a collider, and the frames are bit-identical between two runs and
// between one and two threads.
func TestDemoRun(t *testing.T) {
	const frames = 8
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	threads := []string{"1", "2", "2"}
	for i, dir := range dirs {
		var stderr bytes.Buffer
		args := []string{"-quality", "draft", "-frames", "8", "-threads", threads[i], "-o", dir}
		if i == 2 {
			args = append(args, "-preview") // pictures must not change the frames
		}
		if code := run(args, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("snowsim %v: exit %d: %s", args, code, stderr.String())
		}
		if i == 0 && !strings.Contains(stderr.String(), "particle-steps/s") {
			t.Errorf("no summary line in %q", stderr.String())
		}
	}
	sc, err := scene.Read("demo", bytes.NewReader(demoScene), qualities["draft"])
	if err != nil {
		t.Fatal(err)
	}
	var mass0 float64
	for f := 0; f <= frames; f++ {
		name := frameName(sc.Pattern, f)
		data := make([][]byte, len(dirs))
		for i, dir := range dirs {
			if data[i], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(data[0], data[1]) {
			t.Errorf("%s: 1 and 2 threads differ", name)
		}
		if !bytes.Equal(data[1], data[2]) {
			t.Errorf("%s: two runs with 2 threads differ", name)
		}
		fr := readFrame(t, filepath.Join(dirs[0], name))
		pos, _, err := fr.Float64s("Position")
		if err != nil {
			t.Fatal(err)
		}
		vel, _, _ := fr.Float64s("Velocity")
		mass, _, _ := fr.Float64s("Mass")
		total := 0.0
		for _, m := range mass {
			total += m
		}
		if f == 0 {
			mass0 = total
		} else if total != mass0 {
			t.Errorf("%s: mass %g, frame 0 had %g", name, total, mass0)
		}
		for _, v := range append(pos, vel...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%s: non-finite value", name)
			}
		}
		time := float64(f) / sc.FPS
		deepest := 0.0
		for i := 0; i < len(pos); i += 3 {
			x := geom.Vec3{pos[i], pos[i+1], pos[i+2]}
			for _, c := range sc.Config.Colliders {
				phi, _, _ := c.Sample(x, time)
				deepest = math.Min(deepest, phi)
			}
		}
		if deepest < -0.5*sc.Config.H {
			t.Errorf("%s: a particle is %.3g h inside a collider", name, -deepest/sc.Config.H)
		}
	}
	checkPreviews(t, dirs[2], sc, frames)
}

// checkPreviews checks that -preview wrote a picture of every frame, and that the
// pictures show the snow moving.
func checkPreviews(t *testing.T, dir string, sc *scene.Scene, frames int) {
	t.Helper()
	pictures := make([]*image.RGBA, frames+1)
	for f := 0; f <= frames; f++ {
		name := strings.TrimSuffix(frameName(sc.Pattern, f), ".prt") + ".png"
		file, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("-preview: %v", err)
		}
		img, err := png.Decode(file)
		file.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != previewWidth || b.Dy() != previewHeight {
			t.Errorf("%s: %v, want %dx%d", name, b, previewWidth, previewHeight)
		}
		pictures[f] = image.NewRGBA(img.Bounds())
		draw.Draw(pictures[f], img.Bounds(), img, image.Point{}, draw.Src)
	}
	if bytes.Equal(pictures[0].Pix, pictures[frames].Pix) {
		t.Errorf("the previews of frames 0 and %d are the same picture", frames)
	}
}

// A run whose state goes bad stops with a message naming the frame, the step and the
// likely cause, and the frames already written stay valid.
func TestUnstableRunStopsCleanly(t *testing.T) {
	scene := strings.Replace(string(demoScene), "[time]\n", "[time]\nmin_dt = 0.01\nmax_dt = 0.02\n", 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(path, []byte(scene), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code := run([]string{"-quality", "draft", "-o", dir, path}, &bytes.Buffer{}, &stderr)
	msg := stderr.String()
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, msg)
	}
	for _, want := range []string{"frame 1", "step 0", "unstable", "min_dt", "frames 0-0 are written"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q does not say %q", msg, want)
		}
	}
	fr := readFrame(t, filepath.Join(dir, "snow.0000.prt"))
	if fr.Len() == 0 {
		t.Error("frame 0 is empty")
	}
	if _, err := os.Stat(filepath.Join(dir, "snow.0001.prt")); err == nil {
		t.Error("frame 1 was written")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Usage errors exit with 2 and say in one line which flag is wrong and why, and that
// -h gives the help (on main, no hint); -h
// prints help with examples and exits with 0, as does -print-demo; a failure exits
// with 1.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string // the whole of stderr
	}{
		{[]string{"-quality", "extreme"}, 2, `snowsim: -quality "extreme": use draft, normal, high or ultra (-h for help)` + "\n"},
		{[]string{"-frames", "-3"}, 2, "snowsim: -frames -3: must be >= 0 (0: the scene's time.frames) (-h for help)\n"},
		{[]string{"-threads", "-1"}, 2, "snowsim: -threads -1: must be >= 0 (0: the scene's solver.threads) (-h for help)\n"},
		{[]string{"-checkpoint", "-1"}, 2, "snowsim: -checkpoint -1: must be >= 0 (0: no checkpoints) (-h for help)\n"},
		{[]string{"-frames", "many"}, 2, `snowsim: invalid value "many" for flag -frames: parse error (-h for help)` + "\n"},
		{[]string{"-nosuchflag"}, 2, "snowsim: flag provided but not defined: -nosuchflag (-h for help)\n"},
		{[]string{"a.toml", "b.toml"}, 2, `snowsim: give one scene file, or none for the built-in demo, not ["a.toml" "b.toml"] (-h for help)` + "\n"},
		{[]string{"/no/such/scene.toml"}, 1, "snowsim: stat /no/such/scene.toml: no such file or directory\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code != c.code || stderr.String() != c.want || stdout.Len() > 0 {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", c.args, code, stderr.String(), c.code, c.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "Examples:") ||
		!strings.Contains(stderr.String(), "-checkpoint N") {
		t.Errorf("-h: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"-print-demo"}, &stdout, &stderr); code != 0 || !bytes.Equal(stdout.Bytes(), demoScene) || stderr.Len() > 0 {
		t.Errorf("-print-demo: exit %d, %q", code, stderr.String())
	}
}

// A frame written by snowsim reads back through the PRT reader with the same values.
func TestPRTRoundTrip(t *testing.T) {
	p := &simcore.Particles{}
	pm := simcore.DefaultMaterial.PerParticle()
	for i := 0; i < 100; i++ {
		p.Add(geom.Vec3{float64(i) * 0.01, 0.5, -0.25}, geom.Vec3{1, float64(-i), 0.5}, 1e-4*float64(i+1), pm)
		p.Vol0[i] = 2.5e-7
		p.JP[i] = 0.9
	}
	var buf bytes.Buffer
	info := frameInfo{Frame: 3, Time: 0.125, FPS: 24, H: 0.02}
	if err := writePRT(&buf, p, frameColumns(nil), info); err != nil {
		t.Fatal(err)
	}
	fr, err := prt.ReadAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	pos, _, _ := fr.Float32s("Position")
	ids, _, _ := fr.Int64s("ID")
	dens, _, _ := fr.Float32s("Density")
	phys, _, _ := fr.Float32s("PhysicalDensity")
	jp, _, _ := fr.Float32s("PlasticJ")
	for i := 0; i < 100; i++ {
		if pos[3*i] != float32(p.X[i][0]) || ids[i] != int64(i) || jp[i] != 0.9 {
			t.Fatalf("particle %d: %v %v %v", i, pos[3*i:3*i+3], ids[i], jp[i])
		}
		rho0 := float64(p.Mass[i]) / 2.5e-7
		if math.Abs(float64(dens[i])-1/0.9) > 1e-6 || math.Abs(float64(phys[i])-rho0/0.9) > 1e-4*rho0 {
			t.Fatalf("particle %d: density ratio %g, physical %g (rho0 %g, J_P 0.9)", i, dens[i], phys[i], rho0)
		}
	}
	h, _ := fr.Header.Float64Meta("", "GridSpacing")
	rate, _ := fr.Header.Int64Meta("", "FrameRate")
	cs, _ := fr.Header.Int64Meta("", "CoordSys")
	box, _ := fr.Header.Float64Meta("", "BoundBox")
	if h[0] != 0.02 || rate[0] != 24 || rate[1] != 1 || cs[0] != 1 || float32(box[3]) != float32(0.99) {
		t.Errorf("metadata: h %v rate %v coordsys %v box %v", h, rate, cs, box)
	}
}

// A semi-implicit run reports its solver iterations per step, and warns, naming the
// frame and the setting to change, when solves stop at max_iterations unconverged.
func TestSemiImplicitRunReportsSolver(t *testing.T) {
	for _, c := range []struct {
		solver []string // -set arguments on the demo
		warn   bool
	}{
		{[]string{"-set", `solver.integrator="semi-implicit"`}, false},
		{[]string{"-set", `solver.integrator="semi-implicit"`, "-set", "solver.max_iterations=1", "-set", "solver.tolerance=1e-9"}, true},
	} {
		dir := t.TempDir()
		var stderr bytes.Buffer
		args := append([]string{"-quality", "draft", "-frames", "2", "-o", dir}, c.solver...)
		if code := run(args, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("snowsim %v: exit %d: %s", args, code, stderr.String())
		}
		msg := stderr.String()
		if !strings.Contains(msg, "solver iterations/step") {
			t.Errorf("%q: no solver iterations in %q", c.solver, msg)
		}
		warned := strings.Contains(msg, "warning: frame 1:") && strings.Contains(msg, "max_iterations = 1") && strings.Contains(msg, "lower cfl, wave_cells or max_dt")
		if warned != c.warn {
			t.Errorf("%q: warned %v, want %v: %q", c.solver, warned, c.warn, msg)
		}
	}
}

// From the command line: -set runs the press scene at another pressure without
// sintering, and a bad -set is a usage error naming the key.
func TestSetFlag(t *testing.T) {
	out := t.TempDir()
	var stderr strings.Builder
	args := []string{"-frames", "1", "-checkpoint", "0", "-o", out, "-set", "press.1.pressure=300",
		"-set", `snow.1.material="fresh"`, "../../examples/press_ball.toml"}
	if code := run(args, &strings.Builder{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	readFrame(t, out+"/snow.0001.prt")
	stderr.Reset()
	if code := run([]string{"-set", "press.3.pressure=1", "../../examples/press_ball.toml"}, &strings.Builder{}, &stderr); code != 2 ||
		!strings.Contains(stderr.String(), "press_ball.toml: -set press.3.pressure: press has entries 1 to 1") {
		t.Errorf("bad -set: exit %d, %q", code, stderr.String())
	}
}

func TestFrameName(t *testing.T) {
	if got := frameName("snow.####.prt", 7); got != "snow.0007.prt" {
		t.Error(got)
	}
	if got := frameName("snow_%04d.prt", 12); got != "snow_0012.prt" {
		t.Error(got)
	}
}
