package scene

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
	text, err := os.ReadFile("../../../examples/press_ball.toml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Read("press_ball.toml", strings.NewReader(string(text)), 1)
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
	sc, err := Read("s.toml", strings.NewReader(scene), 1)
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
		{minimalScene + "[materials.m]\n[materials.m.sintering]\nrho_max = 300\n", "materials.m.sintering.rho_max: 300: must exceed"},
		{minimalScene + "[materials.m]\nrho0 = 250\n[materials.m.sintering]\n", "materials.m.sintering: Poisson's ratio would reach"},
		{minimalScene + "[materials.m.sintering]\nC6 = 1\n", "unknown key materials.m.sintering.C6"},
		{minimalScene + "[sintering]\nstart = 2\nend = 1\n", "sintering.end: 1 s: must be after the start 2 s"},
		{minimalScene + "[solver]\ngravity_start = -1\n", "solver.gravity_start: -1 s: must be >= 0"},
		{minimalScene + strings.Replace(press, "radius = 0.2\n", "", 1), "press[1].radius: required"},
		{minimalScene + strings.Replace(press, "pressure = 100\n", "", 1), "press[1].pressure: required"},
		{minimalScene + strings.Replace(press, "pressure = 100", "pressure = -5", 1), "press[1].pressure: -5 Pa: must be in [0, 1e+08] Pa"},
		{minimalScene + press + "axis = [0, 0, 0]\n", "press[1].axis"},
		{minimalScene + press + "start = 1\nend = 0.5\n", "press[1].end: 0.5 s: must be after the start 1 s"},
	} {
		_, err := Read("s.toml", strings.NewReader(c.scene), 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one naming %q", err, c.want)
		}
	}
}
