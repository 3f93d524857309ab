package main

import (
	"os"
	"strings"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// The press experiment's scene reaches the solver: the sintering material with the
// default law, the window, the press and the late gravity.
func TestPressSceneArrives(t *testing.T) {
	text, err := os.ReadFile("../../examples/press_ball.toml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parseScene("press_ball.toml", strings.NewReader(string(text)), 1)
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Config
	if c.GravityStart != 0.1 || c.SinterStart != 0 || c.SinterEnd != 0.1 {
		t.Errorf("gravity start %g, sintering window [%g, %g]", c.GravityStart, c.SinterStart, c.SinterEnd)
	}
	want := simcore.Press{Center: geom.Vec3{0.22, 0.35, 0.12}, Radius: 0.06, Pressure: 150, End: 0.1}
	if len(c.Presses) != 1 || c.Presses[0] != want {
		t.Errorf("presses %+v, want %+v", c.Presses, want)
	}
	if law := sc.Sources[0].Material.Sintering; law == nil || *law != simcore.DefaultSinteringLaw {
		t.Errorf("snow[1] sinters by %+v, want the default law", law)
	}
	if sc.Materials["fresh"].Sintering != nil {
		t.Error("materials.fresh sinters without a sintering table")
	}
}

// Keys of a sintering table replace the default law's; the others stay.
func TestSinteringLawKeys(t *testing.T) {
	scene := minimalScene + "material = \"hard\"\n[materials.hard]\nrho0 = 450\n[materials.hard.sintering]\nrho_max = 800\nC2 = 5e-3\n"
	sc, err := parseScene("s.toml", strings.NewReader(scene), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := simcore.DefaultSinteringLaw
	want.MaxDensity, want.C2 = 800, 5e-3
	if got := sc.Materials["hard"].Sintering; got == nil || *got != want {
		t.Errorf("law %+v, want %+v", got, want)
	}
}

func TestSinteringSceneErrors(t *testing.T) {
	const press = "[[press]]\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\npressure = 100\n"
	for _, c := range []struct{ scene, want string }{
		{minimalScene + "[materials.m]\n[materials.m.sintering]\nrho_max = 300\n", "materials.m: sintering rho_max"},
		{minimalScene + "[materials.m]\nrho0 = 250\n[materials.m.sintering]\n", "materials.m: sintering: Poisson"},
		{minimalScene + "[materials.m.sintering]\nC6 = 1\n", "unknown key materials.m.sintering.C6"},
		{minimalScene + "[sintering]\nstart = 2\nend = 1\n", "sintering window"},
		{minimalScene + "[solver]\ngravity_start = -1\n", "gravity start"},
		{minimalScene + strings.Replace(press, "radius = 0.2\n", "", 1), "press[1].radius: required"},
		{minimalScene + strings.Replace(press, "pressure = 100\n", "", 1), "press[1].pressure: required"},
		{minimalScene + strings.Replace(press, "pressure = 100", "pressure = -5", 1), "press[1]: press pressure"},
		{minimalScene + press + "axis = [0, 0, 0]\n", "press[1].axis"},
		{minimalScene + press + "start = 1\nend = 0.5\n", "press[1]: press window"},
	} {
		_, err := parseScene("s.toml", strings.NewReader(c.scene), 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
}

// -set replaces scene keys, in tables, arrays of tables and new tables, with TOML
// values; bad paths and values are refused with the key named.
func TestOverride(t *testing.T) {
	scene := minimalScene + "[[press]]\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\npressure = 100\n"
	text, err := override([]byte(scene), []string{"press.1.pressure=300", "snow.1.material=\"wet\"",
		"time.frames = 3", "solver.gravity=[0, -1.62, 0]"})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := parseScene("s.toml", strings.NewReader(string(text)), 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	wet, _ := simcore.Preset("wet")
	if sc.Config.Presses[0].Pressure != 300 || sc.Sources[0].Material != wet || sc.Frames != 3 || sc.Config.Gravity[1] != -1.62 {
		t.Errorf("overrides did not arrive: %+v", sc)
	}
	for _, c := range []struct{ set, want string }{
		{"press.2.pressure=1", "press has entries 1 to 1"},
		{"press.x.pressure=1", "press has entries 1 to 1"},
		{"press.1=1", "press.1 is a table"},
		{"domain.h.x=1", "h is a value"},
		{"collider.1.mode=\"slip\"", "collider has no entry 1"},
		{"time.frames=fresh", "not a TOML value"},
		{"time.frames=1\nx = 2", "not a TOML value"},
		{"frames", "use key=value"},
	} {
		if _, err := override([]byte(scene), []string{c.set}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-set %q: %v, want an error naming %q", c.set, err, c.want)
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
