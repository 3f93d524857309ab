package blendertest_test

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"snowtools/cmd/internal/blendertest"
	"snowtools/simcore"
)

// The scene dcc/blender/test_addon.py builds: a 20 cm snow cube centred 45 cm up,
// thrown at 0.48 m/s along Blender's +Y over a 10 cm slab that an armature's bone raises, its top from 20 to 30 cm over
// Blender's frames 1-7, baked at h = 5 cm, 24 fps.
const (
	addonFirst, addonLast = 1, 7
	addonH                = 0.05
	addonFPS              = 24.0
	cubeHalf              = 0.1 // m
)

// TestAddonBakeAndImport installs the Blender add-on (dcc/blender/snowtools_addon) in
// a headless Blender as a user would, bakes the test scene through its operators with
// the tools built from this tree, and checks what comes back into Blender against
// what the tools wrote: once in metres and once with a unit scale of 0.01 (Blender
// units of centimetres). Then the rates scene (addon_rates_test.go): NTSC's frame
// rate, frames from 1001, colliders moved by modifiers, hidden ones, and a cache
// folder whose name holds "#" and "%d".
func TestAddonBakeAndImport(t *testing.T) {
	blendertest.Need(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH")
	}
	top, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./cmd/voxelize", "./cmd/snowsim", "./cmd/export")
	build.Dir = top
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	driver := filepath.Join(top, "dcc", "blender", "test_addon.py")
	for _, scale := range []string{"1", "0.01"} {
		t.Run("scale="+scale, func(t *testing.T) {
			work := t.TempDir()
			// The add-on is installed into this user scripts folder, not the real user's.
			env := []string{"BLENDER_USER_SCRIPTS=" + filepath.Join(work, "scripts")}
			lines := blendertest.RunFile(t, driver, env, "--tools", bin, "--work", work, "--scale", scale)
			checkAddonRun(t, lines)
		})
	}
	t.Run("rates", func(t *testing.T) {
		work := t.TempDir()
		env := []string{"BLENDER_USER_SCRIPTS=" + filepath.Join(work, "scripts")}
		lines := blendertest.RunFile(t, driver, env, "--tools", bin, "--work", work, "--scene", "rates")
		checkRatesRun(t, lines, filepath.Join(work, ratesCache))
	})
}

// addonReport is what test_addon.py printed, line by line, by the line's first word
// and then its second (the frame, for per-frame lines).
type addonReport map[string][][]string

func parseAddonReport(lines []string) addonReport {
	r := addonReport{}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 {
			r[f[0]] = append(r[f[0]], f[1:])
		}
	}
	return r
}

// one returns the fields of the only line starting with key.
func (r addonReport) one(t *testing.T, key string) []string {
	t.Helper()
	if len(r[key]) != 1 {
		t.Fatalf("test_addon.py printed %d %q lines, want 1", len(r[key]), key)
	}
	return r[key][0]
}

// frames returns, for each frame of the slab scene's bake, the fields after the frame
// number of the line starting with key: fields of them.
func (r addonReport) frames(t *testing.T, key string, fields int) map[int][]string {
	t.Helper()
	return r.framesIn(t, key, fields, addonFirst, addonLast)
}

// framesIn is frames for a bake of frames first to last.
func (r addonReport) framesIn(t *testing.T, key string, fields, first, last int) map[int][]string {
	t.Helper()
	out := map[int][]string{}
	for _, f := range r[key] {
		n, err := strconv.Atoi(f[0])
		if err != nil || len(f) != fields+1 {
			t.Fatalf("%s %v: want a frame number and %d fields", key, f, fields)
		}
		out[n] = f[1:]
	}
	for n := first; n <= last; n++ {
		if _, ok := out[n]; !ok {
			t.Fatalf("no %q line for frame %d", key, n)
		}
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: not a number", s)
	}
	return v
}

