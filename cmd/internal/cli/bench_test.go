package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"
)

// BenchmarkWriteFileAtomic writes a sequence of 24 frames, of 64 KB and of 4 MB
// (snowsim's demo writes 0.4 MB frames of 1e4 particles), with the syncs that make
// the writes durable and without them: the difference is what durability costs a
// sequence.
func BenchmarkWriteFileAtomic(b *testing.B) {
	for _, size := range []int{64 << 10, 4 << 20} {
		for _, durable := range []bool{false, true} {
			b.Run(fmt.Sprintf("frame=%dKB/durable=%v", size>>10, durable), func(b *testing.B) {
				benchmarkSequence(b, 24, size, durable)
			})
		}
	}
}

// benchmarkSequence writes a sequence of frames files of size bytes, again and again,
// and reports the time per frame.
func benchmarkSequence(b *testing.B, frames, size int, durable bool) {
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7919 >> 3)
	}
	dir := b.TempDir()
	b.SetBytes(int64(frames * size))
	for b.Loop() {
		for f := range frames {
			path := filepath.Join(dir, fmt.Sprintf("snow.%04d.prt", f))
			if err := writeFileAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err }, durable); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N*frames), "ms/frame")
}
