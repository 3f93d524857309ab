package heightfield

import (
	"cmp"
	"slices"
	"unsafe"
)

// Rect is a rectangle of columns: I0 <= i < I1, J0 <= j < J1. Column (i, j) stands
// at x = OriginX + i Cell, z = OriginZ + j Cell.
type Rect struct{ I0, J0, I1, J1 int }

// Empty reports whether r holds no column.
func (r Rect) Empty() bool { return r.I0 >= r.I1 || r.J0 >= r.J1 }

// Columns returns the number of columns in r.
func (r Rect) Columns() int {
	if r.Empty() {
		return 0
	}
	return (r.I1 - r.I0) * (r.J1 - r.J0)
}

// Intersect returns the columns in both r and s.
func (r Rect) Intersect(s Rect) Rect {
	return Rect{max(r.I0, s.I0), max(r.J0, s.J0), min(r.I1, s.I1), min(r.J1, s.J1)}
}

// Union returns the smallest rectangle holding r and s (an empty one adds nothing).
func (r Rect) Union(s Rect) Rect {
	switch {
	case r.Empty():
		return s
	case s.Empty():
		return r
	}
	return Rect{min(r.I0, s.I0), min(r.J0, s.J0), max(r.I1, s.I1), max(r.J1, s.J1)}
}

// Grow returns r with n more columns on every side.
func (r Rect) Grow(n int) Rect { return Rect{r.I0 - n, r.J0 - n, r.I1 + n, r.J1 + n} }

// Field stores the column heights. As in the paper's "Algorithm Complexity" section,
// columns are created on demand, at the terrain's height, the first time the
// simulation reads them, and kept from then on: memory follows the area that was ever
// active, not the size of the virtual grid. Columns are stored in tiles of
// tileSide x tileSide in a hash map keyed by the tile's position, so that a lookup
// costs one map access per tile rather than per column.
//
// Besides its height h, a column keeps its settled top s <= h: the top of the
// material in it that has never moved, the terrain's or as an object compressed it.
// Above s lies loose material (pushed out, eroded, landed spray), which displacement
// moves without compressing it again.
//
// A Field is not safe for concurrent use.
type Field struct {
	grid    Grid
	terrain Terrain
	tiles   map[tileKey]*tile
	highest float64 // no column has ever been higher
}

// Grid places the columns in the world.
type Grid struct {
	Cell             float64 // column spacing d (m)
	OriginX, OriginZ float64 // where column (0, 0) stands
	Extent           Rect    // the virtual grid: no column exists outside it
}

// X returns the x of column i.
func (g Grid) X(i int) float64 { return g.OriginX + float64(i)*g.Cell }

// Z returns the z of column j.
func (g Grid) Z(j int) float64 { return g.OriginZ + float64(j)*g.Cell }

const (
	tileLog2 = 4
	tileSide = 1 << tileLog2
)

type tileKey struct{ i, j int32 } // column (i, j) is in tile (i >> tileLog2, j >> tileLog2)

type tile struct {
	h, s [tileSide * tileSide]float64 // column (i, j) at slot(i, j)
}

// NewField returns an empty field over the grid with the given initial surface.
func NewField(g Grid, t Terrain) *Field {
	return &Field{grid: g, terrain: t, tiles: map[tileKey]*tile{}, highest: -1e300}
}

func keyOf(i, j int) tileKey { return tileKey{int32(i >> tileLog2), int32(j >> tileLog2)} }

func slot(i, j int) int { return (j&(tileSide-1))*tileSide + i&(tileSide-1) }

// tileAt returns the tile holding column (i, j), creating it at the terrain's height.
func (f *Field) tileAt(i, j int) *tile {
	k := keyOf(i, j)
	if t, ok := f.tiles[k]; ok {
		return t
	}
	t := &tile{}
	i0, j0 := int(k.i)<<tileLog2, int(k.j)<<tileLog2
	for b := range tileSide {
		for a := range tileSide {
			h := f.initial(i0+a, j0+b)
			t.h[b*tileSide+a], t.s[b*tileSide+a] = h, h
			f.highest = max(f.highest, h)
		}
	}
	f.tiles[k] = t
	return t
}

