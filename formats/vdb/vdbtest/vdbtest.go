// Package vdbtest lets tests make OpenVDB itself the judge of the files this project
// writes: Debian's OpenVDB 10 (python3-openvdb for /usr/bin/python3, and
// libopenvdb-tools). Tests skip when it is missing, unless SNOWTOOLS_REQUIRE_OPENVDB
// is set, as .ci/run sets it: then a missing OpenVDB fails them.
package vdbtest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Python is the interpreter that Debian's python3-openvdb installs pyopenvdb for.
const Python = "/usr/bin/python3"

// RequireEnv names the environment variable that turns a missing OpenVDB into a failure.
const RequireEnv = "SNOWTOOLS_REQUIRE_OPENVDB"

// NeedOpenVDB skips the test when pyopenvdb or the OpenVDB tools are missing.
func NeedOpenVDB(tb testing.TB) {
	tb.Helper()
	missing := ""
	if err := exec.Command(Python, "-c", "import pyopenvdb").Run(); err != nil {
		missing = "pyopenvdb for " + Python
	} else if _, err := exec.LookPath("vdb_tool"); err != nil {
		missing = "vdb_tool"
	} else if _, err := exec.LookPath("vdb_print"); err != nil {
		missing = "vdb_print"
	}
	if missing == "" {
		return
	}
	msg := "OpenVDB is not installed (" + missing + " missing): apt-get install python3-openvdb libopenvdb-tools"
	if os.Getenv(RequireEnv) != "" {
		tb.Fatal(msg + "; " + RequireEnv + " is set, so this is a failure")
	}
	tb.Skip(msg)
}

// Run runs a command and returns its combined output, failing the test if it fails.
func Run(tb testing.TB, name string, args ...string) string {
	tb.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		tb.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}
