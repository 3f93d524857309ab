package heightfield

import "math"

// maxErosionPasses bounds the passes of one step; a step that reaches it reports so
// in Stats.
const maxErosionPasses = 1000

// eroder holds one material's slope tests as height differences per cell of
// horizontal distance: the slope (1), atan((h_ij - h_kl)/d), exceeds theta exactly
// when h_ij - h_kl > tan(theta) d.
type eroder struct {
	in, out, stop float64 // tan of theta_in, theta_out and theta_stop (+Inf: never)
	sigma         float64
}

func newEroder(m Material) eroder {
	return eroder{in: steepness(m.InsideSlope), out: steepness(m.OutsideSlope), stop: steepness(m.Liquidity), sigma: m.Roughness}
}

// limit returns the steepest a slope from a column down to column q may be before
// material moves: theta_in when q is in contact with the object, else theta_out.
func (e eroder) limit(w *window, q int) float64 {
	if w.contact[q] != 0 {
		return e.in
	}
	return e.out
}

// erode runs the paper's erosion on the window: passes, at least one, until no slope
// that erosion moves material down is steeper than theta_stop. It returns the
// number of passes and whether any material moved. A column that lost material
// below its settled top has had that material move: its settled top comes down to
// its height.
func (w *window) erode(e eroder, cell float64) (passes int, moved bool) {
	if math.IsInf(e.in, 1) && math.IsInf(e.out, 1) {
		return 0, false // no slope is ever too steep
	}
	for {
		moved = w.erosionPass(e, cell) || moved
		passes++
		if passes == maxErosionPasses || !w.steep(e, cell) {
			break
		}
	}
	for k, h := range w.h {
		w.settled[k] = min(w.settled[k], h)
	}
	return passes, moved
}

// erosionPass is one pass over every column, all from the same heights (so that the
// result does not depend on the order of the columns). For column ij, its n
// neighbours kl down a slope steeper than their limit give equation (2),
//
//	Delta h_a = sum (h_ij - h_kl) / n,
//
// and sigma Delta h_a leaves column ij, shared equally among those n neighbours. It
// reports whether any material moved.
func (w *window) erosionPass(e eroder, cell float64) bool {
	clear(w.delta)
	moved := false
	var down [8]int
	for k, hk := range w.h {
		i, j := w.column(k)
		n, sum := 0, 0.0
		for _, o := range neighbours {
			q, ok := w.index(i+o.di, j+o.dj)
			if !ok {
				continue
			}
			if diff := hk - w.h[q]; diff > e.limit(w, q)*o.dist*cell {
				down[n] = q
				n++
				sum += diff
			}
		}
		if n == 0 {
			continue
		}
		move := e.sigma * sum / float64(n)
		moved = true
		w.delta[k] -= move
		for _, q := range down[:n] {
			w.delta[q] += move / float64(n)
		}
	}
	for k, d := range w.delta {
		w.h[k] += d
	}
	return moved
}

// steep reports whether some slope is steeper than both its limit and theta_stop.
func (w *window) steep(e eroder, cell float64) bool {
	for k, hk := range w.h {
		i, j := w.column(k)
		for _, o := range neighbours {
			if q, ok := w.index(i+o.di, j+o.dj); ok && hk-w.h[q] > max(e.limit(w, q), e.stop)*o.dist*cell {
				return true
			}
		}
	}
	return false
}
