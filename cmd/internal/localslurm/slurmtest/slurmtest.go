// Package slurmtest gives tests a private one-node Slurm cluster (localslurm): one
// per test binary, started by the first test that asks and stopped by TestMain.
// Tests skip when Slurm or munge is not installed, unless SNOWTOOLS_REQUIRE_SLURM is
// set, as .ci/run sets it: then a missing Slurm fails them.
//
// A test binary that is killed (a -timeout panic, Ctrl-C, SIGKILL) never reaches
// TestMain's Stop, and its cluster's daemons and jobs would run on. So each cluster's
// folder, os.TempDir()/snowtools-slurm-*, holds the pid of the test binary that made
// it (owner.pid) beside the cluster's own folder (cluster/), and the next test
// binary to start a cluster first stops and removes those whose owner has ended.
package slurmtest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"snowtools/cmd/internal/localslurm"
)

// Need skips the test when Slurm is not installed (or fails it under RequireEnv).
func Need(tb testing.TB) {
	tb.Helper()
	err := localslurm.Missing()
	if err == nil {
		return
	}
	if os.Getenv(localslurm.RequireEnv) != "" {
		tb.Fatalf("%v; %s is set, so this is a failure", err, localslurm.RequireEnv)
	}
	tb.Skip(err)
}

var shared struct {
	once    sync.Once
	dir     string // the test folder: owner.pid and the cluster's folder
	cluster *localslurm.Cluster
	err     error
}

// Shared returns the test binary's cluster, starting it on first use. The test
// binary's TestMain must call Stop after the tests.
func Shared(tb testing.TB) *localslurm.Cluster {
	tb.Helper()
	Need(tb)
	shared.once.Do(func() {
		if shared.dir, shared.err = NewDir(); shared.err != nil {
			return
		}
		if shared.cluster, shared.err = localslurm.Up(ClusterDir(shared.dir)); shared.err != nil {
			os.RemoveAll(shared.dir) // Up stopped what it started
		}
	})
	if shared.err != nil {
		tb.Fatalf("starting a private Slurm: %v", shared.err)
	}
	return shared.cluster
}

// Scratch returns a new folder beside the shared cluster's (Shared must have
// started it), for what a test binary keeps between its tests (tools it built, a
// reference run): Stop removes it, and so does the sweep after a killed binary.
func Scratch() (string, error) {
	if shared.cluster == nil {
		return "", errors.New("slurmtest.Scratch: no shared cluster: call Shared first")
	}
	return os.MkdirTemp(shared.dir, "scratch-")
}

// Stop stops the shared cluster, if a test started it, and removes its folder.
func Stop() error {
	c := shared.cluster
	if c == nil {
		return nil
	}
	shared.cluster = nil
	if err := localslurm.Down(c.Dir); err != nil {
		return err
	}
	return os.RemoveAll(shared.dir)
}

// dirPattern names the folders of the test clusters in os.TempDir().
const dirPattern = "snowtools-slurm-*"

// ownerFile, in a test cluster's folder, holds the pid of the test binary that made it.
const ownerFile = "owner.pid"

var sweep sync.Once

// NewDir makes a test folder, owned by this test binary, for a cluster in
// ClusterDir(folder), after removing the clusters of test binaries that were killed
// (once per binary). The caller starts the cluster (localslurm.Up), and stops it and
// removes the folder when done.
func NewDir() (string, error) {
	sweep.Do(func() { RemoveStale(os.TempDir()) })
	dir, err := os.MkdirTemp("", dirPattern)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return "", err
	}
	return dir, nil
}

// ClusterDir is the cluster's folder in a test folder of NewDir.
func ClusterDir(testDir string) string { return filepath.Join(testDir, "cluster") }

// RemoveStale stops the clusters in parent's test folders whose test binary has
// ended, and removes their folders. It leaves alone the folders of other users, of
// binaries still running (another package's tests run at the same time), and any
// without an owner file; it returns the folders it removed, and the errors.
func RemoveStale(parent string) (removed []string, err error) {
	dirs, _ := filepath.Glob(filepath.Join(parent, dirPattern))
	var errs []string
	for _, dir := range dirs {
		info, statErr := os.Stat(dir)
		b, readErr := os.ReadFile(filepath.Join(dir, ownerFile))
		if statErr != nil || readErr != nil || !ownedByMe(info) {
			continue
		}
		pid, convErr := strconv.Atoi(strings.TrimSpace(string(b)))
		if convErr != nil || localslurm.ProcessRunning(pid) { // a pid reused since counts: a later sweep takes the folder
			continue
		}
		if downErr := localslurm.Down(ClusterDir(dir)); downErr != nil && !errors.Is(downErr, localslurm.ErrNoCluster) {
			errs = append(errs, downErr.Error())
			continue
		}
		if rmErr := os.RemoveAll(dir); rmErr != nil {
			errs = append(errs, rmErr.Error())
			continue
		}
		removed = append(removed, dir)
	}
	if len(errs) > 0 {
		return removed, fmt.Errorf("removing stale test clusters: %s", strings.Join(errs, "; "))
	}
	return removed, nil
}
