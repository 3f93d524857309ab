package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A damaged frame stops the run with its number, its file and what is wrong; the
// frames before it are complete files, and no temporary file is left behind.
func TestDamagedFrame(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	bad := filepath.Join(dir, "sim", "snow.0003.prt")
	truncateHalf(t, bad)
	out := filepath.Join(dir, "out")
	code, log := runExport(t, "-to", "ply", "-threads", "1", in, filepath.Join(out, "s.####.ply"))
	if code != exitFailure || !strings.Contains(log, "frame 3 ("+bad+")") || !strings.Contains(log, "prt:") {
		t.Fatalf("exit %d: %s", code, log)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "s.0001.ply s.0002.ply" {
		t.Errorf("output folder holds %v, want the two good frames only", names)
	}
	for _, n := range names {
		readPLY(t, filepath.Join(out, n)) // complete and valid
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 1)
	out := filepath.Join(dir, "o.ply")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{in, out}, exitUsage, "-to is required"},
		{[]string{"-to", "obj", in, out}, exitUsage, `-to "obj"`},
		{[]string{"-to", "ply", "-voxel", "0.01", in, out}, exitUsage, "-voxel applies to -to vdb, not -to ply"},
		{[]string{"-to", "vdb", "-ascii", in, out}, exitUsage, "-ascii applies to -to ply"},
		{[]string{"-to", "png", "-size", "big", in, out}, exitUsage, "-size"},
		{[]string{"-to", "ply", "-frames", "5-2", in, out}, exitUsage, "-frames"},
		{[]string{"-to", "ply", "-colormap", "rainbow", in, out}, exitUsage, "viridis"},
		{[]string{"-to", "vdb", "-filter", "0.5", in, out}, exitUsage, "-filter"},
		{[]string{"-to", "prt", "-rename", "A", in, out}, exitUsage, "Old=New"},
		{[]string{"-to", "ply", "-frames", "7", in, out}, exitFailure, "no frame in -frames 7"},
		{[]string{"-to", "ply", filepath.Join(dir, "nothing.prt"), out}, exitFailure, "no such file"},
		{[]string{"-to", "prt", in, filepath.Join(dir, "sim", "snow.0001.prt")}, exitFailure, "would replace its input"},
	} {
		code, log := runExport(t, c.args...)
		if code != c.code || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d (want %d): %s (want %q)", c.args, code, c.code, log, c.want)
		}
	}
}
