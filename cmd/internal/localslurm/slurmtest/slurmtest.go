// Package slurmtest gives tests a private one-node Slurm cluster (localslurm): one
// per test binary, started by the first test that asks and stopped by TestMain.
// Tests skip when Slurm or munge is not installed, unless SNOWTOOLS_REQUIRE_SLURM is
// set, as .ci/run sets it: then a missing Slurm fails them.
package slurmtest

import (
	"os"
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
	cluster *localslurm.Cluster
	err     error
}

// Shared returns the test binary's cluster, starting it on first use. The test
// binary's TestMain must call Stop after the tests.
func Shared(tb testing.TB) *localslurm.Cluster {
	tb.Helper()
	Need(tb)
	shared.once.Do(func() {
		dir, err := os.MkdirTemp("", "snowtools-slurm-")
		if err != nil {
			shared.err = err
			return
		}
		shared.cluster, shared.err = localslurm.Up(dir)
	})
	if shared.err != nil {
		tb.Fatalf("starting a private Slurm: %v", shared.err)
	}
	return shared.cluster
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
	return os.RemoveAll(c.Dir)
}
