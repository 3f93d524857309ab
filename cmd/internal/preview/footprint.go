package preview

import (
	"math"
	"runtime"
	"slices"

	"snowtools/levelset/geom"
)

// footprint is where a mesh covers the ground: its triangles seen from below,
// rasterized along +Y into a grid over x and z by the same rasterizer as the
// shadow map, keeping per cell the lowest height at which the mesh crosses the
// vertical line through the cell's centre. It tells the ground plane where to leave the mesh alone, and at what
// height the mesh's edge meets the ground around it.
//
// A cell is inside when it and its eight neighbours are covered, so that the
// ground plane, drawn everywhere else, runs a cell under the mesh's edge and
// leaves no gap there; the covered cells that are not inside make the outline,
// and the median of their heights is the rim height.
type footprint struct {
	orthoGrid
	inside []bool
	rim    float64
}

// maxFootprintSide bounds the grid's longer side in cells.
const maxFootprintSide = 2048

// newFootprint rasterizes m's footprint with cells about the size of its
// triangles: the cell area is twice the mean area of the triangles projected on
// the ground, which for a height field on a grid of square cells, two triangles
// each, is that grid's cell.
func newFootprint(m *Mesh) *footprint {
	projected, count := 0.0, 0
	for _, tri := range m.triangles {
		a, b, c := m.positions[tri[0]], m.positions[tri[1]], m.positions[tri[2]]
		if area := math.Abs((b[0]-a[0])*(c[2]-a[2])-(c[0]-a[0])*(b[2]-a[2])) / 2; area > 0 {
			projected += area
			count++
		}
	}
	cell := math.Inf(1)
	if count > 0 {
		cell = math.Sqrt(2 * projected / float64(count))
	}
	f := &footprint{}
	f.orthoGrid = newOrthoGrid(geom.Vec3{1, 0, 0}, geom.Vec3{0, 0, 1}, geom.Vec3{0, 1, 0}, m.lo, m.hi,
		func(extent float64) float64 { return max(min(cell, extent), extent/maxFootprintSide) })
	buf := newDepthBuffer(f.width, f.height, false)
	rasterizeMesh(m, orthoProjection(&f.orthoGrid), buf, runtime.GOMAXPROCS(0))

	covered := func(i, j int) bool {
		return i >= 0 && j >= 0 && i < f.width && j < f.height && !math.IsInf(float64(buf.depth[j*f.width+i]), 1)
	}
	f.inside = make([]bool, f.width*f.height)
	var outline []float64
	for j := range f.height {
		for i := range f.width {
			if !covered(i, j) {
				continue
			}
			all := true
			for dj := -1; dj <= 1 && all; dj++ {
				for di := -1; di <= 1 && all; di++ {
					all = covered(i+di, j+dj)
				}
			}
			f.inside[j*f.width+i] = all
			if !all {
				outline = append(outline, float64(buf.depth[j*f.width+i]))
			}
		}
	}
	f.rim = m.lo[1]
	if n := len(outline); n > 0 {
		slices.Sort(outline)
		f.rim = (outline[(n-1)/2] + outline[n/2]) / 2
	}
	return f
}

// covers reports whether the mesh covers the ground point (x, z) well inside
// its outline.
func (f *footprint) covers(x, z float64) bool {
	i, j := math.Floor((x-f.u0)/f.texel), math.Floor((z-f.v0)/f.texel)
	if !(i >= 0 && j >= 0 && i < float64(f.width) && j < float64(f.height)) {
		return false
	}
	return f.inside[int(j)*f.width+int(i)]
}
