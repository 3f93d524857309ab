package prt

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

const benchParticles = 1_000_000

// benchFrame returns the records of a 1e6-particle snow frame.
func benchFrame(b *testing.B) (Header, []byte) {
	b.Helper()
	h, c := snowHeader(benchParticles)
	size := h.ParticleSize()
	data := make([]byte, benchParticles*size)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range benchParticles {
		snowParticle(c, data[i*size:(i+1)*size], r, i)
	}
	return h, data
}

// BenchmarkWriteParticle writes a 1e6-particle frame one record at a time.
// MB/s counts uncompressed particle bytes.
func BenchmarkWriteParticle(b *testing.B) {
	h, data := benchFrame(b)
	size := h.ParticleSize()
	b.SetBytes(int64(len(data)))
	var compressed int
	for b.Loop() {
		var cw countWriter
		cw.w = io.Discard
		w, err := NewWriter(&cw, h)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < len(data); i += size {
			if err := w.WriteParticle(data[i : i+size]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		compressed = int(cw.n)
	}
	b.ReportMetric(float64(compressed)/float64(len(data)), "ratio")
}

// BenchmarkWrite writes a 1e6-particle frame with one bulk Write.
func BenchmarkWrite(b *testing.B) {
	h, data := benchFrame(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		w, err := NewWriter(io.Discard, h)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func encodeFrame(b *testing.B, h Header, data []byte) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		b.Fatal(err)
	}
	w.Write(data)
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkReadAll reads a 1e6-particle frame into memory.
func BenchmarkReadAll(b *testing.B) {
	h, data := benchFrame(b)
	file := encodeFrame(b, h, data)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := ReadAll(bytes.NewReader(file))
		if err != nil || len(f.Data) != len(data) {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadParticle streams a 1e6-particle frame one record at a time.
func BenchmarkReadParticle(b *testing.B) {
	h, data := benchFrame(b)
	file := encodeFrame(b, h, data)
	b.SetBytes(int64(len(data)))
	rec := make([]byte, h.ParticleSize())
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(file))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := r.ReadParticle(rec); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

// BenchmarkFloat32s decodes the Position column of a 1e6-particle frame.
func BenchmarkFloat32s(b *testing.B) {
	h, data := benchFrame(b)
	f := &Frame{Header: h, Data: data}
	b.SetBytes(int64(benchParticles * 12))
	for b.Loop() {
		if _, _, err := f.Float32s("Position"); err != nil {
			b.Fatal(err)
		}
	}
}
