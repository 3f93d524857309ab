package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// Screen-space ambient occlusion darkens the ambient light where nearby
// surfaces in the depth buffer hide part of the sky: in the creases between
// clumps, under overhangs and where snow meets the ground. It is a variant of
// the estimator of McGuire et al., "The Alchemy screen-space ambient
// obscurance algorithm" (HPG 2011): for a surface point C with normal n and N
// taps T_i read from the depth buffer within a world radius R, v_i = T_i - C,
//
//	A = 1 - strength/N sum_i max(0, (v_i.n)/|v_i| - cosBias) max(0, 1 - |v_i|^2/R^2)
//
// that is, each tap occludes by the sine of its elevation above C's tangent
// plane (less a bias against flat-surface self-occlusion), fading out smoothly
// at the radius so distant surfaces in front do not darken.
// Each supersample takes aoTaps taps on a spiral whose rotation depends on the
// supersample's place in its pixel (and the pixel's in a 4x4 pattern), so that
// the resolve's box filter averages aoTaps x supersample^2 directions per
// output pixel: the noise of few taps is filtered away without a blur pass, and
// nothing is random.
const (
	aoTaps     = 4
	aoStrength = 0.9
	aoCosBias  = 0.1
	// aoRadiusInRadii and aoRadiusOfScene set the world radius R of the
	// neighbourhood: the larger of a few particle radii (grain-scale creases) and
	// a small fraction of the scene's size (clump-scale creases and contact).
	aoRadiusInRadii = 6.0
	aoRadiusOfScene = 0.03
	// aoMinPixels skips occlusion when R covers less than this many supersamples:
	// the taps would only see the pixel itself.
	aoMinPixels = 1.5
)

// aoPixelCells is the side of the ordered pattern of spiral rotations over
// output pixels.
const aoPixelCells = 4

// tapOffset is a tap's direction (cos, sin) and distance as a fraction of the
// neighbourhood's radius in pixels.
type tapOffset struct{ cos, sin, reach float64 }

// aoPatterns returns the tap spirals: pattern cell*ss^2 + sub serves
// supersample sub (row-major in its pixel) of output pixels in cell cell of the
// aoPixelCells^2 pattern. Successive taps and patterns step by the golden
// angle, so the taps of a pixel's supersamples and of neighbouring pixels
// interleave evenly; the reach sqrt((i + 0.5)/aoTaps) spreads them evenly over
// the disc's area.
func aoPatterns(ss int) [][aoTaps]tapOffset {
	goldenAngle := math.Pi * (3 - math.Sqrt(5))
	patterns := make([][aoTaps]tapOffset, aoPixelCells*aoPixelCells*ss*ss)
	for p := range patterns {
		for i := range aoTaps {
			angle := goldenAngle * float64(p*aoTaps+i)
			patterns[p][i] = tapOffset{math.Cos(angle), math.Sin(angle), math.Sqrt((float64(i) + 0.5) / aoTaps)}
		}
	}
	return patterns
}

// blockOcclusion returns the ambient light's share (0 to 1, 1 for open sky) at
// the world point p with world normal n seen through the size x size block of
// supersamples at (x, y): the mean of the block's supersamples' estimates.
func (sh *shader) blockOcclusion(x, y, size int, p, n geom.Vec3) float64 {
	v := sh.view
	pc := v.toCamera(p)
	pixels := sh.aoRadius * v.focal / pc[2]
	if pixels < aoMinPixels {
		return 1
	}
	nc := geom.Vec3{n.Dot(v.right), n.Dot(v.up), n.Dot(v.fwd)}
	sum := 0.0
	for j := y; j < y+size; j++ {
		for i := x; i < x+size; i++ {
			sum += sh.occlusion(i, j, pc, nc, pixels)
		}
	}
	return sum / float64(size*size)
}

