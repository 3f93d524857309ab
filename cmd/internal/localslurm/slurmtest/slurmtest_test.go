package slurmtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/localslurm"
)

// The cluster of a test binary that was killed, with a job running, is stopped and
// its folder removed by the next sweep; a folder whose owner lives is left alone.
func TestSlurmStaleClusterRemoved(t *testing.T) {
	Need(t)
	parent := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := testFolder(t, parent, dead.Process.Pid)
	live := testFolder(t, parent, os.Getpid())
	c, err := localslurm.Up(ClusterDir(stale))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { localslurm.Down(c.Dir) }) // after a failure below
	b, err := os.ReadFile(filepath.Join(c.Dir, "run", "slurmctld.pid"))
	if err != nil {
		t.Fatal(err)
	}
	ctld, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	sbatch := exec.Command("sbatch", "--parsable", "--output=/dev/null", "--wrap", "sleep 300")
	sbatch.Env = append(os.Environ(), c.Env())
	if out, err := sbatch.CombinedOutput(); err != nil {
		t.Fatalf("sbatch: %v: %s", err, out)
	}
	start := time.Now()
	removed, err := RemoveStale(parent)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("RemoveStale took %v", time.Since(start).Round(time.Millisecond))
	if len(removed) != 1 || removed[0] != stale {
		t.Errorf("removed %q, want %s alone", removed, stale)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Errorf("%s is still there", stale)
	}
	if _, err := os.Stat(filepath.Join(live, ownerFile)); err != nil {
		t.Errorf("the live owner's folder: %v", err)
	}
	if localslurm.ProcessRunning(ctld) {
		t.Errorf("the stale cluster's slurmctld (pid %d) still runs", ctld)
	}
}

// testFolder makes a test folder in parent as NewDir does, owned by pid.
func testFolder(t *testing.T, parent string, pid int) string {
	t.Helper()
	dir, err := os.MkdirTemp(parent, dirPattern)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(pid)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
