package abc

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/formats/abc/abctest"
)

// The Alembic 1.8.8 library and tools built by ../shared/judges/alembic/build.sh are
// the judge of this package (abctest.Prefix finds them).

// judgeProgram compiles testdata/judge/name.cpp against the judge (abctest.Program).
func judgeProgram(t testing.TB, name string) string {
	t.Helper()
	return abctest.Program(t, name)
}

// judgeTool returns the path of one of the judge's tools (abcls, abctree, abcecho).
func judgeTool(t testing.TB, name string) string {
	t.Helper()
	return abctest.Tool(t, name)
}

// run runs a program and returns its standard output, failing the test if it fails.
func run(t testing.TB, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(name), strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}
