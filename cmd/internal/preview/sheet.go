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

// sheetLayout is where ContactSheet and Grid put things: cells of cellW x cellH
// pixels in columns x rows, sheetGap apart, each with a label strip of labelH
// pixels under it (ContactSheet's frame labels); and in front of them a column of
// left pixels for row labels and a strip of top pixels for column labels (Grid's).
// Label space of 0 is none.
type sheetLayout struct {
	columns, rows        int
	cellW, cellH, labelH int
	left, top            int
	scale                int // font scale
}

// layoutCells sizes the cells to the largest frame (nil frames are empty cells)
// and leaves no room for labels; columns <= 0 means about square: ceil(sqrt(n)).
// The font grows with the cell (one font pixel per 240 picture pixels, at least
// one) so labels stay legible on large frames.
func layoutCells(frames []image.Image, columns int) sheetLayout {
	n := len(frames)
	if columns <= 0 {
		columns = int(math.Ceil(math.Sqrt(float64(n))))
	}
	columns = max(1, min(columns, n))
	l := sheetLayout{columns: columns, rows: (n + columns - 1) / columns}
	for _, f := range frames {
		if f != nil {
			l.cellW, l.cellH = max(l.cellW, f.Bounds().Dx()), max(l.cellH, f.Bounds().Dy())
		}
	}
	l.scale = max(1, min(4, l.cellW/240))
	return l
}

// layoutSheet is ContactSheet's layout: a label strip under every cell.
func layoutSheet(frames []image.Image, columns int) sheetLayout {
	l := layoutCells(frames, columns)
	l.labelH = l.lineHeight()
	return l
}

// lineHeight is the height of a strip of one line of text: the glyphs with 3 font
// pixels above and below.
func (l sheetLayout) lineHeight() int { return (glyphHeight + 6) * l.scale }

// origin returns the top-left corner of the first cell.
func (l sheetLayout) origin() image.Point { return image.Pt(sheetGap+l.left, sheetGap+l.top) }

// size returns the sheet's size.
func (l sheetLayout) size() image.Point {
	o := l.origin()
	return image.Pt(o.X+l.columns*(l.cellW+sheetGap), o.Y+l.rows*(l.cellH+l.labelH+sheetGap))
}

// cell returns the picture rectangle of cell i (row-major).
func (l sheetLayout) cell(i int) image.Rectangle {
	at := l.origin().Add(image.Pt((i%l.columns)*(l.cellW+sheetGap), (i/l.columns)*(l.cellH+l.labelH+sheetGap)))
	return image.Rectangle{Min: at, Max: at.Add(image.Pt(l.cellW, l.cellH))}
}

// label returns the strip under cell i where its label goes.
func (l sheetLayout) label(i int) image.Rectangle {
	c := l.cell(i)
	return image.Rect(c.Min.X, c.Max.Y, c.Max.X, c.Max.Y+l.labelH)
}

// paint returns the sheet with its background and every frame in its cell, a
// smaller frame centred in it, pixel for pixel.
func (l sheetLayout) paint(frames []image.Image) *image.RGBA {
	sheet := image.NewRGBA(image.Rectangle{Max: l.size()})
	fill(sheet, sheet.Bounds(), sheetBackground)
	for i, f := range frames {
		if f == nil {
			continue
		}
		fb := f.Bounds()
		at := l.cell(i).Min.Add(image.Pt((l.cellW-fb.Dx())/2, (l.cellH-fb.Dy())/2))
		draw.Draw(sheet, fb.Sub(fb.Min).Add(at), f, fb.Min, draw.Src)
	}
	return sheet
}

// write draws one line of text in box, centred vertically and either centred
// horizontally or from the box's left edge, clipped to the box.
func (l sheetLayout) write(sheet *image.RGBA, box image.Rectangle, text string, centred bool) {
	x := box.Min.X
	if centred {
		x += (box.Dx() - textWidth(text, l.scale)) / 2
	}
	y := box.Min.Y + (box.Dy()-glyphHeight*l.scale)/2
	drawText(sheet.SubImage(box).(*image.RGBA), x, y, text, l.scale, sheetText)
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
	sheet := l.paint(frames)
	for i, text := range labels[:min(len(labels), len(frames))] {
		l.write(sheet, l.label(i), text, true)
	}
	return sheet
}
