// Package abctest gives tests the judges of package abc: the fuzzer-found damaged
// archives that Alembic 1.8.8's own tests keep, and the build of the Alembic library
// and its tools (abcls, abctree, abcecho) that ../shared/judges/alembic/build.sh
// makes. It imports only the standard library and levelset/sharedtest, so that the
// tests of formats/abc and of the tools may share it.
package abctest

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/levelset/sharedtest"
)

// DamagedArchives extracts the fuzzer-found damaged archives of the Alembic 1.8.8
// source (lib/Alembic/AbcCoreOgawa/Tests/*.abc, lib/Alembic/Abc/Tests/*.abc) from
// ../shared/judges/alembic into a temporary folder and returns their paths. Each is
// read up to 1 MiB; they are a few KB.
func DamagedArchives(tb testing.TB) []string {
	tb.Helper()
	src := sharedtest.Path(tb, "judges", "alembic", "alembic-1.8.8.tar.gz")
	f, err := os.Open(src)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	var paths []string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		dirName, name := path.Split(h.Name)
		if !strings.HasSuffix(name, ".abc") || !(strings.HasSuffix(dirName, "lib/Alembic/AbcCoreOgawa/Tests/") ||
			strings.HasSuffix(dirName, "lib/Alembic/Abc/Tests/")) {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, 1<<20))
		if err != nil {
			tb.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			tb.Fatal(err)
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		tb.Fatalf("no damaged archives in %s", src)
	}
	return paths
}

// The Alembic 1.8.8 library and tools built by ../shared/judges/alembic/build.sh are
// the judge of Alembic files. Tests find the build's prefix in PrefixEnv, or at
// build.sh's default prefix, and skip when it is missing, unless RequireEnv is set
// (as .ci/run sets it): then they fail.
const (
	PrefixEnv  = "SNOWTOOLS_ALEMBIC_PREFIX"
	RequireEnv = "SNOWTOOLS_REQUIRE_ALEMBIC"
)

// Prefix returns the judge's install prefix, or skips (fails, under RequireEnv)
// the test when the build, g++ or Imath's headers are missing.
func Prefix(tb testing.TB) string {
	tb.Helper()
	prefix := os.Getenv(PrefixEnv)
	if prefix == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		prefix = filepath.Join(cache, "alembic-1.8.8")
	}
	var missing []string
	for _, f := range []string{"lib/libAlembic.a", "bin/abcls", "bin/abctree", "bin/abcecho", "include/Alembic/AbcGeom/All.h"} {
		if _, err := os.Stat(filepath.Join(prefix, f)); err != nil {
			missing = append(missing, filepath.Join(prefix, f))
		}
	}
	if _, err := exec.LookPath("g++"); err != nil {
		missing = append(missing, "g++")
	}
	if _, err := os.Stat("/usr/include/Imath"); err != nil {
		missing = append(missing, "/usr/include/Imath (libimath-dev)")
	}
	if len(missing) > 0 {
		msg := "the Alembic judge is missing (" + strings.Join(missing, ", ") + "): build it with " +
			"../shared/judges/alembic/build.sh PREFIX and set " + PrefixEnv + "=PREFIX"
		if os.Getenv(RequireEnv) != "" {
			tb.Fatal(msg + "; " + RequireEnv + " is set, so this is a failure")
		}
		tb.Skip(msg + "; set " + RequireEnv + "=1 to fail instead")
	}
	return prefix
}

// Tool returns the path of one of the judge's tools (abcls, abctree, abcecho).
func Tool(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Prefix(tb), "bin", name)
}
