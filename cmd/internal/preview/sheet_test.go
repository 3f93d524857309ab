package preview

import (
	"image"
	"image/color"
	"testing"
)

// flatFrame returns a w x h frame of one colour.
func flatFrame(w, h int, c color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Rect, c)
	return img
}

// inkBox returns the bounding box of the pixels of colour c inside r.
func inkBox(img *image.RGBA, r image.Rectangle, c color.RGBA) image.Rectangle {
	var box image.Rectangle
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if img.RGBAAt(x, y) == c {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

// Five frames in three columns make a 3 x 2 sheet; each frame is copied
// pixel for pixel into its cell, and its label is centred in the strip under it.
func TestContactSheetLayout(t *testing.T) {
	const w, h = 64, 48
	frames := make([]image.Image, 5)
	for i := range frames {
		frames[i] = flatFrame(w, h, color.RGBA{uint8(40 * i), 100, 200, 255})
	}
	labels := []string{"frame 0", "frame 1", "frame 12", "frame 123", "frame 1234"}
	sheet := ContactSheet(frames, labels, 3)

	l := layoutSheet(frames, 3)
	labelH := (glyphHeight + 6) * l.scale
	want := image.Pt(sheetGap+3*(w+sheetGap), sheetGap+2*(h+labelH+sheetGap))
	if sheet.Rect.Size() != want {
		t.Fatalf("sheet is %v, want %v", sheet.Rect.Size(), want)
	}
	for i, f := range frames {
		col, row := i%3, i/3
		at := image.Pt(sheetGap+col*(w+sheetGap), sheetGap+row*(h+labelH+sheetGap))
		cell := image.Rectangle{Min: at, Max: at.Add(image.Pt(w, h))}
		if got, wantC := sheet.RGBAAt(cell.Min.X, cell.Min.Y), f.(*image.RGBA).RGBAAt(0, 0); got != wantC {
			t.Errorf("frame %d: top-left of its cell is %v, want %v", i, got, wantC)
		}
		if got := sheet.RGBAAt(cell.Max.X-1, cell.Max.Y-1); got != f.(*image.RGBA).RGBAAt(w-1, h-1) {
			t.Errorf("frame %d: bottom-right of its cell is %v", i, got)
		}
		strip := image.Rect(cell.Min.X, cell.Max.Y, cell.Max.X, cell.Max.Y+labelH)
		ink := inkBox(sheet, strip, sheetText)
		if ink.Empty() {
			t.Errorf("frame %d: no label under it", i)
			continue
		}
		if ink.Dy() != glyphHeight*l.scale && ink.Dy() != (glyphHeight-1)*l.scale {
			t.Errorf("frame %d: label is %d pixels high", i, ink.Dy())
		}
		centre := (ink.Min.X + ink.Max.X) / 2
		if d := centre - (strip.Min.X+strip.Max.X)/2; d < -3 || d > 3 {
			t.Errorf("frame %d: label centred at %d, strip centre %d", i, centre, (strip.Min.X+strip.Max.X)/2)
		}
		if wantW := textWidth(labels[i], l.scale); ink.Dx() > wantW || ink.Dx() < wantW-2*l.scale {
			t.Errorf("frame %d: label %q is %d wide, text width %d", i, labels[i], ink.Dx(), wantW)
		}
	}
	// The sixth cell is empty: only background.
	last := l.cell(5)
	if got := inkBox(sheet, last.Union(l.label(5)), sheetText); !got.Empty() {
		t.Errorf("empty cell has ink at %v", got)
	}
}

// The sheet handles no frames, missing labels and a too-large column count.
func TestContactSheetEdgeCases(t *testing.T) {
	if s := ContactSheet(nil, nil, 4); !s.Rect.Empty() {
		t.Errorf("no frames: %v", s.Rect)
	}
	frames := []image.Image{flatFrame(10, 10, color.RGBA{255, 0, 0, 255}), flatFrame(20, 8, color.RGBA{0, 255, 0, 255})}
	s := ContactSheet(frames, []string{"a"}, 10) // 10 columns for 2 frames: 2 columns
	l := layoutSheet(frames, 10)
	if l.columns != 2 || l.cellW != 20 || l.cellH != 10 {
		t.Errorf("layout %+v", l)
	}
	if s.Rect.Dx() != sheetGap+2*(20+sheetGap) {
		t.Errorf("width %d", s.Rect.Dx())
	}
	if ink := inkBox(s, l.label(1), sheetText); !ink.Empty() {
		t.Errorf("missing label drew ink at %v", ink)
	}
}

// Every glyph fits its 5x7 cell, and characters without a glyph draw a box.
func TestFont(t *testing.T) {
	for r, src := range glyphSource {
		if len(src) != 7*6-1 {
			t.Errorf("glyph %q: source %q is not 7 rows of 5", r, src)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 20, 10))
	drawText(img, 1, 1, "\u00e9", 1, sheetText)
	if ink := inkBox(img, img.Rect, sheetText); ink != image.Rect(1, 1, 6, 8) {
		t.Errorf("missing glyph drew %v, want a 5x7 box", ink)
	}
}
