package obj

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// mustRead reads src, failing the test on error.
func mustRead(t testing.TB, src string) *geom.Mesh {
	t.Helper()
	m, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatalf("Read: %v\ninput:\n%s", err, src)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("mesh does not validate: %v", err)
	}
	if m.Velocities != nil {
		t.Fatal("velocities are not nil")
	}
	return m
}

// readError reads src and returns its *FormatError, failing if there is none.
func readError(t testing.TB, src string) *FormatError {
	t.Helper()
	_, err := Read(strings.NewReader(src))
	if err == nil {
		t.Fatalf("no error for\n%s", src)
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	return fe
}

// writeOBJ writes m as plain OBJ text, with coordinates that read back exactly.
func writeOBJ(m *geom.Mesh) []byte {
	var b bytes.Buffer
	for _, p := range m.Positions {
		b.WriteString("v")
		for _, x := range p {
			b.WriteByte(' ')
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	for _, t := range m.Triangles {
		b.WriteString("f")
		for _, v := range t {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(int(v) + 1))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// sameMesh reports whether a and b have the same positions and triangles.
func sameMesh(a, b *geom.Mesh) bool {
	if len(a.Positions) != len(b.Positions) || len(a.Triangles) != len(b.Triangles) {
		return false
	}
	for i := range a.Positions {
		if a.Positions[i] != b.Positions[i] {
			return false
		}
	}
	return geom.SameTopology(a, b) == nil
}

// checkClosed fails unless every edge is shared by exactly two triangles running
// along it in opposite directions: a closed, consistently oriented surface.
func checkClosed(t testing.TB, m *geom.Mesh) {
	t.Helper()
	if topo := geom.NewTopology(m.Triangles); !topo.Closed {
		t.Fatalf("not closed: %d boundary edges, %d non-manifold edges", topo.BoundaryEdges, topo.NonManifoldEdges)
	}
}
