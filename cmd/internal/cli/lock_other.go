//go:build !unix

package cli

import "os"

// tryLock: no flock here; the lock file alone marks the folder.
func tryLock(f *os.File, wait bool) (held, flocks bool, err error) { return false, false, nil }

// processAlive cannot tell here, so it answers yes: a lock left behind is for the user
// to remove, as its error says.
func processAlive(pid int) bool { return true }
