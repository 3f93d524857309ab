// Package abctest gives tests the judges of package abc: the fuzzer-found damaged
// archives that Alembic 1.8.8's own tests keep, and the build of the Alembic library
// and its tools (abcls, abctree, abcecho) that ../shared/judges/alembic/build.sh
// makes. It imports only the standard library and levelset/sharedtest, so that the
// tests of formats/abc and of the tools may share it.
package abctest

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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

var (
	programMu   sync.Mutex
	programBins = map[string]string{}
	programErrs = map[string]string{} // programs that did not compile, and why
)

// Program compiles formats/abc/testdata/judge/name.cpp (read_ours: print every value
// of an archive's Points, PolyMesh and Xform objects; write_reference) against the
// judge and returns the program's path. Programs are cached in the user's cache
// folder by the hash of their source and the prefix, since each takes some 20
// seconds to compile. Test processes (go test runs packages in parallel) may compile
// the same program at once: each compiles into a file of its own and renames it into
// place, so the cache only ever holds whole programs, and the last rename wins.
func Program(tb testing.TB, name string) string {
	tb.Helper()
	prefix := Prefix(tb)
	programMu.Lock()
	defer programMu.Unlock()
	if bin, ok := programBins[name]; ok {
		return bin
	}
	if msg, ok := programErrs[name]; ok {
		tb.Fatal(msg)
	}
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("abctest: cannot find its own source folder")
	}
	src := filepath.Join(filepath.Dir(here), "..", "testdata", "judge", name+".cpp")
	code, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	sum := sha256.Sum256(append(code, prefix...))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "snowtools-abc-judge")
	bin := filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(bin); err != nil {
		if err := compile(dir, bin, src, prefix); err != nil {
			programErrs[name] = fmt.Sprintf("compiling %s: %v", name, err)
			tb.Fatal(programErrs[name])
		}
	}
	programBins[name] = bin
	return bin
}

// compile builds src into bin, in folder dir: into a temporary file of its own
// there, which is then renamed to bin. Renaming is atomic, so a process that renames
// over a bin that another finished meanwhile replaces it with the same program.
func compile(dir, bin, src, prefix string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(bin)+"-*")
	if err != nil {
		return err
	}
	tmp.Close()
	defer os.Remove(tmp.Name()) // nothing left behind after a failure or a rename
	cmd := exec.Command("g++", "-std=c++17", "-O1", "-o", tmp.Name(), src, "-I", filepath.Join(prefix, "include"),
		"-I", "/usr/include/Imath", filepath.Join(prefix, "lib", "libAlembic.a"), "-lImath-3_1", "-lpthread")
	if out, err := cmd.CombinedOutput(); err != nil {
		if _, statErr := os.Stat(bin); statErr == nil {
			return nil // another process built it meanwhile
		}
		return fmt.Errorf("%v\n%s", err, out)
	}
	if err := os.Chmod(tmp.Name(), 0o755); err != nil { // CreateTemp made it 0600
		return err
	}
	return os.Rename(tmp.Name(), bin)
}
