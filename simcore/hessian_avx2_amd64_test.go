package simcore

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"snowtools/simcore/linalg"
)

// randomPaddedWindow fills win with random node vectors, their fourth lane zero as the
// solve's windows hold them.
func randomPaddedWindow(rng *rand.Rand, win *window[paddedVec]) {
	for x := range win {
		for y := range win[x] {
			for z := range win[x][y] {
				win[x][y][z] = paddedVec{randomValue(rng), randomValue(rng), randomValue(rng), 0}
			}
		}
	}
}

// TestHessianAVX2SameBits checks that the AVX2 loops of the solve, the gather of
// h grad u and the scatters of m (h grad w) and of the preconditioner's diagonal, give
// the Go loops' results to the bit (whole windows, the fourth lane included), on
// random kernels, offsets, window contents, matrices and diagonal blocks.
func TestHessianAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	rng := rand.New(rand.NewPCG(5, 25))
	var in, goWin, avxWin window[paddedVec]
	for trial := range 2000 {
		ker, ox, oy, oz := randomKernel(rng)
		if trial%100 == 0 { // what the gather reads and the scatters add to
			randomPaddedWindow(rng, &in)
			randomPaddedWindow(rng, &goWin)
			avxWin = goWin
		}
		gGo, gAVX := windowGradientGo(&in, &ker, ox, oy, oz), windowGradient(&in, &ker, ox, oy, oz)
		if !sameBits(&gGo, &gAVX) {
			t.Fatalf("trial %d: the AVX2 gradient is %v, the Go one %v", trial, gAVX, gGo)
		}
		var m linalg.Mat3
		var q [3][6]float64
		for k := range m {
			m[k] = randomValue(rng)
		}
		for a := range q {
			for e := range q[a] {
				q[a][e] = randomValue(rng)
			}
		}
		scatterGradientGo(&goWin, &ker, ox, oy, oz, &m)
		scatterGradient(&avxWin, &ker, ox, oy, oz, &m)
		if !sameBits(&goWin, &avxWin) {
			t.Fatalf("trial %d: the AVX2 scatter of m (h grad w) differs from the Go one", trial)
		}
		scatterDiagonalGo(&goWin, &ker, ox, oy, oz, &q)
		scatterDiagonal(&avxWin, &ker, ox, oy, oz, &q)
		if !sameBits(&goWin, &avxWin) {
			t.Fatalf("trial %d: the AVX2 scatter of the diagonal differs from the Go one", trial)
		}
	}
}

// sameSliceBits reports whether a and b hold the same bytes (T made of floats only).
func sameSliceBits[T any](a, b []T) bool {
	n := uintptr(len(a)) * unsafe.Sizeof(*new(T))
	return len(a) == len(b) && bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(a))), n),
		unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b))), n))
}

// TestImplicitStepAVX2SameBits runs semi-implicit steps of the icy snowball through its
// impact with and without the AVX2 loops and checks that the particles' positions,
// velocities, F_E and J_P are the same bytes, and that the solves did iterate.
func TestImplicitStepAVX2SameBits(t *testing.T) {
	skipUnlessBitExact(t)
	defer func() { useAVX2 = true }()
	run := func(avx bool) *Sim {
		useAVX2 = avx
		cfg := DefaultConfig()
		cfg.Integrator = SemiImplicit
		s := icySnowball(t, 0.02, 0.1, cfg)
		for range 40 {
			if err := s.Step(0.5e-3); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	a, b := run(false), run(true)
	if a.SolverIterations() == 0 || a.SolverIterations() != b.SolverIterations() {
		t.Fatalf("solver iterations: %d with AVX2, %d without", b.SolverIterations(), a.SolverIterations())
	}
	if !sameSliceBits(a.P.X, b.P.X) || !sameSliceBits(a.P.V, b.P.V) || !sameSliceBits(a.P.FE, b.P.FE) || !sameSliceBits(a.P.JP, b.P.JP) {
		t.Fatal("the particles differ with and without AVX2")
	}
	t.Logf("%d particles, %d steps, %d solver iterations: the same bits", a.P.Len(), a.Steps, a.SolverIterations())
}
