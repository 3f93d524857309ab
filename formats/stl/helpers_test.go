package stl

import (
	"bytes"
	"errors"
	"testing"

	"github.com/hschendel/stl"

	"snowtools/levelset/geom"
)

// cubeSolid returns the unit cube [0,1]^3 as 12 triangles, counter-clockwise
// seen from outside, as an exporter writes it: every corner repeated.
func cubeSolid() *stl.Solid {
	c := func(i int) stl.Vec3 { return stl.Vec3{float32(i & 1), float32(i >> 1 & 1), float32(i >> 2 & 1)} }
	// Corner i is (i&1, i>>1&1, i>>2&1); each face is a quad, outward winding.
	quads := [][4]int{
		{0, 2, 3, 1}, // z = 0, normal -z
		{4, 5, 7, 6}, // z = 1
		{0, 1, 5, 4}, // y = 0
		{2, 6, 7, 3}, // y = 1
		{0, 4, 6, 2}, // x = 0
		{1, 3, 7, 5}, // x = 1
	}
	s := &stl.Solid{Name: "cube"}
	for _, q := range quads {
		s.Triangles = append(s.Triangles,
			stl.Triangle{Vertices: [3]stl.Vec3{c(q[0]), c(q[1]), c(q[2])}},
			stl.Triangle{Vertices: [3]stl.Vec3{c(q[0]), c(q[2]), c(q[3])}})
	}
	s.RecalculateNormals()
	return s
}

// encode writes s as binary or ASCII STL.
func encode(t testing.TB, s *stl.Solid, ascii bool) []byte {
	t.Helper()
	s.IsAscii = ascii
	var b bytes.Buffer
	if err := s.WriteAll(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mustRead reads data, failing the test on error or on an invalid mesh.
func mustRead(t testing.TB, data []byte) *geom.Mesh {
	t.Helper()
	m, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("mesh does not validate: %v", err)
	}
	if m.Velocities != nil {
		t.Fatal("velocities are not nil")
	}
	return m
}

// readError reads data and returns its *FormatError, failing if there is none.
func readError(t testing.TB, data []byte) *FormatError {
	t.Helper()
	_, err := Read(bytes.NewReader(data))
	if err == nil {
		t.Fatalf("no error for %d bytes", len(data))
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	return fe
}

// solidOf turns a mesh back into a triangle soup.
func solidOf(m *geom.Mesh) *stl.Solid {
	s := &stl.Solid{}
	for _, tri := range m.Triangles {
		var t stl.Triangle
		for k, v := range tri {
			p := m.Positions[v]
			t.Vertices[k] = stl.Vec3{float32(p[0]), float32(p[1]), float32(p[2])}
		}
		s.Triangles = append(s.Triangles, t)
	}
	return s
}

// sameMesh reports whether a and b have the same positions and triangles.
func sameMesh(a, b *geom.Mesh) bool {
	if len(a.Positions) != len(b.Positions) {
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

// signedVolume is positive for a closed mesh wound counter-clockwise outside.
func signedVolume(m *geom.Mesh) float64 {
	v := 0.0
	for _, tri := range m.Triangles {
		a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		v += a.Dot(b.Cross(c)) / 6
	}
	return v
}
