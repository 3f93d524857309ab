package abc

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/levelset/limittest"
	"snowtools/levelset/sharedtest"
)

// damagedArchives extracts the fuzzer-found damaged archives of the Alembic 1.8.8
// source (lib/Alembic/AbcCoreOgawa/Tests/*.abc, lib/Alembic/Abc/Tests/*.abc) from
// ../shared/judges/alembic into a temporary folder and returns their paths.
func damagedArchives(t *testing.T) []string {
	t.Helper()
	src := sharedtest.Path(t, "judges", "alembic", "alembic-1.8.8.tar.gz")
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		dirName, name := path.Split(h.Name)
		if !strings.HasSuffix(name, ".abc") || !(strings.HasSuffix(dirName, "lib/Alembic/AbcCoreOgawa/Tests/") ||
			strings.HasSuffix(dirName, "lib/Alembic/Abc/Tests/")) {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(tr, 1<<20))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		t.Fatalf("no damaged archives in %s", src)
	}
	return paths
}

// checkFile opens and checks an archive; errors that are not *FormatError are
// returned as they are, so that the test sees them.
func checkFile(name string) error {
	a, err := OpenFile(name)
	if err != nil {
		return err
	}
	defer a.Close()
	return a.Check()
}

// TestDamagedArchives: every damaged archive that Alembic's own tests keep (found by
// fuzzers: huge counts, groups that hold themselves, sizes past the end) gives a
// *FormatError, in a child process whose peak memory and time stay bounded.
func TestDamagedArchives(t *testing.T) {
	files := damagedArchives(t)
	// One child process reads them all: the limits hold for each of them.
	res := limittest.Run(t, limittest.Limits{RSS: 100 << 20, Time: 60e9}, func() error {
		var report strings.Builder
		for _, p := range files {
			err := checkFile(p)
			var fe *FormatError
			switch {
			case err == nil:
				report.WriteString(filepath.Base(p) + ": READ WITHOUT ERROR\n")
			case !errors.As(err, &fe):
				report.WriteString(filepath.Base(p) + ": NOT A FormatError: " + err.Error() + "\n")
			default:
				report.WriteString(filepath.Base(p) + ": " + err.Error() + "\n")
			}
		}
		return errors.New(report.String())
	})
	t.Logf("%d damaged archives:\n%s", len(files), res.Output)
	for _, line := range strings.Split(strings.TrimSpace(res.Output), "\n") {
		if strings.Contains(line, "READ WITHOUT ERROR") || strings.Contains(line, "NOT A FormatError") {
			t.Error(line)
		}
	}
}
