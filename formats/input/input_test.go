package input

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// specials returns a FIFO (with no writer: opening it for reading blocks forever),
// a character device and a folder, each with what the error must call it.
func specials(t *testing.T) map[string]string {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "buffer.bin")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		fifo:        fifo + " is a named pipe (FIFO), not a regular file",
		"/dev/zero": "/dev/zero is a character device, not a regular file",
		dir:         dir + " is a folder, not a regular file",
	}
}

// TestRefusesSpecialFiles: a FIFO, /dev/zero and a folder are refused at once by
// Open, ReadFile and CheckFS, with the path and its kind; os.Open of the FIFO
// would block forever, os.ReadFile of /dev/zero would read forever.
func TestRefusesSpecialFiles(t *testing.T) {
	for path, want := range specials(t) {
		done := make(chan error, 3)
		go func() {
			_, err := Open(path)
			done <- err
			_, err = ReadFile(path, 1<<20)
			done <- err
			done <- CheckFS(os.DirFS(filepath.Dir(path)), filepath.Base(path))
		}()
		for i := range 3 {
			select {
			case err := <-done:
				var nr *NotRegularError
				if !errors.As(err, &nr) {
					t.Fatalf("%s, call %d: error %v (%T), want a *NotRegularError", path, i, err, err)
				}
				if i < 2 && err.Error() != want {
					t.Errorf("%s: error %q, want %q", path, err, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s, call %d: still blocked after 10 s", path, i)
			}
		}
	}
}

// TestOpensRegularFiles: a regular file, also through a symbolic link, opens and
// reads; a missing one is the usual *fs.PathError.
func TestOpensRegularFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.obj")
	if err := os.WriteFile(path, []byte("v 0 0 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.obj")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, link} {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		f.Close()
		if b, err := ReadFile(p, 8); err != nil || string(b) != "v 0 0 0\n" {
			t.Errorf("ReadFile(%s) = %q, %v", p, b, err)
		}
		if err := CheckFS(os.DirFS(dir), filepath.Base(p)); err != nil {
			t.Error(err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing.obj")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadFileLimit: a file one byte over the limit is refused by its size.
func TestReadFileLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scene.toml")
	if err := os.WriteFile(path, make([]byte, 1001), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(path, 1000)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "scene.toml is 1001 bytes, more than the limit of 1000") {
		t.Errorf("error %v", err)
	}
	if _, err := ReadFile(path, 1001); err != nil {
		t.Error(err)
	}
}
