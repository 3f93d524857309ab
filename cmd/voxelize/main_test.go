package main

import (
	"strings"
	"testing"

	"snowtools/cmd/internal/cli"
)

// Usage errors exit with 2 and say in one line which flag is wrong and why, and where
// the flags are described, before any file is read; -h prints help with examples and exits with 0.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // the whole of stderr
	}{
		{[]string{"-voxel", "0", "m.obj"}, "voxelize: -voxel 0: must be > 0 (-h for help)\n"},
		{[]string{"-voxel", "-0.1", "m.obj"}, "voxelize: -voxel -0.1: must be > 0 (-h for help)\n"},
		{[]string{"-res", "0", "m.obj"}, "voxelize: -res 0: must be > 0 (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-res", "10", "m.obj"}, "voxelize: -voxel and -res: give one (-h for help)\n"},
		{[]string{"m.obj"}, "voxelize: -voxel h (metres) or -res N is required (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-fps", "0", "m.obj"}, "voxelize: -fps 0: must be > 0 (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-band", "-1", "m.obj"}, "voxelize: -band -1: must be >= 0 (0: automatic) (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-threads", "-2", "m.obj"}, "voxelize: -threads -2: must be >= 0 (0: all cores) (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-max-band", "2", "m.obj"}, "voxelize: -max-band 2: must be at least 3, the band without motion (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-band", "5", "-max-band", "8", "m.obj"}, "voxelize: -band and -max-band: give one (-max-band caps the automatic band) (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-weld", "-1e-3", "m.obj"}, "voxelize: -weld -0.001: must be >= 0 metres (-h for help)\n"},
		{[]string{"-voxel", "0.1", "-sign", "guess", "m.obj"}, `voxelize: -sign "guess": use auto, pseudonormal or winding` + " (-h for help)\n"},
		{[]string{"-voxel", "fine", "m.obj"}, `voxelize: invalid value "fine" for flag -voxel: parse error` + " (-h for help)\n"},
		{[]string{"-voxel", "0.1"}, "voxelize: give one mesh, not [] (-h for help)\n"},
		{[]string{"-voxel", "0.1", "a.obj", "b.obj"}, `voxelize: give one mesh, not ["a.obj" "b.obj"] (-h for help)` + "\n"},
	} {
		if code, log := runVoxelize(t, c.args...); code != cli.ExitUsage || log != c.want {
			t.Errorf("%v: exit %d, %q; want exit %d, %q", c.args, code, log, cli.ExitUsage, c.want)
		}
	}
	if code, log := runVoxelize(t, "-h"); code != 0 || !strings.Contains(log, "Examples:") || !strings.Contains(log, "-voxel h") {
		t.Errorf("-h: exit %d, %q", code, log)
	}
}
