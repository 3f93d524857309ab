package cli

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A failed write leaves the earlier file untouched and no temporary file behind; a
// successful one replaces it.
func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "frame.0001.prt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk on fire")
	err := WriteFileAtomic(path, func(w io.Writer) error {
		w.Write([]byte("half a fra"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the writer's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("failed write changed the file to %q", b)
	}
	if err := WriteFileAtomic(path, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Fatalf("file is %q, want new", b)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("file mode %v (%v), want readable by all as -rw-r--r--", st.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("folder holds %d entries, want only the frame", len(entries))
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		59 * time.Second: "0:59", 61 * time.Second: "1:01", 3725 * time.Second: "1:02:05",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// A folder that takes no files is named in WriteFileAtomic's error with the file to
// write, not the hidden temporary file (on main: "open out/.f.prt.tmp123: ...").
func TestWriteFileAtomicNamesFolder(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "out")
	os.WriteFile(notDir, nil, 0o644)
	path := filepath.Join(notDir, "frame.0001.prt")
	err := WriteFileAtomic(path, func(w io.Writer) error { return nil })
	want := "writing " + path + ": cannot create a file in the folder " + notDir + "/: not a directory"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %q", err, want)
	}
	// /proc takes no new files, even from root.
	if _, err := os.Stat("/proc/self"); err == nil {
		err = WriteFileAtomic("/proc/frame.0001.prt", func(w io.Writer) error { return nil })
		if want := "writing /proc/frame.0001.prt: cannot create a file in the folder /proc/: "; err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), ".tmp") {
			t.Errorf("/proc: error %v, want %q and the reason", err, want)
		}
	}
	if os.Geteuid() == 0 {
		return // root writes into read-only folders
	}
	ro := t.TempDir()
	os.Chmod(ro, 0o555)
	defer os.Chmod(ro, 0o755)
	path = filepath.Join(ro, "frame.0001.prt")
	err = WriteFileAtomic(path, func(w io.Writer) error { return nil })
	if want := "writing " + path + ": cannot create a file in the folder " + ro + "/: permission denied"; err == nil || err.Error() != want {
		t.Errorf("read-only folder: error %v\nwant %q", err, want)
	}
}

// CheckWritable finds a missing folder, a folder in place of the file and a folder
// that takes no files, and leaves nothing behind when the file can be written.
func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for path, want := range map[string]string{
		filepath.Join(dir, "no", "sheet.png"): "the folder " + filepath.Join(dir, "no") + " does not exist",
		dir:                                   "is a folder; name the file to write",
		filepath.Join(file, "sheet.png"):      "cannot create a file in the folder " + file + ": not a directory",
	} {
		if err := CheckWritable(path); err == nil || !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%s: %v, want it to end in %q", path, err, want)
		}
	}
	// /proc takes no new files, even from root.
	if _, err := os.Stat("/proc/self"); err == nil {
		want := "/proc/sheet.png: cannot create a file in the folder /proc: no such file or directory"
		if err := CheckWritable("/proc/sheet.png"); err == nil || err.Error() != want {
			t.Errorf("/proc: %v, want %q", err, want)
		}
	}
	if err := CheckWritable(filepath.Join(dir, "sheet.png")); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the file", len(entries))
	}
}

// Huge and negative durations keep their true form (on main a 1e12-frame ETA printed
// "-153722867:-16"), and ETA saturates instead of wrapping around.
func TestDurationExtremes(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-61 * time.Second:       "-1:01",
		math.MaxInt64:           "2562047:47:16",
		math.MinInt64:           "-2562047:47:16",
		1e6 * time.Hour:         "1000000:00:00",
		3599 * time.Second:      "59:59",
		3600 * time.Second:      "1:00:00",
		1499 * time.Millisecond: "0:01",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%d) = %q, want %q", int64(d), got, want)
		}
	}
	for _, c := range []struct {
		elapsed    time.Duration
		done, left int
		want       time.Duration
	}{
		{10 * time.Second, 2, 3, 15 * time.Second},
		{4 * time.Second, 1, 1e12, math.MaxInt64},
		{time.Second, 0, 10, 0},
		{time.Second, 3, 0, 0},
	} {
		if got := ETA(c.elapsed, c.done, c.left); got != c.want {
			t.Errorf("ETA(%v, %d, %d) = %v, want %v", c.elapsed, c.done, c.left, got, c.want)
		}
	}
}
