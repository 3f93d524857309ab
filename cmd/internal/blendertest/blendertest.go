// Package blendertest lets tests make Blender the judge of the files the tools write:
// Debian's Blender 3.4, run headless (blender -b --factory-startup) on a Python script
// that imports a file and prints what it found. Tests skip when Blender is missing,
// unless SNOWTOOLS_REQUIRE_BLENDER is set, as .ci/run sets it: then a missing Blender
// fails them.
package blendertest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RequireEnv names the environment variable that turns a missing Blender into a failure.
const RequireEnv = "SNOWTOOLS_REQUIRE_BLENDER"

// Need skips the test when Blender is not installed, and returns its path.
func Need(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("blender")
	if err == nil {
		return path
	}
	msg := "Blender is not installed (no blender on PATH): apt-get install blender"
	if os.Getenv(RequireEnv) != "" {
		tb.Fatal(msg + "; " + RequireEnv + " is set, so this is a failure")
	}
	tb.Skip(msg)
	return ""
}

// Marker starts the lines of a script's output that Run returns: Blender prints
// much else (its banner, the importers' progress) on the same stream.
const Marker = "SNOWTOOLS "

// Run runs script (Python) in a headless Blender with args after "--" (the script
// reads them from sys.argv) and returns the lines it printed that start with Marker,
// with the marker removed. The test fails if Blender fails or the script raises.
func Run(tb testing.TB, script string, args ...string) []string {
	tb.Helper()
	file := filepath.Join(tb.TempDir(), "judge.py")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		tb.Fatal(err)
	}
	return RunFile(tb, file, nil, args...)
}

// RunFile is Run for a script that is a file already, such as a test driver kept in
// the repository; env adds "NAME=value" entries to Blender's environment.
func RunFile(tb testing.TB, file string, env []string, args ...string) []string {
	tb.Helper()
	blender := Need(tb)
	// Without --python-exit-code, a script that raises leaves Blender's status 0.
	cmd := exec.Command(blender, append([]string{"-b", "--factory-startup", "--python-exit-code", "3", "--python", file, "--"}, args...)...)
	cmd.Env = append(append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("blender %s: %v\n%s", filepath.Base(file), err, out)
	}
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), Marker); ok {
			lines = append(lines, rest)
		}
	}
	return lines
}
