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
	fifo := filepath.Join(dir, "pipe.obj")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(fifo); done <- err }()
	select {
	case err := <-done:
		if err == nil || err.Error() != fifo+" is a named pipe (FIFO), not a regular file" {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("FIFO: Read still blocked after 10 s")
	}
}
