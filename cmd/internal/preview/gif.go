package preview

import (
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"io"
)

// defaultGIFDelay is the frame delay used for delays <= 0: 4 centiseconds,
// 25 frames per second.
const defaultGIFDelay = 4

// WriteGIF writes the frames as an animated GIF that loops forever, showing
// each for delayCentiseconds hundredths of a second (<= 0 means 4, 25 frames
// per second). All frames share one 256-colour palette computed from the
// frames themselves by median cut, and are dithered into it with
// Floyd-Steinberg error diffusion, so the smooth whites, greys and sky blues of
// snow do not band as they would in a generic palette. The frames must all
// have the size of the first. The output depends only on the arguments.
func WriteGIF(w io.Writer, frames []image.Image, delayCentiseconds int) error {
	if len(frames) == 0 {
		return fmt.Errorf("preview: WriteGIF needs at least one frame")
	}
	if delayCentiseconds <= 0 {
		delayCentiseconds = defaultGIFDelay
	}
	size := frames[0].Bounds().Size()
	rgba := make([]*image.RGBA, len(frames))
	for i, f := range frames {
		if f.Bounds().Size() != size {
			return fmt.Errorf("preview: GIF frame %d is %v, frame 0 is %v; all frames must have one size", i, f.Bounds().Size(), size)
		}
		rgba[i] = toRGBA(f)
	}
	palette := medianCutPalette(rgba, 256)
	anim := &gif.GIF{
		Image:     make([]*image.Paletted, len(frames)),
		Delay:     make([]int, len(frames)),
		LoopCount: 0, // forever
		Config:    image.Config{ColorModel: palette, Width: size.X, Height: size.Y},
	}
	for i, f := range rgba {
		p := image.NewPaletted(image.Rectangle{Max: size}, palette)
		draw.FloydSteinberg.Draw(p, p.Rect, f, f.Rect.Min)
		anim.Image[i], anim.Delay[i] = p, delayCentiseconds
	}
	return gif.EncodeAll(w, anim)
}
