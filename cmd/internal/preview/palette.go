package preview

import (
	"cmp"
	"image"
	"image/color"
	"image/draw"
	"slices"
)

// paletteSamples is about how many pixels medianCutPalette looks at: enough for
// every region of a sequence to be represented, few enough to sort quickly.
const paletteSamples = 1 << 18

// medianCutPalette returns a palette of at most size colours for the frames,
// by median cut (Heckbert, "Color image quantization for frame buffer
// display", 1982) over an even subsample of their pixels: starting from one box
// holding every sample, split the box with the largest squared error
// sum |c - mean|^2 at the median of its widest channel, until there are size
// boxes or no box holds two different colours; each box gives its mean colour.
// Splitting by error rather than by count spends the palette where colours
// vary, so the many near-whites and blues of snow pictures get fine steps. The
// result depends only on the pixels.
func medianCutPalette(frames []*image.RGBA, size int) color.Palette {
	samples := samplePixels(frames, paletteSamples)
	boxes := []colorBox{newColorBox(samples)}
	for len(boxes) < size {
		worst := 0
		for i, b := range boxes {
			if b.err > boxes[worst].err {
				worst = i
			}
		}
		if boxes[worst].err == 0 {
			break
		}
		lo, hi, ok := boxes[worst].split()
		if !ok { // rounding left a one-colour box with a tiny error
			boxes[worst].err = 0
			continue
		}
		boxes[worst] = lo
		boxes = append(boxes, hi)
	}
	palette := make(color.Palette, len(boxes))
	for i, b := range boxes {
		palette[i] = b.mean()
	}
	return palette
}

// samplePixels returns every k-th pixel of the frames, in order, with k chosen
// to give about want samples.
func samplePixels(frames []*image.RGBA, want int) [][3]uint8 {
	total := 0
	for _, f := range frames {
		total += f.Rect.Dx() * f.Rect.Dy()
	}
	stride := max(1, (total+want-1)/want)
	samples := make([][3]uint8, 0, total/stride+len(frames))
	i := 0
	for _, f := range frames {
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			for x := f.Rect.Min.X; x < f.Rect.Max.X; x++ {
				if i%stride == 0 {
					p := f.Pix[f.PixOffset(x, y):]
					samples = append(samples, [3]uint8{p[0], p[1], p[2]})
				}
				i++
			}
		}
	}
	return samples
}

// colorBox is a set of colour samples with its squared error about its mean.
type colorBox struct {
	samples [][3]uint8
	sum     [3]float64
	err     float64
}

func newColorBox(samples [][3]uint8) colorBox {
	b := colorBox{samples: samples}
	var sq float64
	for _, s := range samples {
		for c := range 3 {
			v := float64(s[c])
			b.sum[c] += v
			sq += v * v
		}
	}
	if n := float64(len(samples)); n > 0 {
		// sum |c - mean|^2 = sum |c|^2 - |sum c|^2 / n
		b.err = max(0, sq-(b.sum[0]*b.sum[0]+b.sum[1]*b.sum[1]+b.sum[2]*b.sum[2])/n)
	}
	return b
}

// mean returns the box's mean colour, rounded.
func (b colorBox) mean() color.RGBA {
	n := float64(max(1, len(b.samples)))
	return color.RGBA{uint8(b.sum[0]/n + 0.5), uint8(b.sum[1]/n + 0.5), uint8(b.sum[2]/n + 0.5), 255}
}

// split sorts the box's samples along its widest channel and cuts them at the
// median value, so that equal values stay in one box; both halves are non-empty
// when the box holds at least two colours, and ok is false when it does not.
func (b colorBox) split() (lower, upper colorBox, ok bool) {
	lo, hi := [3]uint8{255, 255, 255}, [3]uint8{}
	for _, s := range b.samples {
		for c := range 3 {
			lo[c], hi[c] = min(lo[c], s[c]), max(hi[c], s[c])
		}
	}
	axis := 0
	for c := 1; c < 3; c++ {
		if int(hi[c])-int(lo[c]) > int(hi[axis])-int(lo[axis]) {
			axis = c
		}
	}
	if lo[axis] == hi[axis] {
		return b, b, false
	}
	slices.SortFunc(b.samples, func(p, q [3]uint8) int {
		if d := cmp.Compare(p[axis], q[axis]); d != 0 {
			return d
		}
		return cmp.Compare(uint32(p[0])<<16|uint32(p[1])<<8|uint32(p[2]), uint32(q[0])<<16|uint32(q[1])<<8|uint32(q[2]))
	})
	median := b.samples[len(b.samples)/2][axis]
	// Cut after the run of the median value, or before it when it runs to the end.
	cut, _ := slices.BinarySearchFunc(b.samples, median+1, func(s [3]uint8, v uint8) int { return cmp.Compare(s[axis], v) })
	if median == 255 || cut == len(b.samples) {
		cut, _ = slices.BinarySearchFunc(b.samples, median, func(s [3]uint8, v uint8) int { return cmp.Compare(s[axis], v) })
	}
	return newColorBox(b.samples[:cut]), newColorBox(b.samples[cut:]), true
}

// toRGBA returns img as an *image.RGBA with its own bounds, converting when needed.
func toRGBA(img image.Image) *image.RGBA {
	if r, ok := img.(*image.RGBA); ok {
		return r
	}
	r := image.NewRGBA(img.Bounds())
	draw.Draw(r, r.Rect, img, r.Rect.Min, draw.Src)
	return r
}
