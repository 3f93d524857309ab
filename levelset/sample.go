package levelset

import (
	"math"

	"snowtools/levelset/geom"
)

// Trilinear sampling of grids at world points, as OpenVDB's BoxSampler does it.
//
// A world point p maps to x = (p - Origin) / h in index space, where voxel centres
// are the integer points. The 2x2x2 voxels around x form its cell: the corners
// base + d for d in {0,1}^3, with base = floor(x). With t = x - base in [0,1]^3,
// the trilinear interpolant is
//
//	f(x) = sum_d w_d(t) v_d,   w_d(t) = prod_a (d_a ? t_a : 1 - t_a),
//
// where v_d is the stored value of corner d, active or not (an inactive voxel
// holds the background or its tile's value, and counts like any other). The
// weights sum to 1, so a constant is reproduced, and f is exact for every linear
// function of x.

// cell is the 2x2x2 block of voxels around a point x of index space: its lower
// corner voxel base = floor(x) and t = x - base, the point's place in the cell.
// Corner n is voxel base + (n>>2, n>>1&1, n&1): the same x-major, z-fastest order
// as LeafOffset.
//
// (The hot paths below fill arrays through pointers, element by element: Go keeps
// small arrays in memory, and copying them whole costs more than the arithmetic.)
type cell struct {
	base Coord
	t    geom.Vec3
}

// locate sets c to the cell of world point p in the index space of t, where
// x = (p - Origin) / h as in Transform.WorldToIndex (written out here, to keep
// the arithmetic in registers). It reports false when base or base+1 would not
// fit a Coord: a point that far out (or NaN) lies outside every grid.
func (c *cell) locate(t *Transform, p *geom.Vec3) bool {
	invH := 1 / t.VoxelSize
	for a := range 3 {
		x := (p[a] - t.Origin[a]) * invH
		f := math.Floor(x)
		if !(f >= math.MinInt32 && f < math.MaxInt32) { // false for NaN too
			return false
		}
		c.base[a] = int32(f)
		// In [0, 1]: it rounds to 1 for x just below an integer, which is the
		// same point to within that rounding.
		c.t[a] = x - f
	}
	return true
}

// weights sets w to the trilinear weights w_n of the corners.
func (c *cell) weights(w *[8]float64) {
	tx, ty, tz := c.t[0], c.t[1], c.t[2]
	sx, sy, sz := 1-tx, 1-ty, 1-tz
	w[0], w[1], w[2], w[3] = sx*sy*sz, sx*sy*tz, sx*ty*sz, sx*ty*tz
	w[4], w[5], w[6], w[7] = tx*sy*sz, tx*sy*tz, tx*ty*sz, tx*ty*tz
}

// gradWeights sets g[a] to the derivatives of the weights along index axis a,
// dw_n/dx_a: the factor of axis a in w_n becomes its derivative, -1 or +1. On a
// cell face, where f has a kink, this is the derivative from the side of base + 1.
func (c *cell) gradWeights(g *[3][8]float64) {
	tx, ty, tz := c.t[0], c.t[1], c.t[2]
	sx, sy, sz := 1-tx, 1-ty, 1-tz
	gx, gy, gz := &g[0], &g[1], &g[2]
	gx[0], gx[1], gx[2], gx[3] = -sy*sz, -sy*tz, -ty*sz, -ty*tz
	gx[4], gx[5], gx[6], gx[7] = sy*sz, sy*tz, ty*sz, ty*tz
	gy[0], gy[1], gy[2], gy[3] = -sx*sz, -sx*tz, sx*sz, sx*tz
	gy[4], gy[5], gy[6], gy[7] = -tx*sz, -tx*tz, tx*sz, tx*tz
	gz[0], gz[1], gz[2], gz[3] = -sx*sy, sx*sy, -sx*ty, sx*ty
	gz[4], gz[5], gz[6], gz[7] = -tx*sy, tx*sy, -tx*ty, tx*ty
}

