package heightpng

import (
	"bytes"
	"io"
	"math"
	"testing"
)

// benchMap returns a 1024x1024 map of smooth terrain, the kind the ground
// simulation writes each frame.
func benchMap(b *testing.B) *Map {
	const n = 1024
	h := make([]float64, n*n)
	for r := range n {
		for c := range n {
			h[r*n+c] = math.Sin(float64(c)/40)*math.Cos(float64(r)/55)*0.3 + float64(r+c)/4096
		}
	}
	m := &Map{Width: n, Height: n, Cell: 0.01}
	if err := m.QuantizeFit(h); err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkWrite writes a 1024x1024 map. MB/s counts sample bytes (2 MiB).
func BenchmarkWrite(b *testing.B) {
	m := benchMap(b)
	b.SetBytes(int64(2 * len(m.Samples)))
	for b.Loop() {
		if err := Write(io.Discard, m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead reads a 1024x1024 map. MB/s counts sample bytes.
func BenchmarkRead(b *testing.B) {
	m := benchMap(b)
	var buf bytes.Buffer
	if err := Write(&buf, m); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(2 * len(m.Samples)))
	for b.Loop() {
		if _, err := Read(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/float64(2*len(m.Samples)), "file/raw")
}
