package ply

import (
	"bytes"
	"io"
	"testing"
)

// The benchmarks use a snow point cloud of 1e6 vertices: x y z, nx ny nz
// float, red green blue uchar, vx vy vz float (39 bytes per record).
// MB/s counts packed record bytes, 39 MB per run, whatever the format, so
// that the figures of the formats compare directly.
const benchVertices = 1_000_000

var benchData []byte

func benchRecords() []byte {
	if benchData == nil {
		benchData = snowRecords(benchVertices)
	}
	return benchData
}

func benchHeader(f Format) Header {
	return Header{Format: f, Comments: []string{"benchmark"}, Elements: []Element{snowVertex(benchVertices)}}
}

// copySink copies what it is given into a reused buffer, as writing to a
// file in the page cache does; io.Discard would make a block write free.
type copySink struct{ buf []byte }

func (s *copySink) Write(p []byte) (int, error) {
	if s.buf == nil {
		s.buf = make([]byte, 1<<20)
	}
	for b := p; len(b) > 0; {
		b = b[copy(s.buf, b):]
	}
	return len(p), nil
}

var sink copySink

// benchWrite writes the cloud with one WriteRecords call (block) or one
// WriteRecord call per vertex.
func benchWrite(b *testing.B, f Format, block bool) {
	data := benchRecords()
	h := benchHeader(f)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		w, err := NewWriter(&sink, h)
		if err != nil {
			b.Fatal(err)
		}
		if block {
			err = w.WriteRecords(data)
		} else {
			for i := 0; i < len(data) && err == nil; i += 39 {
				err = w.WriteRecord(data[i : i+39])
			}
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteBinary(b *testing.B) {
	b.Run("LE/WriteRecord", func(b *testing.B) { benchWrite(b, BinaryLittleEndian, false) })
	b.Run("LE/WriteRecords", func(b *testing.B) { benchWrite(b, BinaryLittleEndian, true) })
	b.Run("BE/WriteRecord", func(b *testing.B) { benchWrite(b, BinaryBigEndian, false) })
	b.Run("BE/WriteRecords", func(b *testing.B) { benchWrite(b, BinaryBigEndian, true) })
}

func BenchmarkWriteASCII(b *testing.B) {
	b.Run("WriteRecord", func(b *testing.B) { benchWrite(b, ASCII, false) })
	b.Run("WriteRecords", func(b *testing.B) { benchWrite(b, ASCII, true) })
}

func benchFile(b *testing.B, f Format) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, benchHeader(f))
	if err != nil {
		b.Fatal(err)
	}
	if err := w.WriteRecords(benchRecords()); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// benchRead reads the cloud with ReadAll (whole) or one ReadRecord call
// per vertex into a reused buffer.
func benchRead(b *testing.B, f Format, whole bool) {
	file := benchFile(b, f)
	b.SetBytes(int64(len(benchRecords())))
	b.ReportAllocs()
	rec := make([]byte, 39)
	for b.Loop() {
		if whole {
			fl, err := ReadAll(bytes.NewReader(file))
			if err != nil || len(fl.Data[0]) != len(benchRecords()) {
				b.Fatal(err)
			}
			continue
		}
		r, err := NewReader(bytes.NewReader(file))
		if err != nil {
			b.Fatal(err)
		}
		for {
			if err := r.ReadRecord(rec); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
	b.ReportMetric(float64(len(file))/1e6, "fileMB")
}

func BenchmarkReadBinary(b *testing.B) {
	b.Run("LE/ReadRecord", func(b *testing.B) { benchRead(b, BinaryLittleEndian, false) })
	b.Run("LE/ReadAll", func(b *testing.B) { benchRead(b, BinaryLittleEndian, true) })
	b.Run("BE/ReadRecord", func(b *testing.B) { benchRead(b, BinaryBigEndian, false) })
	b.Run("BE/ReadAll", func(b *testing.B) { benchRead(b, BinaryBigEndian, true) })
}

func BenchmarkReadASCII(b *testing.B) {
	b.Run("ReadRecord", func(b *testing.B) { benchRead(b, ASCII, false) })
	b.Run("ReadAll", func(b *testing.B) { benchRead(b, ASCII, true) })
}
