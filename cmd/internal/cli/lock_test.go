package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// With CLI_TEST_LOCK=dir the test binary locks dir, says so on stdout and waits to be
// killed: a real owner in another process, whose flock the kernel drops at its death.
func TestMain(m *testing.M) {
	if dir := os.Getenv("CLI_TEST_LOCK"); dir != "" {
		if _, _, err := LockFolder(dir, "holder"); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A second lock on a held folder fails at once with an error naming the owner; once
// released, the folder can be locked again, and the lock file is gone.
func TestLockFolderHeld(t *testing.T) {
	dir := t.TempDir()
	lock, note, err := LockFolder(dir, "snowsim")
	if err != nil || note != "" {
		t.Fatalf("first lock: %v, note %q", err, note)
	}
	_, _, err = LockFolder(dir, "export")
	var inUse *FolderInUseError
	if !errors.As(err, &inUse) {
		t.Fatalf("second lock: %v, want a *FolderInUseError", err)
	}
	host, _ := os.Hostname()
	want := fmt.Sprintf("output folder %s is in use by snowsim (pid %d on %s, started ", dir, os.Getpid(), host)
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q\nwant it to start with %q", err, want)
	}
	if err := lock.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockName)); !os.IsNotExist(err) {
		t.Errorf("lock file after Release: %v", err)
	}
	lock, _, err = LockFolder(dir, "export")
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	lock.Release()
	lock.Release() // twice is harmless
}

// A lock whose owner was killed is taken over with a note; while the owner lives it is
// refused with its pid. The owner is a child process, killed with SIGKILL, which
// leaves its lock file behind.
func TestLockFolderKilledOwner(t *testing.T) {
	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), "CLI_TEST_LOCK="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	buf := make([]byte, 64)
	if n, _ := out.Read(buf); !strings.HasPrefix(string(buf[:n]), "locked") {
		t.Fatalf("child: %q", buf[:n])
	}
	_, _, err = LockFolder(dir, "snowsim")
	if want := fmt.Sprintf("in use by holder (pid %d on ", child.Process.Pid); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("lock while the owner lives: %v, want it to contain %q", err, want)
	}
	child.Process.Kill()
	child.Wait()
	lock, note, err := LockFolder(dir, "snowsim")
	if err != nil {
		t.Fatalf("lock after the owner died: %v", err)
	}
	defer lock.Release()
	if want := fmt.Sprintf("took over the lock %s of holder (pid %d on ", filepath.Join(dir, LockName), child.Process.Pid); !strings.HasPrefix(note, want) {
		t.Errorf("note %q, want it to start with %q", note, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, LockName)); !strings.Contains(string(b), "pid "+strconv.Itoa(os.Getpid())+"\n") {
		t.Errorf("lock file after the take-over:\n%s", b)
	}
}

// Lock files written by hand: a dead pid on this host is stale (flock or not); another
// host's lock is refused with the advice to remove it; an unreadable one is refused.
func TestLockFolderFiles(t *testing.T) {
	host, _ := os.Hostname()
	dead := exec.Command(os.Args[0], "-test.run=^$")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	started := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Format(time.RFC3339)
	for _, c := range []struct {
		name, text string
		refused    bool   // the lock is refused, not taken over
		want       string // in the error if refused, else in the note
	}{
		{"dead pid", fmt.Sprintf("tool snowsim\npid %d\nhost %s\nstarted %s\n", dead.Process.Pid, host, started), false,
			fmt.Sprintf("of snowsim (pid %d on %s, started 2026-01-02 03:04:05 UTC), which ended without releasing it", dead.Process.Pid, host)},
		{"other host", fmt.Sprintf("tool snowsim\npid 1\nhost render-node-7\nstarted %s\n", started), true,
			"in use by snowsim (pid 1 on render-node-7, started 2026-01-02 03:04:05 UTC): two runs writing into one folder would mix their frames: wait for it to end, or give another output folder; if that run has ended, remove "},
		{"empty", "", true, "is locked by "},
		{"garbage", "pid twelve\n", true, `cannot be read (pid "twelve": `},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, LockName), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		lock, note, err := LockFolder(dir, "export")
		switch {
		case c.refused && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		case !c.refused && (err != nil || !strings.Contains(note, c.want)):
			t.Errorf("%s: error %v, note %q; want a note with %q", c.name, err, note, c.want)
		}
		lock.Release()
	}
}

// A folder that does not take files is named in the error, with the reason.
func TestLockFolderNotWritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, _, err := LockFolder(file, "snowsim")
	if want := "output folder " + file + ": cannot create a file in it: not a directory"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}
