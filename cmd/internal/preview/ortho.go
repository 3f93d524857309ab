package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// orthoGrid is a grid of parallel rays along the unit axis w, with the unit
// axes u and v across them: texel (i, j) covers u in u0 + [i, i+1) texel and
// v in v0 + [j, j+1) texel, and a point's depth is its coordinate along w.
// The shadow map looks along the light; the mesh footprint looks up from below.
type orthoGrid struct {
	u, v, w       geom.Vec3
	u0, v0        float64
	texel         float64
	width, height int
}

// newOrthoGrid returns the grid along w, across u and v, that covers the box
// [lo, hi] seen along w with square texels of side texelFor(extent), extent the
// longer side of the box's footprint across the rays.
func newOrthoGrid(u, v, w, lo, hi geom.Vec3, texelFor func(extent float64) float64) orthoGrid {
	uLo, vLo := math.Inf(1), math.Inf(1)
	uHi, vHi := math.Inf(-1), math.Inf(-1)
	for k := range 8 {
		c := boxCorner(lo, hi, k)
		uLo, uHi = min(uLo, c.Dot(u)), max(uHi, c.Dot(u))
		vLo, vHi = min(vLo, c.Dot(v)), max(vHi, c.Dot(v))
	}
	g := orthoGrid{u: u, v: v, w: w, u0: uLo, v0: vLo}
	g.texel = texelFor(max(uHi-uLo, vHi-vLo, 1e-9))
	g.width = int(math.Ceil((uHi-uLo)/g.texel)) + 1
	g.height = int(math.Ceil((vHi-vLo)/g.texel)) + 1
	return g
}

// toMap returns p's texel coordinates and depth along w.
func (g *orthoGrid) toMap(p geom.Vec3) (tu, tv, depth float64) {
	return (p.Dot(g.u) - g.u0) / g.texel, (p.Dot(g.v) - g.v0) / g.texel, p.Dot(g.w)
}
