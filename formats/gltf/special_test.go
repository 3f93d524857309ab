package gltf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"snowtools/levelset/limittest"
)

// TestSpecialBufferFiles: a buffer URI naming a FIFO (with no writer, so that
// opening it blocks) or a folder is refused at once, naming the buffer and what the
// file is (a device cannot be made here without root, and a link to /dev/zero
// leaves the folder, which the os.Root refuses already; formats/input tests
// /dev/zero); so is a .gltf path that is a FIFO. On main the
// FIFO hung forever (issue 24, finding 9). The cases run in a child process, killed
// after 20 s.
func TestSpecialBufferFiles(t *testing.T) {
	res := limittest.Run(t, limittest.Limits{RSS: limittest.Default.RSS, Time: 20 * time.Second}, func() error {
		dir := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(dir, "fifo.bin"), 0o600); err != nil {
			return err
		}
		if err := os.Mkdir(filepath.Join(dir, "folder.bin"), 0o700); err != nil {
			return err
		}
		if err := syscall.Mkfifo(filepath.Join(dir, "scene.gltf"), 0o600); err != nil {
			return err
		}
		var msgs []string
		for _, uri := range []string{"fifo.bin", "folder.bin"} {
			_, err := Open(writeExternal(t, dir, uri))
			msgs = append(msgs, errText(err))
		}
		_, err := Open(filepath.Join(dir, "scene.gltf"))
		msgs = append(msgs, errText(err))
		return &joined{strings.Join(msgs, "\n")}
	})
	got := strings.Split(res.Output, "\n")
	want := []string{
		`buffers[0]: cannot read external buffer "fifo.bin": fifo.bin is a named pipe (FIFO), not a regular file`,
		`buffers[0]: cannot read external buffer "folder.bin": folder.bin is a folder, not a regular file`,
		`scene.gltf: cannot open: `,
	}
	if len(got) != len(want) {
		t.Fatalf("got %q", res.Output)
	}
	for i := range want {
		if !strings.Contains(got[i], want[i]) {
			t.Errorf("case %d: error %q, want it to contain %q", i, got[i], want[i])
		}
	}
	if !strings.HasSuffix(got[2], "scene.gltf is a named pipe (FIFO), not a regular file") {
		t.Errorf("the .gltf FIFO: %q", got[2])
	}
}

// writeExternal writes a.gltf in dir: the triangle with its buffer at uri.
func writeExternal(t testing.TB, dir, uri string) string {
	d := triangleDoc()
	n := len(d.bin)
	d.bin = nil
	var m map[string]any
	if err := json.Unmarshal(d.bytes(t), &m); err != nil {
		t.Fatal(err)
	}
	m["buffers"] = []any{map[string]any{"byteLength": n, "uri": uri}}
	m["bufferViews"], m["accessors"] = d.views, d.accessors
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "a.gltf")
	if err := os.WriteFile(path, js, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// joined carries several results out of the child as one error's text.
type joined struct{ s string }

func (j *joined) Error() string { return j.s }
