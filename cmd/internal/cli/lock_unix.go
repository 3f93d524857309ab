//go:build unix

package cli

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes an exclusive flock on f, without waiting unless wait is set. held is
// set when another open file holds it; flocks is false when the file system has no
// flock, and then nothing is locked.
func tryLock(f *os.File, wait bool) (held, flocks bool, err error) {
	how := syscall.LOCK_EX | syscall.LOCK_NB
	if wait {
		how = syscall.LOCK_EX
	}
	err = syscall.Flock(int(f.Fd()), how)
	switch {
	case err == nil:
		return false, true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return true, true, nil
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.EINVAL):
		return false, false, nil
	}
	return false, false, err
}

// processAlive reports whether a process pid exists on this host (signal 0 checks
// without sending; EPERM means it exists but is another user's).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
