package heightfield

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// A window is one rectangle of active columns, copied out of the field for a step
// (the "active area" of the paper's section "Algorithm Complexity": an enlarged
// bounding box of the objects, projected onto the ground). Collision, the contour
// map, displacement and erosion work on its dense arrays; windows never share a
// column, so they can run at the same time. Arrays are row-major, w columns a row.
type window struct {
	r Rect
	w int

	h       []float64 // column heights
	settled []float64 // the top of the material that has never moved (see Field)
	contact []int32   // 0: free; c+1: in contact with collider c
	surface []float64 // contact columns: the height of the object's underside
	pushed  []float64 // contact columns: how far the collision pushed the column down
	loose   []float64 // contact columns: the part of pushed that had moved before
	label   []int32   // the contour map
	give    []float64 // displacement: material on its way out, as height
	delta   []float64 // erosion: one pass's change of height

	colliders []boxed // the colliders whose box reaches into the window
}

// boxed is a collider with its box at the step's time (unbounded: the whole extent).
type boxed struct {
	index int // in Config.Colliders
	c     collider.Collider
	box   geom.Box
}

func newWindow(r Rect) *window {
	n := r.Columns()
	return &window{r: r, w: r.I1 - r.I0,
		h: make([]float64, n), settled: make([]float64, n), contact: make([]int32, n), surface: make([]float64, n),
		pushed: make([]float64, n), loose: make([]float64, n), label: make([]int32, n), give: make([]float64, n), delta: make([]float64, n)}
}

// column returns the grid position of array index k.
func (w *window) column(k int) (i, j int) { return w.r.I0 + k%w.w, w.r.J0 + k/w.w }

// index returns the array index of column (i, j), and false outside the window.
func (w *window) index(i, j int) (int, bool) {
	if i < w.r.I0 || i >= w.r.I1 || j < w.r.J0 || j >= w.r.J1 {
		return 0, false
	}
	return (j-w.r.J0)*w.w + i - w.r.I0, true
}

// neighbours are the eight-way connected offsets, each with its distance in cells.
var neighbours = [8]struct {
	di, dj int
	dist   float64
}{
	{-1, -1, math.Sqrt2}, {0, -1, 1}, {1, -1, math.Sqrt2},
	{-1, 0, 1}, {1, 0, 1},
	{-1, 1, math.Sqrt2}, {0, 1, 1}, {1, 1, math.Sqrt2},
}