// occlusion returns the estimate of supersample (x, y) for the camera-space
// point pc with camera-space normal nc, whose neighbourhood is pixels wide.
func (sh *shader) occlusion(x, y int, pc, nc geom.Vec3, pixels float64) float64 {
	v, buf, ss := sh.view, sh.gbuf, sh.supersample
	cell := ((y/ss)%aoPixelCells)*aoPixelCells + (x/ss)%aoPixelCells
	pattern := &sh.aoPatterns[cell*ss*ss+(y%ss)*ss+x%ss]
	r2 := sh.aoRadius * sh.aoRadius
	sum := 0.0
	for _, tap := range pattern {
		tx := int(math.Floor(float64(x) + 0.5 + pixels*tap.reach*tap.cos))
		ty := int(math.Floor(float64(y) + 0.5 + pixels*tap.reach*tap.sin))
		if tx < 0 || ty < 0 || tx >= buf.width || ty >= buf.height {
			continue
		}
		z := float64(buf.depth[ty*buf.width+tx])
		if math.IsInf(z, 1) {
			continue
		}
		w := v.rayCamera(float64(tx)+0.5, float64(ty)+0.5).Scale(z / v.focal).Sub(pc)
		w2 := w.Dot(w)
		if falloff := 1 - w2/r2; falloff > 0 && w2 > 0 {
			sum += max(0, w.Dot(nc)/math.Sqrt(w2)-aoCosBias) * falloff
		}
	}
	return max(0, 1-aoStrength*sum/aoTaps)
}

// contactGrid tells which ground points have a particle within the occlusion
// radius R: a grid of cells of side R + r (r the particle radius) over the
// particles' box in x and z, where a cell is marked when it or one of its eight
// neighbours holds a particle whose sphere comes within R of the ground. A
// ground point in an unmarked cell is open, and skips the occlusion taps; on a
// typical frame that is most of the ground.
type contactGrid struct {
	x0, z0, cell float64
	nx, nz       int
	marked       []bool
}

func newContactGrid(pts Points, lo, hi geom.Vec3, groundY, reach float64) *contactGrid {
	cell := reach + float64(pts.Radius)
	g := &contactGrid{x0: lo[0], z0: lo[2], cell: cell}
	g.nx = int((hi[0]-lo[0])/cell) + 1
	g.nz = int((hi[2]-lo[2])/cell) + 1
	holds := make([]bool, g.nx*g.nz)
	for i := range pts.Len() {
		if p, ok := pts.position(i); ok && p[1]-float64(pts.Radius)-groundY < reach {
			if ix, iz, in := g.cellOf(p); in {
				holds[iz*g.nx+ix] = true
			}
		}
	}
	g.marked = make([]bool, len(holds))
	for iz := range g.nz {
		for ix := range g.nx {
			for jz := max(iz-1, 0); jz <= min(iz+1, g.nz-1); jz++ {
				for jx := max(ix-1, 0); jx <= min(ix+1, g.nx-1); jx++ {
					g.marked[iz*g.nx+ix] = g.marked[iz*g.nx+ix] || holds[jz*g.nx+jx]
				}
			}
		}
	}
	return g
}

// cellOf returns the cell of p and whether p is in the grid.
func (g *contactGrid) cellOf(p geom.Vec3) (ix, iz int, in bool) {
	fx, fz := math.Floor((p[0]-g.x0)/g.cell), math.Floor((p[2]-g.z0)/g.cell)
	if fx < 0 || fz < 0 || fx >= float64(g.nx) || fz >= float64(g.nz) {
		return 0, 0, false
	}
	return int(fx), int(fz), true
}

// near reports whether a particle may be within the occlusion radius of the
// ground point p. Points just outside the grid are near the edge cells.
func (g *contactGrid) near(p geom.Vec3) bool {
	q := geom.Vec3{min(max(p[0], g.x0), g.x0+float64(g.nx)*g.cell-g.cell/2), 0,
		min(max(p[2], g.z0), g.z0+float64(g.nz)*g.cell-g.cell/2)}
	if math.Abs(q[0]-p[0]) >= g.cell || math.Abs(q[2]-p[2]) >= g.cell {
		return false
	}
	ix, iz, in := g.cellOf(q)
	return in && g.marked[iz*g.nx+ix]
}
