package localslurm_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/localslurm"
	"snowtools/cmd/internal/localslurm/slurmtest"
)

// A private cluster runs a batch job; a second Up in its folder is refused; Down
// stops exactly its three daemons, and again is no error; Up starts it again in the
// same folder (the state of the first run in place).
func TestSlurmClusterUpDown(t *testing.T) {
	slurmtest.Need(t)
	testDir, err := slurmtest.NewDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := slurmtest.ClusterDir(testDir)
	t.Cleanup(func() { localslurm.Down(dir); os.RemoveAll(testDir) }) // also after a failure below
	c := mustUp(t, dir)
	pids := daemonPids(t, c)
	if !c.Running() {
		t.Errorf("not Running after Up")
	}
	if _, err := localslurm.Up(dir); err == nil || !strings.Contains(err.Error(), "a cluster runs there already") {
		t.Errorf("a second Up in the same folder: %v, want a refusal", err)
	}
	runJob(t, c)
	if err := localslurm.Down(dir); err != nil {
		t.Fatal(err)
	}
	for d, pid := range pids {
		if localslurm.ProcessRunning(pid) {
			t.Errorf("%s (pid %d) still runs after Down", d, pid)
		}
	}
	if c.Running() {
		t.Errorf("Running after Down")
	}
	if err := localslurm.Down(dir); err != nil {
		t.Errorf("Down of a stopped cluster: %v, want none", err)
	}
	c = mustUp(t, dir)
	runJob(t, c)
	if err := localslurm.Down(dir); err != nil {
		t.Fatal(err)
	}
}

// Up refuses a folder that holds other files (farm cluster up ~ must not take over a
// home), and Down one where no cluster was started: both name the folder.
func TestSlurmClusterFolderChecks(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "notes.txt"), []byte("mine"), 0o600)
	if _, err := localslurm.Up(home); err == nil || !strings.Contains(err.Error(), home+": the folder holds files, but no cluster's") {
		t.Errorf("Up in a folder of other files: %v", err)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 1 {
		t.Errorf("Up left %d entries in the folder it refused, want 1", len(entries))
	}
	for _, dir := range []string{home, filepath.Join(home, "never")} {
		if err := localslurm.Down(dir); !errors.Is(err, localslurm.ErrNoCluster) || !strings.Contains(err.Error(), dir+": no cluster there") {
			t.Errorf("Down(%s): %v, want %v", dir, err, localslurm.ErrNoCluster)
		}
	}
}

func mustUp(t *testing.T, dir string) *localslurm.Cluster {
	t.Helper()
	start := time.Now()
	c, err := localslurm.Up(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Up took %v", time.Since(start).Round(time.Millisecond))
	return c
}

// daemonPids reads the pid files of the cluster's daemons.
func daemonPids(t *testing.T, c *localslurm.Cluster) map[string]int {
	t.Helper()
	pids := map[string]int{}
	for _, d := range []string{"munged", "slurmctld", "slurmd"} {
		b, err := os.ReadFile(filepath.Join(c.Dir, "run", d+".pid"))
		if err != nil {
			t.Fatal(err)
		}
		if pids[d], err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			t.Fatalf("%s's pid file: %v", d, err)
		}
	}
	return pids
}

// runJob submits a batch job that writes a file and waits for the file.
func runJob(t *testing.T, c *localslurm.Cluster) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "hello")
	cmd := exec.Command("sbatch", "--parsable", "--output=/dev/null", "--wrap", "echo hello from $SLURM_JOB_ID > "+out+".tmp; mv "+out+".tmp "+out)
	cmd.Env = append(os.Environ(), c.Env())
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sbatch: %v: %s", err, b)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		b, err := os.ReadFile(out)
		if err == nil && strings.HasPrefix(string(b), "hello from ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job wrote %q (%v) after 30 s", b, err)
		}
	}
}
