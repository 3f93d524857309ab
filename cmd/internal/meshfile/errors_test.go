package meshfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestErrorsNameTheFile: an error inside an OBJ or STL file names the file, as PLY
// and glTF errors did already (issue 24, finding 11: snowsim's mesh bodies said
// only "obj: line 2: ..."); a FIFO named like a mesh is refused, not opened (it
// would block until a writer came).
func TestErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{
		"body.obj": "v 0 0 0\nf 1 2 3\n",
		"body.stl": "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n",
	}
	for name, text := range bad {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Read(path)
		if err == nil || !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("%s: error %v does not start with the path", name, err)
		}
	}
	for _, name := range []string{"pipe.obj", "pipe.abc"} {
		fifo := filepath.Join(dir, name)
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { _, err := ReadAt(fifo, "", -1); done <- err }()
		select {
		case err := <-done:
			if err == nil || err.Error() != fifo+" is a named pipe (FIFO), not a regular file" {
				t.Errorf("FIFO %s: %v", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("FIFO %s: still blocked after 10 s", name)
		}
	}
}
