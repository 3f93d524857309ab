//go:build unix

package localslurm

import (
	"errors"
	"syscall"
	"time"
)

// stop sends SIGTERM to pid and waits up to 10 s for it to end, then sends SIGKILL
// and waits up to 5 s more.
func stop(pid int) error {
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		return err
	}
	if waitGone(pid, 10*time.Second) {
		return nil
	}
	syscall.Kill(pid, syscall.SIGKILL)
	if waitGone(pid, 5*time.Second) {
		return nil
	}
	return errors.New("still running 5 s after SIGKILL")
}

// ProcessRunning reports whether process pid exists (this user's or another's) and
// has not ended. A zombie (ended, its parent not yet told) has ended: a daemon's
// parent is init, not this process, and a zombie holds no port or file.
func ProcessRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return (err == nil || errors.Is(err, syscall.EPERM)) && !zombie(pid)
}
