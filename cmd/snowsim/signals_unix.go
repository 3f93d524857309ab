//go:build unix

package main

import (
	"os"
	"syscall"
)

// stopSignals stop a run cleanly (interruptWatch): Ctrl-C, a farm's SIGTERM, and
// SIGUSR1, which Slurm sends before a job's time limit when asked to
// (--signal=B:USR1@SECONDS, as farm's batch scripts do).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGUSR1}
