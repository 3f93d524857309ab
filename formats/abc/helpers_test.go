package abc

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// memFile is an in-memory Output and io.ReaderAt.
type memFile struct{ b []byte }

func (m *memFile) Write(p []byte) (int, error) {
	m.b = append(m.b, p...)
	return len(p), nil
}

func (m *memFile) WriteAt(p []byte, off int64) (int, error) {
	if end := int(off) + len(p); end > len(m.b) {
		m.b = append(m.b, make([]byte, end-len(m.b))...)
	}
	copy(m.b[off:], p)
	return len(p), nil
}

// openBytes opens an archive held in memory.
func openBytes(t testing.TB, b []byte) *Archive {
	t.Helper()
	a, err := Open(bytesReaderAt(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// writeFile writes b to a file in a temporary folder and returns its path.
func writeFile(t testing.TB, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
