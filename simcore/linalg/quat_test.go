package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

// The convention: the quaternion (cos 45deg, 0, 0, sin 45deg) is a quarter turn about
// z, which takes x to y (right-handed), and RotationQuat gives it back.
func TestQuatConvention(t *testing.T) {
	s := math.Sqrt(0.5)
	R := QuatMatrix(s, 0, 0, s)
	if got := R.MulVec(geom.Vec3{1, 0, 0}); got.Sub(geom.Vec3{0, 1, 0}).Norm() > 1e-15 {
		t.Errorf("a quarter turn about z takes x to %v, want y", got)
	}
	if w, x, y, z := RotationQuat(R); math.Abs(w-s) > 1e-15 || x != 0 || y != 0 || math.Abs(z-s) > 1e-15 {
		t.Errorf("RotationQuat of a quarter turn about z: (%g, %g, %g, %g)", w, x, y, z)
	}
}

// RotationQuat inverts QuatMatrix to rounding (measured: 4.4e-16 at most) for random
// rotations and for turns about each axis by angles up to pi, which take each of its
// four branches, and it always returns w >= 0 and unit length.
func TestRotationQuatInvertsQuatMatrix(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var qs [][4]float64
	for range 2000 {
		q := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		qs = append(qs, q)
	}
	for axis := range 3 {
		for _, angle := range []float64{0, 1e-9, 0.5, 2, 3, math.Pi - 1e-9, math.Pi} {
			q := [4]float64{math.Cos(angle / 2)}
			q[1+axis] = math.Sin(angle / 2)
			qs = append(qs, q)
		}
	}
	worst := 0.0
	for _, q := range qs {
		n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
		if q[0] < 0 {
			n = -n
		}
		for k := range q {
			q[k] /= n
		}
		w, x, y, z := RotationQuat(QuatMatrix(q[0], q[1], q[2], q[3]))
		if w < 0 {
			t.Fatalf("%v: w = %g < 0", q, w)
		}
		if u := math.Abs(math.Sqrt(w*w+x*x+y*y+z*z) - 1); u > 1e-15 {
			t.Fatalf("%v: |q| - 1 = %g", q, u)
		}
		got := [4]float64{w, x, y, z}
		if q[0] < 1e-12 && got[1]*q[1]+got[2]*q[2]+got[3]*q[3] < 0 { // a half turn: q and -q both have w = 0 to rounding
			got = [4]float64{-w, -x, -y, -z}
		}
		for k := range q {
			worst = max(worst, math.Abs(got[k]-q[k]))
		}
	}
	t.Logf("largest error %.2g", worst)
	if worst > 2e-15 {
		t.Errorf("RotationQuat(QuatMatrix(q)) differs from q by %.2g", worst)
	}
}
