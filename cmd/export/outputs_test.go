package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
)

// Outputs that cannot be written fail before any frame is read: the contact sheet,
// the GIF, the clusters report, the comparison picture and per-frame outputs, in a
// folder that takes no files (/proc, even for root), under a file, or naming a folder.
// The error names the output and its folder, never a hidden temporary file. On main
// -sheet rendered every frame first and then failed naming .sheet.png.tmp<digits>.
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	in, _ := writeSequence(t, dir, 3)
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"-to", "png", "-sheet", filepath.Join(file, "sheet.png"), in}, "output " + filepath.Join(file, "sheet.png") + ": mkdir " + file + ": not a directory"},
		{[]string{"-to", "png", "-gif", dir, in}, "output " + dir + ": is a folder; name the file to write"},
		{[]string{"-to", "clusters", in, filepath.Join(file, "c.csv")}, "output " + filepath.Join(file, "c.csv") + ": mkdir " + file + ": not a directory"},
		{[]string{"-to", "compare", filepath.Join(file, "cmp.png"), in, in}, "output " + filepath.Join(file, "cmp.png") + ": mkdir " + file + ": not a directory"},
		{[]string{"-to", "vdb", in, filepath.Join(file, "s.####.vdb")}, "output " + filepath.Join(file, "s.####.vdb") + ": mkdir " + file + ": not a directory"},
	}
	if _, err := os.Stat("/proc/self"); err == nil {
		cases = append(cases, struct {
			args []string
			want string
		}{[]string{"-to", "png", "-sheet", "/proc/sheet.png", in}, "output /proc/sheet.png: cannot create a file in the folder /proc: "})
	}
	for _, c := range cases {
		code, log := runExport(t, c.args...)
		if code != cli.ExitFailure || !strings.Contains(log, c.want) || strings.Contains(log, "frame 1") || strings.Contains(log, ".tmp") {
			t.Errorf("%v: exit %d, %q; want exit 1, %q and no frame converted", c.args, code, log, c.want)
		}
	}
}
