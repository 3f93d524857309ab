package meshfile

import (
	"bytes"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

// A mesh written by WritePLY reads back the same (to float32), across the chunks the
// writer sends its records in; nil writes an empty mesh, which reads back empty.
func TestWritePLYRoundTrip(t *testing.T) {
	const n = 70 // 4,900 vertices: more than one chunk
	m := &geom.Mesh{}
	for j := range n {
		for i := range n {
			m.Positions = append(m.Positions, geom.Vec3{float64(i) * 0.25, float64(i*j) * 0.5, -float64(j)})
		}
	}
	for j := range n - 1 {
		for i := range n - 1 {
			v := int32(j*n + i)
			m.Triangles = append(m.Triangles, [3]int32{v, v + 1, v + n}, [3]int32{v + 1, v + n + 1, v + n})
		}
	}
	var buf bytes.Buffer
	if err := WritePLY(&buf, m, "a test, metres"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "comment a test, metres\n") {
		t.Error("no comment in the header")
	}
	got, err := decodePLY(&buf, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Positions) != len(m.Positions) || !equalTriangles(got.Triangles, m.Triangles) {
		t.Fatalf("%d vertices and %d triangles, want %d and %d", len(got.Positions), len(got.Triangles), len(m.Positions), len(m.Triangles))
	}
	for i, p := range m.Positions {
		if got.Positions[i] != p { // every coordinate here is exact in float32
			t.Fatalf("vertex %d: %v, want %v", i, got.Positions[i], p)
		}
	}

	buf.Reset()
	if err := WritePLY(&buf, nil); err != nil {
		t.Fatal(err)
	}
	if got, err := decodePLY(&buf, true); err != nil || len(got.Positions) != 0 || len(got.Triangles) != 0 {
		t.Errorf("nil mesh: %v, %+v", err, got)
	}
}
