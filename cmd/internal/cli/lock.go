package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockName is the file that marks an output folder as being written by a run.
const LockName = ".snowtools.lock"

// A FolderLock is a run's claim on an output folder: while it holds it, no other
// run of a tool writes frames there, so that two runs never leave a sequence that
// mixes their frames.
//
// The claim is the file LockName in the folder, created with O_EXCL and holding its
// owner (LockOwner), and an exclusive flock(2) on it that the owner keeps open for
// its whole life. The kernel drops that flock when the owner ends, however it ends
// (a crash, SIGKILL), so a lock file that a run left behind is known to be stale when
// its flock can be taken: the next run on this host takes it over, with a note. On a
// file system without flock (some network ones) the owner's pid tells instead: dead
// on this host means stale. A lock from another host is never taken over: its pid
// cannot be checked from here, so the error says to remove the file if that run is
// gone.
type FolderLock struct {
	path string
	file *os.File // open, flocked, for the life of the lock
}

// LockOwner is what a lock file says of the run that holds it.
type LockOwner struct {
	Tool    string
	PID     int
	Host    string
	Started time.Time
}

func (o LockOwner) String() string {
	return fmt.Sprintf("%s (pid %d on %s, started %s)", o.Tool, o.PID, o.Host, o.Started.Format("2006-01-02 15:04:05 MST"))
}

// text is the lock file's content: one "key value" line each.
func (o LockOwner) text() string {
	return fmt.Sprintf("tool %s\npid %d\nhost %s\nstarted %s\n", o.Tool, o.PID, o.Host, o.Started.Format(time.RFC3339))
}

// parseOwner reads a lock file's content; it is an error for a key to be missing.
func parseOwner(r io.Reader) (LockOwner, error) {
	var o LockOwner
	seen := map[string]bool{}
	sc := bufio.NewScanner(io.LimitReader(r, 4096))
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), " ")
		var err error
		switch key {
		case "tool":
			o.Tool = value
		case "pid":
			o.PID, err = strconv.Atoi(value)
		case "host":
			o.Host = value
		case "started":
			o.Started, err = time.Parse(time.RFC3339, value)
		default:
			continue
		}
		if err != nil {
			return o, fmt.Errorf("%s %q: %v", key, value, err)
		}
		seen[key] = true
	}
	for _, key := range []string{"tool", "pid", "host", "started"} {
		if !seen[key] {
			return o, fmt.Errorf("no %s", key)
		}
	}
	return o, sc.Err()
}

// A FolderInUseError is a folder that another run holds.
type FolderInUseError struct {
	Dir   string
	Owner LockOwner
	// Unknown is set when the lock file cannot be read (it is being written, or was
	// damaged) and Owner is then zero; Remote when the owner is on another host.
	Unknown, Remote bool
	Reason          string // why the lock file could not be read, with Unknown
}

func (e *FolderInUseError) Error() string {
	lock := filepath.Join(e.Dir, LockName)
	two := "two runs writing into one folder would mix their frames: wait for it to end, or give another output folder"
	switch {
	case e.Unknown:
		return fmt.Sprintf("output folder %s is locked by %s, which cannot be read (%s): %s; remove %s if no run writes there",
			e.Dir, lock, e.Reason, two, lock)
	case e.Remote:
		return fmt.Sprintf("output folder %s is in use by %s: %s; if that run has ended, remove %s", e.Dir, e.Owner, two, lock)
	}
	return fmt.Sprintf("output folder %s is in use by %s: %s", e.Dir, e.Owner, two)
}

