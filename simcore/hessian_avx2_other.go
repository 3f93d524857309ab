//go:build !amd64

package simcore

// Elsewhere than on amd64 the solve runs its Go loops only (useAVX2 is false).

type gradientColumns [3][4]float64

type diagonalCoeffs [6][4]float64

func windowGradientAVX2(first *paddedVec, ker *kernel, out *gradientColumns) { panic("no AVX2") }

func scatterGradientAVX2(first *paddedVec, ker *kernel, m *gradientColumns) { panic("no AVX2") }

func scatterDiagonalAVX2(first *paddedVec, ker *kernel, q *diagonalCoeffs) { panic("no AVX2") }