// initial returns the terrain height of column (i, j).
func (f *Field) initial(i, j int) float64 { return f.terrain.Height(f.grid.X(i), f.grid.Z(j)) }

// Height returns the height of column (i, j), creating it if need be.
func (f *Field) Height(i, j int) float64 { return f.tileAt(i, j).h[slot(i, j)] }

// Add raises column (i, j) by dh of loose material (lowers it, for dh < 0, down into
// its settled material if need be).
func (f *Field) Add(i, j int, dh float64) {
	t, k := f.tileAt(i, j), slot(i, j)
	t.h[k] += dh
	t.s[k] = min(t.s[k], t.h[k])
	f.highest = max(f.highest, t.h[k])
}

// Highest returns a height that no column has exceeded.
func (f *Field) Highest() float64 { return f.highest }

// load copies the heights and settled tops of the columns in r into h and s
// (row-major, r.I1 - r.I0 per row), creating the columns if need be.
func (f *Field) load(r Rect, h, s []float64) {
	w := r.I1 - r.I0
	for j := r.J0; j < r.J1; j++ {
		for i := r.I0; i < r.I1; i++ {
			t, k := f.tileAt(i, j), slot(i, j)
			h[(j-r.J0)*w+i-r.I0], s[(j-r.J0)*w+i-r.I0] = t.h[k], t.s[k]
		}
	}
}

// store writes back what load read.
func (f *Field) store(r Rect, h, s []float64) {
	w := r.I1 - r.I0
	for j := r.J0; j < r.J1; j++ {
		for i := r.I0; i < r.I1; i++ {
			t, k := f.tileAt(i, j), slot(i, j)
			t.h[k], t.s[k] = h[(j-r.J0)*w+i-r.I0], s[(j-r.J0)*w+i-r.I0]
			f.highest = max(f.highest, t.h[k])
		}
	}
}

// Stored returns the smallest rectangle holding every stored column of the virtual
// grid; it is empty before any column is created.
func (f *Field) Stored() Rect {
	var r Rect
	for k := range f.tiles {
		i0, j0 := int(k.i)<<tileLog2, int(k.j)<<tileLog2
		r = r.Union(Rect{i0, j0, i0 + tileSide, j0 + tileSide})
	}
	return r.Intersect(f.grid.Extent)
}

func (f *Field) inExtent(i, j int) bool {
	e := f.grid.Extent
	return i >= e.I0 && i < e.I1 && j >= e.J0 && j < e.J1
}

// StoredColumns returns the number of columns the field holds (whole tiles).
func (f *Field) StoredColumns() int { return len(f.tiles) * tileSide * tileSide }

// MemoryBytes estimates the heap the field holds: the tiles and the map's entries.
func (f *Field) MemoryBytes() int64 {
	const mapEntry = 48 // key, pointer and bucket overhead, roughly
	return int64(len(f.tiles)) * (int64(unsafe.Sizeof(tile{})) + mapEntry)
}

// Surplus returns the volume of material above the terrain (negative below it):
// sum over the stored columns in the virtual grid of (h - h_terrain) d^2. The terrain
// heights are computed again, so this costs one terrain lookup per stored column.
func (f *Field) Surplus() float64 {
	keys := make([]tileKey, 0, len(f.tiles))
	for k := range f.tiles {
		keys = append(keys, k)
	}
	// A fixed order, so that the sum's rounding does not change from run to run.
	slices.SortFunc(keys, func(a, b tileKey) int { return cmp.Or(cmp.Compare(a.j, b.j), cmp.Compare(a.i, b.i)) })
	sum := 0.0
	for _, k := range keys {
		t := f.tiles[k]
		i0, j0 := int(k.i)<<tileLog2, int(k.j)<<tileLog2
		for b := range tileSide {
			for a := range tileSide {
				if f.inExtent(i0+a, j0+b) {
					sum += t.h[b*tileSide+a] - f.initial(i0+a, j0+b)
				}
			}
		}
	}
	return sum * f.grid.Cell * f.grid.Cell
}
