package main

import "fmt"

// Memory of a picture (-to png, compare) per sample of the supersampled frame
// (-size times -ss squared: depth, particle index) and per pixel of the picture.
// Measured: peak RSS of -to png -size 2048x2048 of 1.4e4 particles on 1 thread,
// 58 MB at -ss 1 and 553 MB at -ss 4: 8.05 B a sample more.
const (
	renderBytesPerSample = 8
	renderBytesPerPixel  = 4 // the RGBA picture
)

// checkRenderMemory refuses a picture size that the budget cannot render on all
// threads at once (frames render in parallel, each with its own buffers), before
// any frame is read: -size 16384x16384 -ss 8 is 1.7e10 samples, 137 GB a frame.
func (s *settings) checkRenderMemory() error {
	pixels := int64(s.view.width) * int64(s.view.height)
	samples := pixels * int64(s.view.supersample) * int64(s.view.supersample)
	perFrame := samples*renderBytesPerSample + pixels*renderBytesPerPixel
	return s.budget.Check(fmt.Sprintf("-size %s at -ss %d, %d frames at a time (-threads)", s.view.size, s.view.supersample, s.threads),
		perFrame*int64(s.threads))
}
