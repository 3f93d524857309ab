package preview

import "image"

// maxRowLabelCells bounds the row-label column to this many cell widths, so that a
// long label (a whole path) cannot push the pictures off a reasonable page; longer
// labels are clipped.
const maxRowLabelCells = 2

// layoutGrid is Grid's layout: the rows flattened row-major into cells (nil where a
// row is shorter than the longest), a column of row labels as wide as the widest
// label and a strip of column labels above the cells, each only when some label
// is not empty.
func layoutGrid(rows [][]image.Image, rowLabels, columnLabels []string) (sheetLayout, []image.Image) {
	columns := 0
	for _, r := range rows {
		columns = max(columns, len(r))
	}
	cells := make([]image.Image, 0, len(rows)*columns)
	for _, r := range rows {
		cells = append(cells, r...)
		cells = append(cells, make([]image.Image, columns-len(r))...)
	}
	l := layoutCells(cells, columns)
	widest := 0
	for _, text := range rowLabels[:min(len(rowLabels), len(rows))] {
		widest = max(widest, textWidth(text, l.scale))
	}
	if widest > 0 {
		l.left = min(widest, maxRowLabelCells*l.cellW) + sheetGap
	}
	for _, text := range columnLabels[:min(len(columnLabels), columns)] {
		if text != "" {
			l.top = l.lineHeight()
		}
	}
	return l, cells
}

// rowLabel returns the box of row r's label: left of the row, as high as its cells.
func (l sheetLayout) rowLabel(r int) image.Rectangle {
	c := l.cell(r * l.columns)
	return image.Rect(sheetGap, c.Min.Y, l.left, c.Max.Y) // the gap after the text is part of left
}

// columnLabel returns the box of column c's label: the strip right above the
// column's first cell, as wide as the cell.
func (l sheetLayout) columnLabel(c int) image.Rectangle {
	cell := l.cell(c)
	return image.Rect(cell.Min.X, cell.Min.Y-l.top, cell.Max.X, cell.Min.Y)
}

// Grid lays pictures out as a table, for comparing runs side by side as papers
// do: rows[r][c] in row r and column c (say, run r at frame c), on ContactSheet's
// dark sheet with its cells, gaps and font. rowLabels[r] is written left of row r,
// from the left edge and centred on its height; columnLabels[c] centred above
// column c. Missing labels are left blank, and a table without row (or column)
// labels has no room for them. Cells are the size of the largest picture, a
// smaller one centred in its cell and a short row's missing cells left empty.
// Row labels wider than two cells are clipped. No pictures give an empty image.
func Grid(rows [][]image.Image, rowLabels, columnLabels []string) *image.RGBA {
	l, cells := layoutGrid(rows, rowLabels, columnLabels)
	if len(cells) == 0 {
		return image.NewRGBA(image.Rectangle{})
	}
	sheet := l.paint(cells)
	for r, text := range rowLabels[:min(len(rowLabels), l.rows)] {
		l.write(sheet, l.rowLabel(r), text, false)
	}
	for c, text := range columnLabels[:min(len(columnLabels), l.columns)] {
		l.write(sheet, l.columnLabel(c), text, true)
	}
	return sheet
}
