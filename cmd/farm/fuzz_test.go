package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A shot description of any bytes is read or refused with a *KeyError naming its file,
// never a panic; a wedge never grows past maxWedgeRuns runs.
func FuzzParseShot(f *testing.F) {
	files, _ := filepath.Glob("../../examples/farm/*.toml")
	for _, name := range files {
		text, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Add([]byte("[snowsim]\nscene = \"s.toml\"\n[wedge]\nkeys = [\"a.b\", \"c.d\"]\nvalues = [[1, 2, 3], [4, 5]]\n"))
	f.Add([]byte("[snowsim]\nscene = \"s.toml\"\n[wedge]\nkeys = [\"a.b\"]\nrows = [[1], [2]]\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		shot, err := parseShot("fuzz.toml", text, "/tools")
		if err != nil {
			var ke *KeyError
			if !errors.As(err, &ke) || !strings.HasPrefix(err.Error(), "fuzz.toml: ") {
				t.Fatalf("error %q (%T) does not name the file as a *KeyError", err, err)
			}
			return
		}
		if sim := shot.Snowsim; sim != nil && sim.Wedge != nil && len(sim.Wedge.Runs) > maxWedgeRuns {
			t.Fatalf("%d wedge runs", len(sim.Wedge.Runs))
		}
	})
}
