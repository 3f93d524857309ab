// Package sharedtest finds the project's shared folder for tests: ../shared beside the
// module root, which holds the test assets (assets/: animated glTF files, the spot mesh),
// the judges (judges/) and the specifications the tests measure against. It is not part
// of the module, so a developer's checkout may lack it; CI always has it.
//
// A test that needs a file there asks Path for it. When the folder or the file is
// missing the test skips and says how to make the absence a failure, unless
// SNOWTOOLS_REQUIRE_SHARED is set, as .ci/run sets it: then it fails. This is the same
// rule as formats/vdb/vdbtest's SNOWTOOLS_REQUIRE_OPENVDB for OpenVDB.
//
// The package imports only the standard library and sits under levelset so that the
// tests of every layer (levelset, formats, simcore and cmd) may import it.
package sharedtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// RequireEnv names the environment variable that turns a missing shared folder or file
// into a failure.
const RequireEnv = "SNOWTOOLS_REQUIRE_SHARED"

// Dir returns the absolute path of the shared folder: the folder named shared beside
// the module root, the first folder at or above the working directory (a test's package
// folder) that holds a go.mod. It returns an error when there is no module root or no
// such folder.
func Dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(filepath.Dir(root), "shared")
	if st, err := os.Stat(dir); err != nil {
		return "", err
	} else if !st.IsDir() {
		return "", fmt.Errorf("%s is not a folder", dir)
	}
	return dir, nil
}

// moduleRoot returns the first folder at or above dir that holds a go.mod.
func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod at or above %s", dir)
		}
		d = up
	}
}

// Find returns the absolute path of elem (joined as by filepath.Join, such as "assets",
// "spot_triangulated.obj") inside the shared folder, or an error saying what is missing.
// It neither skips nor fails: Path and Missing apply the rule.
func Find(elem ...string) (string, error) {
	dir, err := Dir()
	if err != nil {
		return "", fmt.Errorf("../shared not found: %w", err)
	}
	p := filepath.Join(append([]string{dir}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("../shared/%s not found: %w", filepath.ToSlash(filepath.Join(elem...)), err)
		}
		return "", err
	}
	return p, nil
}

// Path returns the absolute path of elem inside the shared folder. When it is missing,
// the test skips with a message naming what is missing, or fails when RequireEnv is set.
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, err := Find(elem...)
	if err != nil {
		Missing(tb, err)
	}
	return p
}

// Asset returns the absolute path of ../shared/assets/name, as Path does.
func Asset(tb testing.TB, name string) string {
	tb.Helper()
	return Path(tb, "assets", name)
}

// Missing reports err, an error from Find, by the package's rule: it fails the test
// when RequireEnv is set and skips it otherwise, saying how to make it a failure.
// Either way the test stops here.
func Missing(tb testing.TB, err error) {
	tb.Helper()
	if Required() {
		tb.Fatalf("%v; %s is set, so this is a failure", err, RequireEnv)
	}
	tb.Skipf("%v; set %s=1 to fail instead", err, RequireEnv)
}

// Optional is for a test that uses a shared file when it is there and runs its other
// cases without it. It returns the file's path and true when it is there. When it is
// missing it fails the test if RequireEnv is set (the test goes on, and fails at its
// end); otherwise it logs the absence, visible with go test -v, and returns false.
func Optional(tb testing.TB, elem ...string) (string, bool) {
	tb.Helper()
	p, err := Find(elem...)
	if err == nil {
		return p, true
	}
	if Required() {
		tb.Errorf("%v; %s is set, so this is a failure", err, RequireEnv)
	} else {
		tb.Logf("%v; this case is left out (set %s=1 to fail instead)", err, RequireEnv)
	}
	return "", false
}

// Required reports whether RequireEnv is set to anything but the empty string.
func Required() bool { return os.Getenv(RequireEnv) != "" }
