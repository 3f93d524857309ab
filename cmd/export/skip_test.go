package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -skip-existing converts only the frames whose output is missing: a file in place
// stays as it is (even one that is not what export would write, which shows that it
// was not touched), a missing one is written, and a run with nothing left to do
// succeeds. Whole-sequence outputs refuse the flag.
func TestSkipExisting(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	out := filepath.Join(dir, "ply", "snow.####.ply")
	mustExport(t, "-to", "ply", in, out)
	kept, redone := filepath.Join(dir, "ply", "snow.0001.ply"), filepath.Join(dir, "ply", "snow.0002.ply")
	want, err := os.ReadFile(redone)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(kept, []byte("not touched"), 0o644)
	os.Remove(redone)
	log := mustExport(t, "-to", "ply", "-skip-existing", in, out)
	if !strings.Contains(log, "1 frames (2-2)") {
		t.Errorf("log %q: want one frame, 2, converted", log)
	}
	if b, _ := os.ReadFile(kept); string(b) != "not touched" {
		t.Errorf("frame 1's existing output was rewritten")
	}
	if b, err := os.ReadFile(redone); err != nil || string(b) != string(want) {
		t.Errorf("frame 2's missing output: %v, or not the bytes of a full run", err)
	}
	if log := mustExport(t, "-to", "ply", "-skip-existing", in, out); !strings.Contains(log, "nothing to do") {
		t.Errorf("log %q: want nothing to do", log)
	}
	code, log := runExport(t, "-to", "png", "-skip-existing", "-sheet", filepath.Join(dir, "sheet.png"), in)
	if code != 2 || !strings.Contains(log, "-skip-existing: "+filepath.Join(dir, "sheet.png")+" is written from every frame") {
		t.Errorf("-sheet with -skip-existing: exit %d, %q", code, log)
	}
}
