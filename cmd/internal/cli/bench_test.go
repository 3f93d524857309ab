package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"
)

// BenchmarkWriteFileAtomic writes a sequence of 24 frames of 4 MB, about what
// snowsim writes per frame for 1.2e5 particles, with the syncs that make the writes
// durable and without them: the difference is what durability costs a sequence.
func BenchmarkWriteFileAtomic(b *testing.B) {
	const frames, size = 24, 4 << 20
	data := make([]byte, size)
	for i := range data {
		data[i] = byte(i * 7919 >> 3)
	}
	for _, durable := range []bool{false, true} {
		b.Run(fmt.Sprintf("durable=%v", durable), func(b *testing.B) {
			dir := b.TempDir()
			b.SetBytes(frames * size)
			for b.Loop() {
				for f := range frames {
					path := filepath.Join(dir, fmt.Sprintf("snow.%04d.prt", f))
					if err := writeFileAtomic(path, func(w io.Writer) error { _, err := w.Write(data); return err }, durable); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*frames), "ms/frame")
		})
	}
}
