package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
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
	if code != cli.ExitFailure || !strings.Contains(log, "frame 3 ("+bad+")") || !strings.Contains(log, "prt:") {
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
		{[]string{in, out}, cli.ExitUsage, "-to is required"},
		{[]string{"-to", "obj", in, out}, cli.ExitUsage, `-to "obj"`},
		{[]string{"-to", "ply", "-voxel", "0.01", in, out}, cli.ExitUsage, "-voxel applies to -to vdb and surface, not -to ply"},
		{[]string{"-to", "vdb", "-ascii", in, out}, cli.ExitUsage, "-ascii applies to -to ply"},
		{[]string{"-to", "png", "-size", "big", in, out}, cli.ExitUsage, "-size"},
		{[]string{"-to", "ply", "-frames", "5-2", in, out}, cli.ExitUsage, "-frames"},
		{[]string{"-to", "ply", "-colormap", "rainbow", in, out}, cli.ExitUsage, "viridis"},
		{[]string{"-to", "vdb", "-filter", "0.5", in, out}, cli.ExitUsage, "-filter"},
		{[]string{"-to", "prt", "-rename", "A", in, out}, cli.ExitUsage, "Old=New"},
		{[]string{"-to", "ply", "-frames", "7", in, out}, cli.ExitFailure, "no frame in -frames 7"},
		{[]string{"-to", "ply", filepath.Join(dir, "nothing.prt"), out}, cli.ExitFailure, "no such file"},
		{[]string{"-to", "prt", in, filepath.Join(dir, "sim", "snow.0001.prt")}, cli.ExitFailure, "would replace its input"},
	} {
		code, log := runExport(t, c.args...)
		if code != c.code || !strings.Contains(log, c.want) {
			t.Errorf("%v: exit %d (want %d): %s (want %q)", c.args, code, c.code, log, c.want)
		}
	}
}

// -h prints help with examples and exits with 0; a usage error is one line that names
// the flag or arguments at fault and points to -h, without the help.
func TestHelpAndUsageLines(t *testing.T) {
	if code, log := runExport(t, "-h"); code != 0 || !strings.Contains(log, "Examples:") || !strings.Contains(log, "-to format") {
		t.Errorf("-h: exit %d, %q", code, log)
	}
	for _, c := range []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"-to", "ply", "-threads", "-1", "in.prt", "out.ply"}, "export: -threads -1: must be positive (-h for help)\n"},
		{[]string{"-to", "ply", "-threads", "all", "in.prt", "out.ply"}, `export: invalid value "all" for flag -threads: parse error (-h for help)` + "\n"},
		{[]string{"-to", "ply", "in.prt"}, `export: -to ply: give the input and the output, not ["in.prt"] (-h for help)` + "\n"},
		{[]string{"in.prt", "out.ply"}, "export: -to is required: ply, vdb, prt, png, clusters, compare, surface or abc (-h for help)\n"},
	} {
		if code, log := runExport(t, c.args...); code != cli.ExitUsage || log != c.want {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", c.args, code, log, cli.ExitUsage, c.want)
		}
	}
}
