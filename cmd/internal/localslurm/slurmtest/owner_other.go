//go:build !unix

package slurmtest

import "os"

// ownedByMe reports false: without Unix owners no cluster is swept (a private Slurm
// runs on Unix only).
func ownedByMe(os.FileInfo) bool { return false }
