package simcore

import (
	"math"
	"snowtools/levelset/geom"
)

// stencil1D returns the first node index of a particle's 4-node stencil along one axis
// (X in cell units) and sets w and dw to the weights N(X - node) of the four nodes and
// their slopes dN/dX. It is the closed form of bspline.N and bspline.Slope at the four
// distances 1+f, f, 1-f, 2-f. (It fills arrays the caller owns rather than returning
// them: returned arrays are copied through the stack several times, and reading those
// copies back stalls on the stores that made them.)
func stencil1D(X float64, w, dw *[4]float64) (base int) {
	fl := math.Floor(X)
	f := X - fl
	g := 1 - f
	w[0] = g * g * g / 6
	w[1] = 0.5*f*f*f - f*f + 2.0/3
	w[2] = 0.5*g*g*g - g*g + 2.0/3
	w[3] = f * f * f / 6
	dw[0] = -0.5 * g * g
	dw[1] = 1.5*f*f - 2*f
	dw[2] = -1.5*g*g + 2*g
	dw[3] = 0.5 * f * f
	return int(fl) - 1
}

// kernel is a particle's 4x4x4 interpolation stencil for one time step: per axis the
// weights and slopes of the four nodes. The 3D weight of node (a, b, c) of the stencil
// is w_ip = W[0][a] W[1][b] W[2][c]; its gradient is (D[0][a] W[1][b] W[2][c], ...)/h.
type kernel struct {
	W, D [3][4]float64
}

// kernelCache stores a kernel between the transfer to the grid and the transfer back
// (section 4.1 uses w_ip^n in stages 1, 2, 3, 7 and 8), so that weights are computed once
// per particle per step. It keeps three weights and slopes per axis in float32 and
// derives the second node's from the partition of unity (weights sum to 1, slopes to 0),
// which makes the expanded kernel sum to 1 to float64 round-off. The second node is the
// one to derive because its weight is never below 1/6: deriving a tail weight, which can
// be almost zero, would give it a large relative error or even a negative value.
// 72 bytes per particle.
type kernelCache [3]cachedAxis

// cachedAxis is one axis of a kernelCache: the weights of nodes 0, 2 and 3, then their
// slopes.
type cachedAxis [6]float32

// set stores the stencil of a particle at x for grid spacing h and returns the index of
// its first node on each axis. The axes are written out, here and in load, so that every
// access has a fixed offset.
func (c *kernelCache) set(x geom.Vec3, invH float64) (base [3]int) {
	return [3]int{c[0].set(x[0] * invH), c[1].set(x[1] * invH), c[2].set(x[2] * invH)}
}

func (a *cachedAxis) set(X float64) (base int) {
	var w, dw [4]float64
	base = stencil1D(X, &w, &dw)
	a[0], a[1], a[2] = float32(w[0]), float32(w[2]), float32(w[3])
	a[3], a[4], a[5] = float32(dw[0]), float32(dw[2]), float32(dw[3])
	return base
}

// load expands the stored stencil.
func (c *kernelCache) load(k *kernel) {
	c[0].load(&k.W[0], &k.D[0])
	c[1].load(&k.W[1], &k.D[1])
	c[2].load(&k.W[2], &k.D[2])
}

func (a *cachedAxis) load(w, d *[4]float64) {
	w[0], w[2], w[3] = float64(a[0]), float64(a[1]), float64(a[2])
	d[0], d[2], d[3] = float64(a[3]), float64(a[4]), float64(a[5])
	w[1] = 1 - w[0] - w[2] - w[3]
	d[1] = -d[0] - d[2] - d[3]
}

// stencilBase returns the first node of a particle's stencil without its weights.
func stencilBase(x geom.Vec3, invH float64) [3]int {
	return [3]int{
		int(math.Floor(x[0]*invH)) - 1,
		int(math.Floor(x[1]*invH)) - 1,
		int(math.Floor(x[2]*invH)) - 1,
	}
}
