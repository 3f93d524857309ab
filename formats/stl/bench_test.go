package stl

import (
	"bytes"
	"math"
	"testing"

	"github.com/hschendel/stl"
)

// benchSolid returns a closed torus-like grid of about n triangles.
func benchSolid(n int) *stl.Solid {
	side := int(math.Sqrt(float64(n / 2)))
	at := func(i, j int) stl.Vec3 {
		u := 2 * math.Pi * float64(i%side) / float64(side)
		v := 2 * math.Pi * float64(j%side) / float64(side)
		r := 1 + 0.3*math.Cos(v)
		return stl.Vec3{float32(r * math.Cos(u)), float32(0.3 * math.Sin(v)), float32(r * math.Sin(u))}
	}
	s := &stl.Solid{Name: "torus"}
	for i := range side {
		for j := range side {
			a, b, c, d := at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)
			s.Triangles = append(s.Triangles,
				stl.Triangle{Vertices: [3]stl.Vec3{a, b, c}},
				stl.Triangle{Vertices: [3]stl.Vec3{a, c, d}})
		}
	}
	return s
}

func benchRead(b *testing.B, ascii bool, n int) {
	data := encode(b, benchSolid(n), ascii)
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

// BenchmarkReadBinary reads a binary STL of a million triangles.
func BenchmarkReadBinary(b *testing.B) { benchRead(b, false, 1_000_000) }

// BenchmarkReadASCII reads an ASCII STL of 100,000 triangles: the library's
// ASCII parser matches a regular expression per word, so it is much slower.
func BenchmarkReadASCII(b *testing.B) { benchRead(b, true, 100_000) }
