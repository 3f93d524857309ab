package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that records what a helper reports: Fatalf and Skipf end
// the goroutine as the real ones do, so run calls the helper on a goroutine of its own.
type recorder struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recorder) Logf(format string, args ...any) { r.msg = fmt.Sprintf(format, args...) }

func run(fn func(tb testing.TB)) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(r)
	}()
	<-done
	return r
}

// layout makes a module folder (with go.mod) and, when withShared, a shared folder
// beside it holding assets/box.glb, and moves the test into a package folder two
// levels below the module root.
func layout(t *testing.T, withShared bool) (shared string) {
	t.Helper()
	top := t.TempDir()
	mod := filepath.Join(top, "mod")
	pkg := filepath.Join(mod, "formats", "gltf")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	shared = filepath.Join(top, "shared")
	if withShared {
		if err := os.MkdirAll(filepath.Join(shared, "assets"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shared, "assets", "box.glb"), []byte("glTF"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(pkg)
	return shared
}

func TestFindsSharedBesideModuleRoot(t *testing.T) {
	shared := layout(t, true)
	t.Setenv(RequireEnv, "")
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := filepath.EvalSymlinks(shared); !sameFile(dir, want) {
		t.Errorf("Dir() = %s, want %s", dir, shared)
	}
	var got string
	r := run(func(tb testing.TB) { got = Asset(tb, "box.glb") })
	if r.failed || r.skipped {
		t.Fatalf("Asset of a present file: failed %v, skipped %v: %s", r.failed, r.skipped, r.msg)
	}
	if data, err := os.ReadFile(got); err != nil || string(data) != "glTF" {
		t.Errorf("Asset returned %s: %q, %v", got, data, err)
	}
	if p, ok := Optional(t, "assets", "box.glb"); !ok || !sameFile(p, got) {
		t.Errorf("Optional = %s, %v; want %s, true", p, ok, got)
	}
}

func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

func TestMissingFileSkipsWithMessage(t *testing.T) {
	layout(t, true)
	t.Setenv(RequireEnv, "")
	r := run(func(tb testing.TB) { Asset(tb, "spot.obj") })
	if !r.skipped || r.failed {
		t.Fatalf("skipped %v, failed %v; want a skip", r.skipped, r.failed)
	}
	for _, want := range []string{"../shared/assets/spot.obj not found", "set SNOWTOOLS_REQUIRE_SHARED=1 to fail instead"} {
		if !strings.Contains(r.msg, want) {
			t.Errorf("message %q lacks %q", r.msg, want)
		}
	}
	r = run(func(tb testing.TB) {
		if _, ok := Optional(tb, "assets", "spot.obj"); ok {
			t.Error("Optional found a missing file")
		}
	})
	if r.failed || r.skipped || !strings.Contains(r.msg, "left out") {
		t.Errorf("Optional without %s: failed %v, skipped %v, logged %q", RequireEnv, r.failed, r.skipped, r.msg)
	}
}

func TestMissingFileFailsWhenRequired(t *testing.T) {
	layout(t, true)
	t.Setenv(RequireEnv, "1")
	r := run(func(tb testing.TB) { Asset(tb, "spot.obj") })
	if !r.failed || r.skipped {
		t.Fatalf("failed %v, skipped %v; want a failure", r.failed, r.skipped)
	}
	if !strings.Contains(r.msg, "../shared/assets/spot.obj not found") || !strings.Contains(r.msg, RequireEnv+" is set") {
		t.Errorf("message %q", r.msg)
	}
	r = run(func(tb testing.TB) { Optional(tb, "assets", "spot.obj") })
	if !r.failed {
		t.Errorf("Optional with %s set did not fail: %q", RequireEnv, r.msg)
	}
}

func TestMissingFolder(t *testing.T) {
	layout(t, false)
	for _, require := range []string{"", "1"} {
		t.Setenv(RequireEnv, require)
		r := run(func(tb testing.TB) { Path(tb, "judges", "README.md") })
		if r.failed != (require != "") || r.skipped != (require == "") {
			t.Errorf("%s=%q: failed %v, skipped %v", RequireEnv, require, r.failed, r.skipped)
		}
		if !strings.Contains(r.msg, "../shared not found") {
			t.Errorf("message %q does not say the folder is missing", r.msg)
		}
	}
}

func TestNoModuleRoot(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, err := moduleRoot("/"); err == nil {
		t.Skip("a go.mod at / makes every folder part of a module")
	}
	wd, _ := os.Getwd()
	if _, err := Dir(); err == nil || !strings.Contains(err.Error(), "no go.mod") {
		t.Errorf("Dir() in %s, outside any module: error %v", wd, err)
	}
}

// This module's own tests run beside the real folder whenever CI runs them.
func TestThisModule(t *testing.T) {
	p := Path(t, "assets", "spot_triangulated.obj")
	if !filepath.IsAbs(p) {
		t.Errorf("Path returned a relative path %s", p)
	}
}
