//go:build !unix

package localslurm

import "errors"

// Slurm runs on Unix only; here a private cluster cannot be started or stopped.

func stop(pid int) error { return errors.New("stopping a private Slurm needs a Unix machine") }

// ProcessRunning reports false: no private cluster runs here.
func ProcessRunning(pid int) bool { return false }