func checkAddonRun(t *testing.T, lines []string) {
	r := parseAddonReport(lines)
	checkAddonPresets(t, r.one(t, "presets"))
	if h := strings.Join(r.one(t, "helpers"), " "); h != "ok" {
		t.Errorf("the add-on's helpers: %s", h)
	}

	if b := r.one(t, "bake"); b[0] != "FINISHED" {
		t.Fatalf("bake: %v", b)
	}
	var toml []string
	for _, f := range r["toml"] {
		toml = append(toml, f[0])
	}
	// The cube thrown at 0.48 m/s along Blender's +Y moves along the tools' -Z.
	if want := []string{"h=0.05", "fps=24.0", "start=1", "frames=6", "velocity=[0.0,0.0,-0.48]"}; !slices.Equal(toml, want) {
		t.Errorf("scene.toml says %v, want %v (Blender's frames 1-7: start 1, 6 after it)", toml, want)
	}
	if got := strings.Join(r.one(t, "objects"), " "); got != "points surface volume" {
		t.Errorf("imported objects %q, want points surface volume", got)
	}
	checkFileNumbers(t, r, addonFirst, addonLast)

	// Points: vertex by vertex the PRT's positions, in Blender's axes and units.
	for n, f := range r.frames(t, "points", 7) {
		// f: vertices, particles, max error (m), "ids", same, "time", PRT Time.
		if f[0] != f[1] {
			t.Errorf("frame %d: %s points in Blender, %s particles in the PRT", n, f[0], f[1])
		}
		// 1e-5 m is the limit; measured 3.1e-8 m (float32 positions in the PLY).
		if e := num(t, f[2]); !(e <= 1e-5) {
			t.Errorf("frame %d: points %g m from the PRT positions (want <= 1e-5)", n, e)
		}
		if f[4] != "True" {
			t.Errorf("frame %d: the points' id attribute is not the PRT's ID channel", n)
		}
		if tm, want := num(t, f[6]), float64(n)/addonFPS; math.Abs(tm-want) > 1e-6 {
			t.Errorf("frame %d: the PRT's Time is %g s, want n/fps = %g", n, tm, want)
		}
	}
	// The surface mesh hugs the points: its bounds within h/5 of theirs (measured
	// 0.004-0.005 m at h = 5 cm).
	for n, f := range r.frames(t, "surface", 2) {
		if v := num(t, f[0]); v == 0 {
			t.Errorf("frame %d: the surface mesh is empty", n)
		}
		if d := num(t, f[1]); !(d <= addonH/5) {
			t.Errorf("frame %d: the surface's bounds are %g m from the points' (want <= %g)", n, d, addonH/5)
		}
	}
	// The volume: file n at frame n, and its density (meshed at half of 400 kg/m^3 in
	// Blender) within h of the points' bounds (measured 0.029 m; turned the wrong way
	// it would be ~0.4 m off).
	for n, f := range r.frames(t, "volume", 5) {
		if f[0] != strconv.Itoa(n) || f[1] != fmt.Sprintf("snow.%04d.vdb", n) {
			t.Errorf("frame %d: the Volume shows sequence frame %s, file %s", n, f[0], f[1])
		}
		if d := num(t, f[2]); !(d <= addonH) {
			t.Errorf("frame %d: the volume's density is %g m from the points' bounds (want <= %g; its mesh at 200 kg/m^3 has %s vertices)", n, d, addonH, f[4])
		}
		if f[3] == "0" {
			t.Errorf("frame %d: Blender loaded no grid from the VDB", n)
		}
	}
	// Upright: the snow is above the slab in Blender's +Z, its lowest particle 15 cm
	// above at frame 1 (the cube's 35 cm over the slab's 20 cm: frame 1 is the
	// initial state) and resting on it, less than h/2 above, by frame 7.
	above := r.frames(t, "above", 2)
	for n, f := range above {
		lo, hi := num(t, f[0]), num(t, f[1])
		if lo < -addonH/4 || hi < 0.15 {
			t.Errorf("frame %d: the snow spans %g to %g m above the slab's top: turned, or sunk into the slab (did the slab's motion reach snowsim?)", n, lo, hi)
		}
	}
	if lo := num(t, above[addonFirst][0]); math.Abs(lo-0.15) > addonH/4 {
		t.Errorf("frame %d: the snow's lowest particle is %g m above the slab, want 0.15 (the initial state)", addonFirst, lo)
	}
	if lo := num(t, above[addonLast][0]); lo > addonH/2 {
		t.Errorf("frame %d: the snow is %g m above the slab, not resting on it", addonLast, lo)
	}
	// At frame 1 the particles fill the cube where Blender shows it.
	cube := r.one(t, "cube")
	if len(cube) != 2 {
		t.Fatalf("cube %v: want 2 fields", cube)
	}
	if d, c := num(t, cube[0]), num(t, cube[1]); d > cubeHalf+1e-6 || c > addonH/10 {
		t.Errorf("frame 1: particles reach %g m from the cube's centre (half side %g), their mean is %g m off it", d, cubeHalf, c)
	}

	// A render farm's headless Blender (the saved .blend, the add-on enabled with
	// --addons, -f 5) renders frame 5's points: the frame handler loaded them.
	rendered := r.one(t, "render")
	if len(rendered) != 4 {
		t.Fatalf("render %v: want 4 fields", rendered)
	}
	if rendered[0] != "5" || rendered[1] != rendered[2] || !(num(t, rendered[3]) <= 1e-5) {
		t.Errorf("headless render: frame %s, %s points (the PRT has %s), first point %s m from the PRT's; want frame 5's",
			rendered[0], rendered[1], rendered[2], rendered[3])
	}

	// Thrown along +Y at 0.48 m/s, the snow has gone that way by frame 7 (measured
	// 0.080 m: 0.12 m in 0.25 s less the slab's friction once it lands).
	if thrown := r.one(t, "thrown"); len(thrown) != 1 || !(num(t, thrown[0]) > 0.05) {
		t.Errorf("the thrown snow moved %v m along Blender's +Y by frame %d, want > 0.05", thrown, addonLast)
	}

	// Cancel: the frames written before stay whole, no temporaries, the process gone.
	c := r.one(t, "cancel")
	if len(c) != 11 {
		t.Fatalf("cancel %v: want 11 fields", c)
	}
	if written, _ := strconv.Atoi(c[0]); written < 4 || c[2] != "True" || c[4] != "0" || c[6] == "0" || c[8] != "True" {
		t.Errorf("cancel: %v; want >= 4 whole frames, no hidden files, a killed process, the pipeline done", c)
	}
	// A tool's error reaches the user as the operator's error, in the tool's words.
	e := strings.Join(r.one(t, "error"), " ")
	if !strings.Contains(e, "snowsim failed (exit status 1): snowsim: ") || !strings.Contains(e, "outside the domain") {
		t.Errorf("a bake with the snow outside the domain reported %q; want snowsim's own message", e)
	}
}

