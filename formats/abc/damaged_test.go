package abc

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"snowtools/formats/abc/abctest"
	"snowtools/levelset/limittest"
)

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
	files := abctest.DamagedArchives(t)
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