// LockFolder claims the folder dir, which must exist, for a run of tool. A stale
// lock (see FolderLock) is taken over, and note says so for the log; a live one is a
// *FolderInUseError naming its owner.
func LockFolder(dir, tool string) (lock *FolderLock, note string, err error) {
	host, _ := os.Hostname()
	me := LockOwner{Tool: tool, PID: os.Getpid(), Host: host, Started: time.Now().Truncate(time.Second)}
	path := filepath.Join(dir, LockName)
	// A few rounds: between our try to create the file and our open of the one that
	// exists, its owner may release it, or another run take it over.
	for range 5 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			// Wait for the flock: a run that opened the new, empty file in the
			// meantime holds it for a moment, finds no owner in it and lets go.
			if _, _, err := tryLock(f, true); err != nil {
				return nil, "", closeRemove(f, path, err)
			}
			return claim(f, path, me, "")
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, "", fmt.Errorf("output folder %s: cannot create a file in it: %w", dir, pathless(err))
		}
		lock, note, err := takeOver(dir, path, me)
		if lock != nil || err != nil {
			return lock, note, err
		}
	}
	return nil, "", fmt.Errorf("output folder %s: its lock %s keeps changing hands: another run is starting there", dir, path)
}

// takeOver opens the lock file at path that exists, and takes it over if it is stale.
// It returns no lock and no error when the file changed hands meanwhile: try again.
func takeOver(dir, path string, me LockOwner) (*FolderLock, string, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil // released meanwhile
	}
	if err != nil {
		return nil, "", fmt.Errorf("output folder %s: cannot open its lock %s: %w", dir, path, pathless(err))
	}
	held, flocks, err := tryLock(f, false)
	if err != nil {
		f.Close()
		return nil, "", fmt.Errorf("output folder %s: locking %s: %w", dir, path, err)
	}
	owner, readErr := parseOwner(f)
	switch {
	case held && readErr != nil:
		f.Close()
		return nil, "", &FolderInUseError{Dir: dir, Unknown: true, Reason: readErr.Error()}
	case held:
		f.Close()
		return nil, "", &FolderInUseError{Dir: dir, Owner: owner}
	}
	if same, err := isFileAt(f, path); err != nil || !same {
		f.Close() // we locked a file that was released or replaced meanwhile
		return nil, "", nil
	}
	switch {
	case readErr != nil:
		// The owner may have created the file and not yet written it; a damaged file
		// is for the user to remove.
		f.Close()
		return nil, "", &FolderInUseError{Dir: dir, Unknown: true, Reason: readErr.Error()}
	case owner.Host != me.Host:
		f.Close()
		return nil, "", &FolderInUseError{Dir: dir, Owner: owner, Remote: true}
	case !flocks && processAlive(owner.PID):
		f.Close()
		return nil, "", &FolderInUseError{Dir: dir, Owner: owner}
	}
	return claim(f, path, me, fmt.Sprintf("took over the lock %s of %s, which ended without releasing it", path, owner))
}

// claim writes me into the lock file f, which this process has locked, and syncs it.
func claim(f *os.File, path string, me LockOwner, note string) (*FolderLock, string, error) {
	err := f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(me.text()), 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return nil, "", closeRemove(f, path, fmt.Errorf("writing the lock %s: %w", path, pathless(err)))
	}
	return &FolderLock{path: path, file: f}, note, nil
}

// closeRemove gives up a lock file that could not be claimed.
func closeRemove(f *os.File, path string, err error) error {
	f.Close()
	os.Remove(path)
	return err
}

// isFileAt reports whether the open file f is the one at path now.
func isFileAt(f *os.File, path string) (bool, error) {
	fi, err := f.Stat()
	if err != nil {
		return false, err
	}
	pi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return os.SameFile(fi, pi), nil
}

// Release gives the folder up: it removes the lock file (if it is still this lock's)
// and closes it, which drops the flock. Releasing twice, or a nil lock, does nothing.
func (l *FolderLock) Release() error {
	if l == nil || l.file == nil {
		return nil
	}
	var err error
	if same, _ := isFileAt(l.file, l.path); same {
		err = os.Remove(l.path)
	}
	if cerr := l.file.Close(); err == nil {
		err = cerr
	}
	l.file = nil
	return err
}