// checkFileNumbers: the bake's particle files, collider VDBs and the collider OBJ
// files Blender's exporter wrote are each numbered first to last, Blender's frames.
func checkFileNumbers(t *testing.T, r addonReport, first, last int) {
	t.Helper()
	var want []string
	for n := first; n <= last; n++ {
		want = append(want, strconv.Itoa(n))
	}
	listed := map[string]string{}
	for _, f := range r["files"] {
		listed[f[0]] = strings.Join(f[1:], " ")
	}
	for _, kind := range []string{"prt", "colliders", "collider_meshes"} {
		got, ok := listed[kind]
		if !ok {
			t.Errorf("test_addon.py listed no %s files", kind)
		} else if got != strings.Join(want, " ") {
			t.Errorf("%s files numbered %q, want Blender's frames %q", kind, got, strings.Join(want, " "))
		}
	}
}

// checkAddonPresets: the panel offers only presets snowsim knows, and every preset
// snowsim knows under some name.
func checkAddonPresets(t *testing.T, offered []string) {
	var materials []simcore.Material
	for _, name := range offered {
		m, err := simcore.Preset(name)
		if err != nil {
			t.Errorf("the add-on offers %q: %v", name, err)
		}
		materials = append(materials, m)
	}
	for _, name := range simcore.PresetNames() {
		if m, _ := simcore.Preset(name); !slices.Contains(materials, m) {
			t.Errorf("snowsim's preset %q is not offered by the add-on (it offers %v)", name, offered)
		}
	}
}
