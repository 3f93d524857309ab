package meshfile

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Read picks the reader by extension, whatever its case, and names unknown formats.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	obj := filepath.Join(dir, "tri.OBJ")
	os.WriteFile(obj, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	m, err := Read(obj)
	if err != nil || len(m.Positions) != 3 || len(m.Triangles) != 1 {
		t.Fatalf("OBJ: %v, %+v", err, m)
	}
	stl := filepath.Join(dir, "tri.stl")
	os.WriteFile(stl, []byte("solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n"), 0o644)
	if m, err := Read(stl); err != nil || len(m.Triangles) != 1 {
		t.Fatalf("STL: %v, %+v", err, m)
	}
	gltf := filepath.Join("..", "..", "..", "examples", "paddle.gltf")
	if m, err := Read(gltf); err != nil || len(m.Triangles) != 12 {
		t.Fatalf("glTF: %v, %+v", err, m)
	}
	// The paddle's arm turns half a revolution a second about +Y: at 1 s the paddle,
	// at x from 0.15 to 0.75 at rest, is at x from -0.75 to -0.15.
	m, err = ReadAt(gltf, "Sweep", 1)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := m.Bounds(); math.Abs(lo[0]+0.75) > 1e-6 || math.Abs(hi[0]+0.15) > 1e-6 {
		t.Errorf("paddle at 1 s: x from %g to %g", lo[0], hi[0])
	}
	if _, err := ReadAt(gltf, "Run", 1); err == nil || !strings.Contains(err.Error(), "Sweep") {
		t.Errorf("unknown clip: %v", err)
	}
	if _, err := ReadAt(obj, "", 0.5); err == nil {
		t.Error("a time for an OBJ: no error")
	}
	if _, err := Read(filepath.Join(dir, "x.vdb")); err == nil || !strings.Contains(err.Error(), "unknown mesh format") ||
		!strings.Contains(err.Error(), ".ply") {
		t.Errorf("VDB: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing.obj")); err == nil {
		t.Error("missing file: no error")
	}
}
