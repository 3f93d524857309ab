package abc

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"snowtools/formats/abc/abctest"
)

// The Alembic 1.8.8 library and tools built by ../shared/judges/alembic/build.sh are
// the judge of this package (abctest.Prefix finds them).

var (
	judgeMu   sync.Mutex
	judgeBins = map[string]string{}
	judgeErrs = map[string]string{} // programs that did not compile, and why
)

// judgeProgram compiles testdata/judge/name.cpp against the judge and returns the
// program's path. Programs are cached in the user's cache folder by the hash of their
// source and the prefix, since each takes some 20 seconds to compile.
func judgeProgram(t testing.TB, name string) string {
	t.Helper()
	prefix := abctest.Prefix(t)
	judgeMu.Lock()
	defer judgeMu.Unlock()
	if bin, ok := judgeBins[name]; ok {
		return bin
	}
	if msg, ok := judgeErrs[name]; ok {
		t.Fatal(msg)
	}
	src, err := filepath.Abs(filepath.Join("testdata", "judge", name+".cpp"))
	if err != nil {
		t.Fatal(err)
	}
	code, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(append(code, prefix...))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "snowtools-abc-judge")
	bin := filepath.Join(dir, name+"-"+hex.EncodeToString(sum[:8]))
	if _, err := os.Stat(bin); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		tmp := bin + ".tmp"
		cmd := exec.Command("g++", "-std=c++17", "-O1", "-o", tmp, src, "-I", filepath.Join(prefix, "include"),
			"-I", "/usr/include/Imath", filepath.Join(prefix, "lib", "libAlembic.a"), "-lImath-3_1", "-lpthread")
		if out, err := cmd.CombinedOutput(); err != nil {
			judgeErrs[name] = fmt.Sprintf("compiling %s: %v\n%s", name, err, out)
			t.Fatal(judgeErrs[name])
		}
		if err := os.Rename(tmp, bin); err != nil {
			t.Fatal(err)
		}
	}
	judgeBins[name] = bin
	return bin
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
