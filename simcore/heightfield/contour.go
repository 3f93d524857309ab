package heightfield

// unreached labels a contact column with no free column in its window.
const unreached = 1 << 30

// contour computes the paper's contour map: "columns not in contact with the object
// are assigned the value zero. During subsequent iterations, unlabeled columns
// adjacent to labeled columns are assigned a value equal to the value of the lowest
// adjacent column plus one", with eight-way connectivity. The label of a contact
// column is so its chessboard distance to the nearest free column, which two
// raster passes compute exactly: the forward pass takes the neighbours above and to
// the left, the backward pass those below and to the right. Columns outside the
// window do not count.
func (w *window) contour() {
	for k, c := range w.contact {
		if c == 0 {
			w.label[k] = 0
		} else {
			w.label[k] = unreached
		}
	}
	rows := len(w.h) / w.w
	relax := func(k, i, j int, offsets [4][2]int) {
		for _, o := range offsets {
			ii, jj := i+o[0], j+o[1]
			if ii < 0 || ii >= w.w || jj < 0 || jj >= rows {
				continue
			}
			if l := w.label[jj*w.w+ii] + 1; l < w.label[k] {
				w.label[k] = l
			}
		}
	}
	forward := [4][2]int{{-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	backward := [4][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}}
	for j := range rows {
		for i := range w.w {
			if k := j*w.w + i; w.label[k] > 0 {
				relax(k, i, j, forward)
			}
		}
	}
	for j := rows - 1; j >= 0; j-- {
		for i := w.w - 1; i >= 0; i-- {
			if k := j*w.w + i; w.label[k] > 0 {
				relax(k, i, j, backward)
			}
		}
	}
}
