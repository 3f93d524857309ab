package preview

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

// A 3 x 2 grid: each picture is copied pixel for pixel into its cell, the row
// labels start at the left edge beside their rows, centred on their height, and the
// column labels are centred above their columns, right above the first row.
func TestGridLayout(t *testing.T) {
	const w, h = 64, 48
	rowLabels := []string{"ball_p1_sinter", "1 kPa", "with 3 kPa"}
	columnLabels := []string{"frame 20 (0.8 s)", "frame 40"}
	rows := make([][]image.Image, 3)
	for r := range rows {
		for c := range 2 {
			rows[r] = append(rows[r], flatFrame(w, h, color.RGBA{uint8(60 * r), uint8(100 * c), 200, 255}))
		}
	}
	grid := Grid(rows, rowLabels, columnLabels)

	l, _ := layoutGrid(rows, rowLabels, columnLabels)
	lineH := (glyphHeight + 6) * l.scale
	left := textWidth("ball_p1_sinter", l.scale) + sheetGap // the widest row label and a gap
	if l.left != left || l.top != lineH || l.labelH != 0 {
		t.Fatalf("label space: left %d (want %d), top %d (want %d), under cells %d", l.left, left, l.top, lineH, l.labelH)
	}
	want := image.Pt(sheetGap+left+2*(w+sheetGap), sheetGap+lineH+3*(h+sheetGap))
	if grid.Rect.Size() != want {
		t.Fatalf("grid is %v, want %v", grid.Rect.Size(), want)
	}
	for r := range rows {
		for c := range 2 {
			at := image.Pt(sheetGap+left+c*(w+sheetGap), sheetGap+lineH+r*(h+sheetGap))
			if cell := l.cell(r*2 + c); cell != (image.Rectangle{Min: at, Max: at.Add(image.Pt(w, h))}) {
				t.Errorf("cell %d,%d is %v, want at %v", r, c, cell, at)
			}
			src := rows[r][c].(*image.RGBA)
			if grid.RGBAAt(at.X, at.Y) != src.RGBAAt(0, 0) || grid.RGBAAt(at.X+w-1, at.Y+h-1) != src.RGBAAt(w-1, h-1) {
				t.Errorf("cell %d,%d: picture not copied to %v", r, c, at)
			}
			if grid.RGBAAt(at.X-1, at.Y) != sheetBackground || grid.RGBAAt(at.X+w, at.Y+h) != sheetBackground {
				t.Errorf("cell %d,%d: no gap around it", r, c)
			}
		}
	}
	for r, text := range rowLabels {
		cell := l.cell(r * 2)
		ink := inkBox(grid, image.Rect(0, cell.Min.Y, cell.Min.X, cell.Max.Y), sheetText)
		if ink.Min.X < sheetGap || ink.Min.X > sheetGap+l.scale { // '1' has a blank first column
			t.Errorf("row %d: label starts at x %d, want %d", r, ink.Min.X, sheetGap)
		}
		if wantW := textWidth(text, l.scale); ink.Dx() > wantW || ink.Dx() < wantW-2*l.scale {
			t.Errorf("row %d: label %q is %d wide, text width %d", r, text, ink.Dx(), wantW)
		}
		if ink.Max.X > cell.Min.X-sheetGap {
			t.Errorf("row %d: label reaches x %d, within a gap of the cell at %d", r, ink.Max.X, cell.Min.X)
		}
		// Glyphs sit on a 7-pixel box; centred on the row means that box is.
		top := cell.Min.Y + (h-glyphHeight*l.scale)/2
		if ink.Min.Y < top || ink.Max.Y > top+glyphHeight*l.scale {
			t.Errorf("row %d: label spans y %d-%d, want within %d-%d", r, ink.Min.Y, ink.Max.Y, top, top+glyphHeight*l.scale)
		}
	}
	for c, text := range columnLabels {
		cell := l.cell(c)
		strip := image.Rect(cell.Min.X, 0, cell.Max.X, cell.Min.Y)
		ink := inkBox(grid, strip, sheetText)
		if ink.Empty() || ink.Min.Y < sheetGap+3*l.scale || ink.Max.Y > cell.Min.Y-2*l.scale {
			t.Errorf("column %d: label ink %v, want in the strip above %v", c, ink, cell)
			continue
		}
		centre, wantC := (ink.Min.X+ink.Max.X)/2, (cell.Min.X+cell.Max.X)/2
		if d := centre - wantC; d < -3 || d > 3 {
			t.Errorf("column %d: label %q centred at %d, column centre %d", c, text, centre, wantC)
		}
	}
	// The corner above the row labels holds nothing.
	if ink := inkBox(grid, image.Rect(0, 0, l.cell(0).Min.X, l.cell(0).Min.Y), sheetText); !ink.Empty() {
		t.Errorf("ink in the corner at %v", ink)
	}
}

// Without labels the grid has no room for them; a short row leaves empty cells;
// a long row label is clipped at two cells; no pictures give an empty image.
func TestGridEdgeCases(t *testing.T) {
	red, green := color.RGBA{255, 0, 0, 255}, color.RGBA{0, 255, 0, 255}
	rows := [][]image.Image{
		{flatFrame(20, 10, red), flatFrame(20, 10, red), flatFrame(20, 10, red)},
		{flatFrame(10, 6, green)},
	}
	g := Grid(rows, nil, []string{"", ""})
	if want := image.Pt(sheetGap+3*(20+sheetGap), sheetGap+2*(10+sheetGap)); g.Rect.Size() != want {
		t.Errorf("unlabelled grid %v, want %v", g.Rect.Size(), want)
	}
	l, _ := layoutGrid(rows, nil, nil)
	cell := l.cell(3) // row 1, column 0: the small picture centred
	if g.RGBAAt(cell.Min.X+5, cell.Min.Y+2) != green || g.RGBAAt(cell.Min.X+4, cell.Min.Y+2) != sheetBackground {
		t.Error("small picture not centred in its cell")
	}
	if ink := inkBox(g, l.cell(4).Union(l.cell(5)), red); !ink.Empty() {
		t.Errorf("a short row's missing cells have a picture at %v", ink)
	}

	long := strings.Repeat("m", 50)
	g = Grid(rows[:1], []string{long}, nil)
	l, _ = layoutGrid(rows[:1], []string{long}, nil)
	if l.left != 2*20+sheetGap || l.top != 0 {
		t.Errorf("long label: left %d, top %d", l.left, l.top)
	}
	if ink := inkBox(g, image.Rect(0, 0, l.cell(0).Min.X, g.Rect.Max.Y), sheetText); ink.Max.X > l.cell(0).Min.X-sheetGap {
		t.Errorf("long label drawn to x %d, past its column", ink.Max.X)
	}
	if ink := inkBox(g, l.cell(0), sheetText); !ink.Empty() {
		t.Errorf("long label ran into the picture at %v", ink)
	}

	if e := Grid(nil, []string{"a"}, []string{"b"}); !e.Rect.Empty() {
		t.Errorf("no pictures: %v", e.Rect)
	}
	if e := Grid([][]image.Image{{}, {}}, nil, nil); !e.Rect.Empty() {
		t.Errorf("empty rows: %v", e.Rect)
	}
}
