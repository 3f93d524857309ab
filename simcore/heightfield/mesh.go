package heightfield

import (
	"cmp"
	"slices"

	"snowtools/levelset/geom"
)

// Peek returns the height of column (i, j) without creating it: the terrain's
// height if it has not been created.
func (f *Field) Peek(i, j int) float64 {
	if t, ok := f.tiles[keyOf(i, j)]; ok {
		return t.h[slot(i, j)]
	}
	return f.initial(i, j)
}

// Heights returns the heights of the columns in r, row-major (r.I1 - r.I0 a row, j
// increasing), without creating any.
func (f *Field) Heights(r Rect) []float64 {
	out := make([]float64, 0, r.Columns())
	for j := r.J0; j < r.J1; j++ {
		for i := r.I0; i < r.I1; i++ {
			out = append(out, f.Peek(i, j))
		}
	}
	return out
}

// Mesh returns the stored part of the ground as a triangle mesh at full
// resolution: a vertex on top of every stored column, tile by tile (row by row in a
// tile), and two triangles for every cell of the virtual grid whose four corners are
// stored, counter-clockwise seen from above (normals up). It is nil when no cell is
// stored.
func (f *Field) Mesh() *geom.Mesh {
	keys := make([]tileKey, 0, len(f.tiles))
	for k := range f.tiles {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b tileKey) int { return cmp.Or(cmp.Compare(a.j, b.j), cmp.Compare(a.i, b.i)) })
	const perTile = tileSide * tileSide
	base := make(map[tileKey]int32, len(keys))
	m := &geom.Mesh{Positions: make([]geom.Vec3, 0, len(keys)*perTile)}
	for n, k := range keys {
		base[k] = int32(n * perTile)
		t := f.tiles[k]
		i0, j0 := int(k.i)<<tileLog2, int(k.j)<<tileLog2
		for b := range tileSide {
			for a := range tileSide {
				m.Positions = append(m.Positions, geom.Vec3{f.grid.X(i0 + a), t.h[b*tileSide+a], f.grid.Z(j0 + b)})
			}
		}
	}
	vertex := func(i, j int) (int32, bool) {
		b, ok := base[keyOf(i, j)]
		return b + int32(slot(i, j)), ok && f.inExtent(i, j)
	}
	for _, k := range keys {
		i0, j0 := int(k.i)<<tileLog2, int(k.j)<<tileLog2
		for j := j0; j < j0+tileSide; j++ {
			for i := i0; i < i0+tileSide; i++ {
				a, okA := vertex(i, j)
				b, okB := vertex(i+1, j)
				c, okC := vertex(i+1, j+1)
				d, okD := vertex(i, j+1)
				if okA && okB && okC && okD {
					// With x right and z down the page, (a, c, b) and (a, d, c) turn
					// counter-clockwise seen from +y: (c - a) x (b - a) = +y d^2.
					m.Triangles = append(m.Triangles, [3]int32{a, c, b}, [3]int32{a, d, c})
				}
			}
		}
	}
	if len(m.Triangles) == 0 {
		return nil
	}
	return m
}

// GridMesh returns the columns in r as a triangle mesh, created or not: a vertex
// per column, row by row, and two triangles per cell, counter-clockwise seen from
// above. It is nil for a rectangle less than two columns wide or deep.
func (f *Field) GridMesh(r Rect) *geom.Mesh {
	w, d := r.I1-r.I0, r.J1-r.J0
	if w < 2 || d < 2 {
		return nil
	}
	m := &geom.Mesh{Positions: make([]geom.Vec3, 0, w*d), Triangles: make([][3]int32, 0, 2*(w-1)*(d-1))}
	for j := r.J0; j < r.J1; j++ {
		for i := r.I0; i < r.I1; i++ {
			m.Positions = append(m.Positions, geom.Vec3{f.grid.X(i), f.Peek(i, j), f.grid.Z(j)})
		}
	}
	for b := range d - 1 {
		for a := range w - 1 {
			v := int32(b*w + a)
			m.Triangles = append(m.Triangles, [3]int32{v, v + int32(w) + 1, v + 1}, [3]int32{v, v + int32(w), v + int32(w) + 1})
		}
	}
	return m
}
