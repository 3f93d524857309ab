package scene

import (
	"strings"
	"testing"

	"snowtools/simcore"
)

// -set replaces scene keys, in tables, arrays of tables and new tables, with TOML
// values; bad paths and values are refused with the key named.
func TestOverride(t *testing.T) {
	scene := minimalScene + "[[press]]\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\npressure = 100\n"
	text, err := Override([]byte(scene), []string{"press.1.pressure=300", "snow.1.material=\"wet\"",
		"time.frames = 3", "solver.gravity=[0, -1.62, 0]", "solver.damping=2"})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := Read("s.toml", strings.NewReader(string(text)), 1)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	wet, _ := simcore.Preset("wet")
	if sc.Config.Presses[0].Pressure != 300 || sc.Sources[0].Material != wet || sc.Frames != 3 || sc.Config.Gravity[1] != -1.62 ||
		sc.Config.Damping != 2 {
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
		if _, err := Override([]byte(scene), []string{c.set}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("-set %q: %v, want an error naming %q", c.set, err, c.want)
		}
	}
}
