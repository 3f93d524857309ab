//go:build !amd64

package simcore

import "snowtools/simcore/linalg"

// Elsewhere than on amd64 the solve runs its Go loops only (useAVX2 is false).

func windowGradientAVX2(first *paddedVec, ker *kernel, grad *linalg.Mat3) { panic("no AVX2") }

func scatterGradientAVX2(first *paddedVec, ker *kernel, m *linalg.Mat3) { panic("no AVX2") }

func scatterDiagonalAVX2(first *paddedVec, ker *kernel, q *diagonalCoeffs) { panic("no AVX2") }
