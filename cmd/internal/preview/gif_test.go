package preview

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

// gradientFrame returns a frame with a vertical sky-like gradient and a
// moving white square, like a rendered snow sequence in miniature.
func gradientFrame(w, h, k int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			t := float64(y) / float64(h)
			img.SetRGBA(x, y, color.RGBA{uint8(120 + 100*t), uint8(156 + 74*t), uint8(206 + 30*t), 255})
		}
	}
	fill(img, image.Rect(4*k, h/3, 4*k+12, h/3+12), color.RGBA{240, 244, 250, 255})
	return img
}

// WriteGIF's output decodes to the frames' number and size, loops, and is the
// same bytes every time.
func TestWriteGIF(t *testing.T) {
	const w, h, n = 80, 60, 6
	frames := make([]image.Image, n)
	for k := range frames {
		frames[k] = gradientFrame(w, h, k)
	}
	var out bytes.Buffer
	if err := WriteGIF(&out, frames, 5); err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != n || g.Config.Width != w || g.Config.Height != h {
		t.Fatalf("decoded %d frames of %dx%d, want %d of %dx%d", len(g.Image), g.Config.Width, g.Config.Height, n, w, h)
	}
	for k, img := range g.Image {
		if img.Rect != image.Rect(0, 0, w, h) || g.Delay[k] != 5 {
			t.Errorf("frame %d: bounds %v delay %d", k, img.Rect, g.Delay[k])
		}
	}
	if g.LoopCount != 0 {
		t.Errorf("loop count %d, want 0 (forever)", g.LoopCount)
	}
	// The palette follows the pictures: a pixel of the gradient comes back
	// within a few levels of its value, which a generic palette cannot do.
	want := frames[0].(*image.RGBA).RGBAAt(40, 30)
	got := color.RGBAModel.Convert(g.Image[0].At(40, 30)).(color.RGBA)
	if diff(got.R, want.R) > 6 || diff(got.G, want.G) > 6 || diff(got.B, want.B) > 6 {
		t.Errorf("pixel %v comes back as %v", want, got)
	}
	var again bytes.Buffer
	if err := WriteGIF(&again, frames, 5); err != nil || !bytes.Equal(out.Bytes(), again.Bytes()) {
		t.Errorf("WriteGIF is not deterministic (err %v)", err)
	}
}

func diff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// Frames of different sizes and no frames are errors.
func TestWriteGIFErrors(t *testing.T) {
	var out bytes.Buffer
	if err := WriteGIF(&out, nil, 4); err == nil {
		t.Error("no frames: no error")
	}
	frames := []image.Image{gradientFrame(10, 10, 0), gradientFrame(12, 10, 0)}
	if err := WriteGIF(&out, frames, 4); err == nil {
		t.Error("frames of different sizes: no error")
	}
}

// Median cut keeps every colour when there are fewer than the palette size,
// and stops splitting then.
func TestMedianCutFewColours(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 1))
	cs := []color.RGBA{{10, 20, 30, 255}, {200, 210, 220, 255}, {255, 255, 255, 255}}
	for x, c := range cs {
		img.SetRGBA(x, 0, c)
	}
	p := medianCutPalette([]*image.RGBA{img}, 256)
	if len(p) != 3 {
		t.Fatalf("palette of %d colours, want 3: %v", len(p), p)
	}
	for _, c := range cs {
		if p[p.Index(c)] != c {
			t.Errorf("colour %v missing from %v", c, p)
		}
	}
}
