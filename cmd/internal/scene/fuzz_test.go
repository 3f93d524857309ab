package scene

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary text to the scene loader, as snowsim does with a scene
// file: decode, the pre-scan's limits, and loading (keys to settings, shapes,
// materials, presses, the ground). It must never panic, and every error must name
// the file. Seeds are the example scenes and the hostile texts of issue 24.
//
// Texts that name a file (a "path" key) are skipped: loading one reads, and may
// voxelize, whatever the fuzzer names, which measures the disk rather than the
// loader; the readers of those files have fuzz targets of their own (formats/*).
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("../../../examples/*.toml")
	for _, name := range files {
		text, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	for _, h := range hostileScenes[:4] {
		f.Add([]byte(h.text[:min(len(h.text), 2000)]))
	}
	f.Add([]byte("[domain]\nmin = [0, 0, 0]\nmax = [1, 1, 1]\nh = 0.1\n[[snow]]\nshape = \"sphere\"\ncenter = [0.5, 0.5, 0.5]\nradius = 0.2\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		if bytes.Contains(text, []byte("path")) {
			t.Skip("names a file")
		}
		_, err := Read("fuzz.toml", bytes.NewReader(text), 1)
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.toml: ") {
			t.Fatalf("error %q does not name the file", err)
		}
	})
}
