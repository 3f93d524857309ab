package checkpoint

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkWrite and BenchmarkRead: 100k particles of random values (real states
// compress better: masses and materials repeat).
func BenchmarkWrite(b *testing.B) {
	st := randomState(100000, 1)
	b.SetBytes(int64(recordSize() * 100000))
	for b.Loop() {
		if err := Write(io.Discard, Header{}, &st); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead(b *testing.B) {
	st := randomState(100000, 1)
	file := encode(b, Header{}, &st)
	b.SetBytes(int64(recordSize() * 100000))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Read(bytes.NewReader(file)); err != nil {
			b.Fatal(err)
		}
	}
}
