//go:build unix

package slurmtest

import (
	"os"
	"syscall"
)

// ownedByMe reports whether the file belongs to this process's user: only those
// clusters are swept.
func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