// corners sets v to the values of the corners of the cell whose lower corner is base.
// A cell with base&7 < 7 on every axis, 343 of the 512 in a leaf, lies in one
// leaf-sized region and costs one cache check. The others reach into the next leaf
// along the axes where base&7 = 7: their corners are read region by region, so
// that the one-entry cache misses once per region (2, 4 or 8), not once per corner.
func (a *Accessor[T]) corners(base Coord, v *[8]T) {
	across := 0 // the bits of the corner numbers whose axis crosses into the next leaf
	for axis := range 3 {
		if base[axis]&7 == 7 {
			across |= 4 >> axis
		}
	}
	if across == 0 {
		a.load(base.AlignDown(LeafLog2))
		if a.leaf == nil {
			for n := range v {
				v[n] = a.value
			}
			return
		}
		// Corner n is at LeafOffset(base) + LeafOffset(cornerStep(n)).
		vs, n0 := &a.leaf.Values, LeafOffset(base)
		v[0], v[1], v[2], v[3] = vs[n0], vs[n0+1], vs[n0+8], vs[n0+9]
		v[4], v[5], v[6], v[7] = vs[n0+64], vs[n0+65], vs[n0+72], vs[n0+73]
		return
	}
	for r := range 8 { // r names a region: its offset along the crossing axes
		if r&^across != 0 {
			continue
		}
		a.load(base.Add(cornerStep(r)).AlignDown(LeafLog2))
		for n := range 8 {
			switch {
			case n&across != r:
			case a.leaf == nil:
				v[n] = a.value
			default:
				v[n] = a.leaf.Values[LeafOffset(base.Add(cornerStep(n)))]
			}
		}
	}
}

// cornerStep returns corner n's offset from the cell's lower corner.
func cornerStep(n int) Coord { return Coord{int32(n >> 2), int32(n >> 1 & 1), int32(n & 1)} }

// stencil sets c to the cell of world point p and v to its corner values. A point
// outside every grid gets a cell whose corners all hold the background, so that it
// samples as the background with a zero gradient.
func (a *Accessor[T]) stencil(p geom.Vec3, c *cell, v *[8]T) {
	if !c.locate(&a.grid.Transform, &p) {
		*c = cell{}
		for n := range v {
			v[n] = a.grid.Background
		}
		return
	}
	a.corners(c.base, v)
}

// FloatSampler interpolates a scalar grid trilinearly at world points. It caches
// the leaf it last read, so nearby samples are cheap; like an Accessor it is for a
// grid that does not change while it is used, and each goroutine needs its own.
type FloatSampler struct{ acc *Accessor[float32] }

// NewFloatSampler returns a sampler of g.
func NewFloatSampler(g *FloatGrid) *FloatSampler { return &FloatSampler{g.Accessor()} }

// Sample returns the trilinear interpolant f at world point p.
func (s *FloatSampler) Sample(p geom.Vec3) float64 {
	var c cell
	var v [8]float32
	var w [8]float64
	s.acc.stencil(p, &c, &v)
	c.weights(&w)
	f := 0.0
	for n := range v {
		f += w[n] * float64(v[n])
	}
	return f
}

// Gradient returns grad f at world point p: the exact gradient of the interpolant,
// in world units (the index-space gradient divided by the voxel size h).
func (s *FloatSampler) Gradient(p geom.Vec3) geom.Vec3 {
	_, g := s.SampleAndGradient(p)
	return g
}

// SampleAndGradient returns f and grad f at world point p, for the price of one
// lookup.
func (s *FloatSampler) SampleAndGradient(p geom.Vec3) (float64, geom.Vec3) {
	var c cell
	var v [8]float32
	var w [8]float64
	var dw [3][8]float64
	s.acc.stencil(p, &c, &v)
	c.weights(&w)
	c.gradWeights(&dw)
	var f, gx, gy, gz float64
	for n := range v {
		vn := float64(v[n])
		f += w[n] * vn
		gx += dw[0][n] * vn
		gy += dw[1][n] * vn
		gz += dw[2][n] * vn
	}
	invH := 1 / s.acc.grid.VoxelSize
	return f, geom.Vec3{gx * invH, gy * invH, gz * invH}
}

// Vec3Sampler interpolates a vector grid trilinearly at world points, each
// component as FloatSampler does. The same caveats apply: an unchanging grid, one
// sampler per goroutine.
type Vec3Sampler struct{ acc *Accessor[Vec3f] }

// NewVec3Sampler returns a sampler of g.
func NewVec3Sampler(g *Vec3Grid) *Vec3Sampler { return &Vec3Sampler{g.Accessor()} }

// Sample returns the trilinear interpolant at world point p.
func (s *Vec3Sampler) Sample(p geom.Vec3) geom.Vec3 {
	var c cell
	var v [8]Vec3f
	var w [8]float64
	s.acc.stencil(p, &c, &v)
	c.weights(&w)
	var fx, fy, fz float64
	for n := range v {
		fx += w[n] * float64(v[n][0])
		fy += w[n] * float64(v[n][1])
		fz += w[n] * float64(v[n][2])
	}
	return geom.Vec3{fx, fy, fz}
}
