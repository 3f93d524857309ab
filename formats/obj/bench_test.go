package obj

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// benchOBJ returns a closed, triangulated sphere-like grid of about 2n triangles
// written the way exporters do: six significant digits, v/vt/vn faces.
func benchOBJ(n int) []byte {
	var b bytes.Buffer
	side := int(math.Sqrt(float64(n)))
	b.WriteString("# benchmark\nmtllib b.mtl\no grid\n")
	for i := range side {
		for j := range side {
			u, v := float64(i)/float64(side), float64(j)/float64(side)
			fmt.Fprintf(&b, "v %.6g %.6g %.6g\n", math.Cos(u*7)*0.5, u-0.5, math.Sin(v*5)*0.25)
		}
	}
	for i := range side * side {
		fmt.Fprintf(&b, "vt %.6g %.6g\n", float64(i%side)/float64(side), float64(i/side)/float64(side))
	}
	b.WriteString("vn 0 0 1\ns 1\nusemtl m\n")
	for i := 0; i+1 < side; i++ {
		for j := 0; j+1 < side; j++ {
			a := i*side + j + 1
			c := a + side
			fmt.Fprintf(&b, "f %d/%d/1 %d/%d/1 %d/%d/1\n", a, a, a+1, a+1, c+1, c+1)
			fmt.Fprintf(&b, "f %d/%d/1 %d/%d/1 %d/%d/1\n", a, a, c+1, c+1, c, c)
		}
	}
	return b.Bytes()
}

// BenchmarkRead reads an OBJ of a million triangles. MB/s counts file bytes.
func BenchmarkRead(b *testing.B) {
	data := benchOBJ(500_000)
	b.SetBytes(int64(len(data)))
	var tris int
	for b.Loop() {
		m, err := Read(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		tris = len(m.Triangles)
	}
	b.ReportMetric(float64(tris)/1e6, "Mtri")
}
