package simcore

import (
	"math"
	"math/rand/v2"
	"snowtools/levelset/geom"
	"snowtools/simcore/bspline"
	"testing"
)

// The kernel's closed form agrees with N(x) and N'(x) of section 4, its weights sum to
// one and its slopes to zero (so that a uniform velocity has zero gradient).
func TestStencilPartitionOfUnity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 10000; n++ {
		X := (rng.Float64() - 0.5) * 1000
		var w, dw [4]float64
		base := stencil1D(X, &w, &dw)
		sw, sd := 0.0, 0.0
		for a := 0; a < 4; a++ {
			d := X - float64(base+a)
			if got, want := w[a], bspline.N(d); math.Abs(got-want) > 1e-12 {
				t.Fatalf("X=%g node %d: weight %g, N(%g) = %g", X, base+a, got, d, want)
			}
			if got, want := dw[a], bspline.Slope(d); math.Abs(got-want) > 1e-12 {
				t.Fatalf("X=%g node %d: slope %g, N'(%g) = %g", X, base+a, got, d, want)
			}
			sw += w[a]
			sd += dw[a]
		}
		if math.Abs(sw-1) > 1e-14 || math.Abs(sd) > 1e-14 {
			t.Fatalf("X=%g: weights sum to %g, slopes to %g", X, sw, sd)
		}
	}
}

// The transfers' kernel keeps the partition of unity in 3D to float64 round-off, and
// its gradients sum to zero.
func TestKernelKeepsPartitionOfUnity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 1000; n++ {
		x := geom.Vec3{rng.Float64() * 10, rng.Float64() * 10, rng.Float64() * 10}
		var q kernel
		kernelAt(x, 1/0.013, &q)
		sum := 0.0
		var grad geom.Vec3
		for a := 0; a < 4; a++ {
			for b := 0; b < 4; b++ {
				for cc := 0; cc < 4; cc++ {
					sum += q.W[0][a] * q.W[1][b] * q.W[2][cc]
					grad[0] += q.D[0][a] * q.W[1][b] * q.W[2][cc]
					grad[1] += q.W[0][a] * q.D[1][b] * q.W[2][cc]
					grad[2] += q.W[0][a] * q.W[1][b] * q.D[2][cc]
				}
			}
		}
		if math.Abs(sum-1) > 1e-14 || grad.Norm() > 1e-14 {
			t.Fatalf("x=%v: weights sum to 1%+g, gradients to %v", x, sum-1, grad)
		}
		for axis := 0; axis < 3; axis++ {
			var w, dw [4]float64
			stencil1D(x[axis]/0.013, &w, &dw)
			for a := 0; a < 4; a++ {
				if math.Abs(q.W[axis][a]-w[a]) > 1e-7 || math.Abs(q.D[axis][a]-dw[a]) > 1e-7 {
					t.Fatalf("rounded kernel differs from the exact one on axis %d: %v vs %v, %v", axis, q, w, dw)
				}
			}
		}
	}
}
