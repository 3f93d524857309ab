package simcore

import (
	"unsafe"

	"snowtools/simcore/linalg"
)

// The semi-implicit solve's per-particle loops in AVX2 (hessian_avx2_amd64.s), used
// when useAVX2 says the CPU has it (transfer_avx2_amd64.go): the gather of h grad u
// (windowGradient) and the scatter of m (h grad w) (scatterGradient), which run once
// per particle in every conjugate-residual iteration, and the scatter of the
// preconditioner's diagonal (scatterDiagonal) in the setup. As in the transfers, each
// vector lane does the very operations, in the very order, of the Go loop it replaces,
// with no fused multiply-add, so both give the same bits (TestHessianAVX2SameBits).

// The layout that hessian_avx2_amd64.s assumes besides transfer_avx2_amd64.go's (an
// 8x8x8 window, the kernel's D at 96): a paddedVec is 32 bytes, so a row of the window
// along z is 256 bytes and a plane 2048, and a linalg.Mat3 is nine float64 in a row,
// 72 bytes, whose rows it reads and writes at 0, 24 and 48. The assembly has no bounds
// checks: it reaches 4x4x4 nodes from the stencil's first node, which the callers pass
// at offsets masked to blockWidth-1 = 3, so that 3 + 3 < windowWidth keeps every access
// inside the window.
type (
	_ [unsafe.Sizeof(paddedVec{}) - 32]byte
	_ [32 - unsafe.Sizeof(paddedVec{})]byte
	_ [unsafe.Sizeof(linalg.Mat3{}) - 72]byte
	_ [72 - unsafe.Sizeof(linalg.Mat3{})]byte
)

// windowGradientAVX2 is windowGradientGo's loop over the stencil: first is the
// stencil's first node in the window; it sets grad to h grad u.
//
//go:noescape
func windowGradientAVX2(first *paddedVec, ker *kernel, grad *linalg.Mat3)

// scatterGradientAVX2 is scatterGradientGo's loop over the stencil.
//
//go:noescape
func scatterGradientAVX2(first *paddedVec, ker *kernel, m *linalg.Mat3)

// scatterDiagonalAVX2 is scatterDiagonalGo's loop over the stencil.
//
//go:noescape
func scatterDiagonalAVX2(first *paddedVec, ker *kernel, q *diagonalCoeffs)
