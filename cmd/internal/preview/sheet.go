package preview

import (
	"image"
	"image/color"
	"image/draw"
	"math"
)

// Contact sheet colours: a dark neutral surround, so that the thumbnails' whites
// and skies are judged against something that is neither, and light labels.
var (
	sheetBackground = color.RGBA{32, 32, 34, 255}
	sheetText       = color.RGBA{225, 225, 225, 255}
)

// sheetGap is the space in pixels around and between cells.
const sheetGap = 6

// sheetLayout is where ContactSheet puts things: cells of cellW x cellH pixels
// for the frames, each with a label strip of labelH pixels under it, in
// columns x rows, sheetGap apart.
type sheetLayout struct {
	columns, rows        int
	cellW, cellH, labelH int
	scale                int // font scale
}

// layoutSheet sizes the cells to the largest frame; columns <= 0 means about
// square: ceil(sqrt(n)). The font grows with the cell (one font pixel per 240
// picture pixels, at least one) so labels stay legible on large frames.
func layoutSheet(frames []image.Image, columns int) sheetLayout {
	n := len(frames)
	if columns <= 0 {
		columns = int(math.Ceil(math.Sqrt(float64(n))))
	}
	columns = max(1, min(columns, n))
	l := sheetLayout{columns: columns, rows: (n + columns - 1) / columns}
	for _, f := range frames {
		l.cellW, l.cellH = max(l.cellW, f.Bounds().Dx()), max(l.cellH, f.Bounds().Dy())
	}
	l.scale = max(1, min(4, l.cellW/240))
	l.labelH = (glyphHeight + 6) * l.scale // 3 font pixels above and below the text
	return l
}

// size returns the sheet's size.
func (l sheetLayout) size() image.Point {
	return image.Pt(sheetGap+l.columns*(l.cellW+sheetGap), sheetGap+l.rows*(l.cellH+l.labelH+sheetGap))
}

// cell returns the picture rectangle of cell i (row-major).
func (l sheetLayout) cell(i int) image.Rectangle {
	x := sheetGap + (i%l.columns)*(l.cellW+sheetGap)
	y := sheetGap + (i/l.columns)*(l.cellH+l.labelH+sheetGap)
	return image.Rect(x, y, x+l.cellW, y+l.cellH)
}

// label returns the strip under cell i where its label goes.
func (l sheetLayout) label(i int) image.Rectangle {
	c := l.cell(i)
	return image.Rect(c.Min.X, c.Max.Y, c.Max.X, c.Max.Y+l.labelH)
}

// ContactSheet tiles the frames, row by row in columns columns (<= 0: about
// square), on a dark sheet, each in a cell the size of the largest frame (a
// smaller frame is centred in its cell) with labels[i] centred under frame i
// in a built-in 5x7 font. Missing labels are left blank; labels too long for
// the cell are clipped. Render the frames at thumbnail size: the sheet shows
// them pixel for pixel. No frames give an empty image.
func ContactSheet(frames []image.Image, labels []string, columns int) *image.RGBA {
	if len(frames) == 0 {
		return image.NewRGBA(image.Rectangle{})
	}
	l := layoutSheet(frames, columns)
	sheet := image.NewRGBA(image.Rectangle{Max: l.size()})
	fill(sheet, sheet.Bounds(), sheetBackground)
	for i, f := range frames {
		c := l.cell(i)
		fb := f.Bounds()
		at := c.Min.Add(image.Pt((l.cellW-fb.Dx())/2, (l.cellH-fb.Dy())/2))
		draw.Draw(sheet, fb.Sub(fb.Min).Add(at), f, fb.Min, draw.Src)
		if i < len(labels) {
			strip := l.label(i)
			x := strip.Min.X + (strip.Dx()-textWidth(labels[i], l.scale))/2
			y := strip.Min.Y + 3*l.scale
			drawText(sheet.SubImage(strip).(*image.RGBA), x, y, labels[i], l.scale, sheetText)
		}
	}
	return sheet
}
