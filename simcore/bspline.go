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

// kernelAt sets k to the stencil of a particle at x, on a grid of spacing 1 / invH,
// and returns the index of its first node on each axis. Every transfer of a step
// (section 4.1 uses w_ip^n in stages 1, 2, 3, 7 and 8; the semi-implicit solve in each
// of its iterations) calls it afresh: the particles do not move between them, so each
// gets the same weights every time, and the 72 bytes per particle that a cache of the
// weights took (a quarter of the explicit solver's memory) cost more than the few dozen
// operations of recomputing them, against the transfer's 64-node sums.
//
// Per axis, the weights and slopes of nodes 0, 2 and 3 are rounded to float32 and the
// second node's are derived from the partition of unity (weights sum to 1, slopes to
// 0), which makes the expanded kernel sum to 1 to float64 round-off. The second node is
// the one to derive because its weight is never below 1/6: deriving a tail weight,
// which can be almost zero, would give it a large relative error or even a negative
// value. The rounding is what the cache stored in float32; keeping it keeps every
// result the same bits. The axes are written out so that every access has a fixed
// offset.
func kernelAt(x geom.Vec3, invH float64, k *kernel) (base [3]int) {
	if useAVX2 {
		bx, by, bz := kernelAVX2(&x, invH, k)
		return [3]int{bx, by, bz}
	}
	return kernelAtGo(x, invH, k)
}

// kernelAtGo is kernelAt in Go, which kernelAVX2 does with vectors.
func kernelAtGo(x geom.Vec3, invH float64, k *kernel) (base [3]int) {
	return [3]int{
		axisKernel(x[0]*invH, &k.W[0], &k.D[0]),
		axisKernel(x[1]*invH, &k.W[1], &k.D[1]),
		axisKernel(x[2]*invH, &k.W[2], &k.D[2]),
	}
}

// kernelsAhead gives the kernels of a block's particles, in order, computing each one
// particle ahead of its use: the kernel is a chain of dependent operations (a
// division, roundings), and computed just before the transfer that needs it, the CPU
// waits for it; computed ahead, it runs alongside the previous particle's transfer.
// It keeps the stencils' offsets in the window (stencilOffset) as scalars: arrays
// passed or returned by value are copied through the stack, which stalls.
type kernelsAhead struct {
	ker [2]kernel
	off [2][3]int
}

// next returns the kernel and stencil offset of particle order[n], at x[order[n]],
// after starting on particle order[n+1]'s; n runs from 0 up.
func (ka *kernelsAhead) next(n int, order []int32, x []geom.Vec3, invH float64) (ker *kernel, ox, oy, oz int) {
	if n == 0 {
		ka.compute(0, &x[order[0]], invH)
	}
	if n+1 < len(order) {
		ka.compute((n+1)&1, &x[order[n+1]], invH)
	}
	o := &ka.off[n&1]
	return &ka.ker[n&1], o[0], o[1], o[2]
}

// compute sets kernel slot to the kernel of a particle at x.
func (ka *kernelsAhead) compute(slot int, x *geom.Vec3, invH float64) {
	var bx, by, bz int
	if useAVX2 {
		bx, by, bz = kernelAVX2(x, invH, &ka.ker[slot])
	} else {
		b := kernelAtGo(*x, invH, &ka.ker[slot])
		bx, by, bz = b[0], b[1], b[2]
	}
	const m = blockWidth - 1 // stencilOffset
	o := &ka.off[slot]
	o[0], o[1], o[2] = bx&m, by&m, bz&m
}

// axisKernel is kernelAt along one axis, X in cell units: stencil1D, rounded.
// (The rounding works on copies in registers: rounding w and d in place reads back
// what was just stored through them.)
func axisKernel(X float64, w, d *[4]float64) (base int) {
	var w4, d4 [4]float64
	base = stencil1D(X, &w4, &d4)
	w0, w2, w3 := float64(float32(w4[0])), float64(float32(w4[2])), float64(float32(w4[3]))
	d0, d2, d3 := float64(float32(d4[0])), float64(float32(d4[2])), float64(float32(d4[3]))
	*w = [4]float64{w0, 1 - w0 - w2 - w3, w2, w3}
	*d = [4]float64{d0, -d0 - d2 - d3, d2, d3}
	return base
}

// stencilBase returns the first node of a particle's stencil without its weights.
func stencilBase(x geom.Vec3, invH float64) [3]int {
	return [3]int{
		int(math.Floor(x[0]*invH)) - 1,
		int(math.Floor(x[1]*invH)) - 1,
		int(math.Floor(x[2]*invH)) - 1,
	}
}
