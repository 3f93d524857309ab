package heightfield

// displace is the paper's displacement: of the material m a collision pushed out of
// a contact column, alpha m moves out and (1 - alpha) m is compressed. The material
// that moves "is equally distributed among the neighbors with lower contour values,
// so that the ground material is redistributed to the closest ring of columns not in
// contact with the rigid object": columns hand it down the contour map, label L to
// label L - 1, from the innermost ring out, and the free columns around the print
// (label 0) keep it. Material of a contact column that no free column in the window
// can be reached from is compressed too. displace returns the compressed material,
// as a sum of heights.
//
// One departure from the paper: only material that has never moved is compressed.
// Loose material (the rim, or what slid back against the object; see Field) moves
// out whole when an object pushes it again. Read literally, each push would compress
// (1 - alpha) of it once more: a ball sinking slowly would flatten its own rim, and a
// foot held in sand would lose its rim at a rate set by the time step.
func (w *window) displace(alpha float64) float64 {
	clear(w.give)
	compressed := 0.0
	for k, p := range w.pushed {
		out := alpha*(p-w.loose[k]) + w.loose[k]
		compressed += p - out
		if w.label[k] == unreached {
			compressed += out
		} else {
			w.give[k] = out
		}
	}
	w.handDown(w.contactsByLabel())
	return compressed
}

// contactsByLabel returns the contact columns that a free column can be reached from
// (label > 0), by label, lowest first: a counting sort.
func (w *window) contactsByLabel() []int {
	top := int32(0)
	for _, l := range w.label {
		if l != unreached {
			top = max(top, l)
		}
	}
	count := make([]int, top+2)
	for _, l := range w.label {
		if l > 0 && l != unreached {
			count[l+1]++
		}
	}
	for l := 1; l < len(count); l++ {
		count[l] += count[l-1]
	}
	order := make([]int, count[len(count)-1])
	for k, l := range w.label {
		if l > 0 && l != unreached {
			order[count[l]] = k
			count[l]++
		}
	}
	return order
}

// handDown moves the material on its way out (give) down the contour map, from the
// innermost ring of order (contactsByLabel) out: each column shares it equally among
// its neighbours of lower label, and the free columns (label 0) keep what they get.
func (w *window) handDown(order []int) {
	var lower [8]int
	for n := len(order) - 1; n >= 0; n-- {
		k := order[n]
		if w.give[k] == 0 {
			continue
		}
		i, j := w.column(k)
		nl := 0
		for _, o := range neighbours {
			if q, ok := w.index(i+o.di, j+o.dj); ok && w.label[q] < w.label[k] {
				lower[nl] = q
				nl++
			}
		}
		share := w.give[k] / float64(nl) // nl >= 1: the label came from a lower neighbour
		for _, q := range lower[:nl] {
			if w.label[q] == 0 {
				w.h[q] += share
			} else {
				w.give[q] += share
			}
		}
		w.give[k] = 0
	}
}
