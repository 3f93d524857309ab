package preview

import (
	"testing"
)

// BenchmarkRender1M renders a heap of a million particles at 1280x720 with 2x2
// supersampling, the size of a typical preview of a production frame.
func BenchmarkRender1M(b *testing.B) {
	pts := snowHeap(1_000_000)
	lo, hi, _ := pts.Bounds()
	cam := Frame(lo, hi, 1280.0/720, DefaultAzimuth, DefaultElevation, DefaultFov)
	opt := Options{Width: 1280, Height: 720, Supersample: 2}
	b.ResetTimer()
	for b.Loop() {
		Render(pts, cam, opt)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
}
