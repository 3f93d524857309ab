package localslurm_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"snowtools/cmd/internal/localslurm"
	"snowtools/cmd/internal/localslurm/slurmtest"
)

// A private cluster runs a batch job, and Down stops exactly its three daemons.
func TestSlurmClusterUpDown(t *testing.T) {
	slurmtest.Need(t)
	dir := filepath.Join(t.TempDir(), "cluster")
	c, err := localslurm.Up(dir)
	if err != nil {
		t.Fatal(err)
	}
	pids := map[string]int{}
	for _, d := range []string{"munged", "slurmctld", "slurmd"} {
		b, err := os.ReadFile(filepath.Join(c.Dir, "run", d+".pid"))
		if err != nil {
			t.Fatal(err)
		}
		pids[d] = atoi(t, string(b))
	}
	defer localslurm.Down(dir) // after a failure below
	if _, err := localslurm.Up(dir); err == nil || !strings.Contains(err.Error(), "a cluster runs there already") {
		t.Errorf("a second Up in the same folder: %v, want a refusal", err)
	}
	out := filepath.Join(t.TempDir(), "hello")
	cmd := exec.Command("sbatch", "--parsable", "--output=/dev/null", "--wrap", "echo hello from $SLURM_JOB_ID > "+out+".tmp; mv "+out+".tmp "+out)
	cmd.Env = append(os.Environ(), c.Env())
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sbatch: %v: %s", err, b)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, err := os.ReadFile(out)
		if err == nil && strings.HasPrefix(string(b), "hello from ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job wrote %q (%v) after 30 s", b, err)
		}
	}
	if err := localslurm.Down(dir); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	for d, pid := range pids {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("%s (pid %d) still runs after Down", d, pid)
		}
	}
}

func atoi(t *testing.T, s string) int {
	var n int
	for _, c := range strings.TrimSpace(s) {
		if c < '0' || c > '9' {
			t.Fatalf("pid %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n
}
