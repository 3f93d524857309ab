package meshfile

import (
	"testing"

	"snowtools/formats/ply"
)

// BenchmarkReadPLY reads a height-field ground of 708 x 708 cells (1.0e6
// triangles, 502,681 vertices, 19.1 MB binary little-endian) whole, and its
// bounds (the vertex element only), as export -ground does per frame.
func BenchmarkReadPLY(b *testing.B) {
	const n = 708
	m := plyMesh{format: ply.BinaryLittleEndian, vertexProps: xyzFloat, faceProps: faceIndices}
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			m.vertices = append(m.vertices, []float64{float64(i) * 0.01, 0, float64(j) * 0.01})
		}
	}
	for j := range n {
		for i := range n {
			a := int64(j*(n+1) + i)
			m.faces = append(m.faces, []int64{a, a + n + 1, a + 1}, []int64{a + 1, a + n + 1, a + n + 2})
		}
	}
	path := m.write(b, b.TempDir(), "ground.ply")
	b.Run("Read", func(b *testing.B) {
		for b.Loop() {
			if _, err := Read(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Bounds", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := Bounds(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}
