package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"

	"gonum.org/v1/gonum/mat"
)

// svdTol is the accuracy asked of SVD3, in units of ||F||_F (backward error)
// and absolute (orthogonality of U and V).
const svdTol = 1e-13

// svdAxisRotation is the rotation by angle a about coordinate axis k.
func svdAxisRotation(k int, a float64) Mat3 {
	c, s := math.Cos(a), math.Sin(a)
	switch k {
	case 0:
		return Mat3{1, 0, 0, 0, c, -s, 0, s, c}
	case 1:
		return Mat3{c, 0, s, 0, 1, 0, -s, 0, c}
	}
	return Mat3{c, -s, 0, s, c, 0, 0, 0, 1}
}

// svdOrthoErr returns max |(Q^T Q - I)_ij|.
func svdOrthoErr(Q Mat3) float64 {
	e := Q.T().Mul(Q).Sub(Identity3)
	m := 0.0
	for _, x := range e {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// svdErrors measures one decomposition: backward error relative to ||F||_F
// and the orthogonality defects of U and V.
func svdErrors(F, U Mat3, sig geom.Vec3, V Mat3) (rel, oU, oV float64) {
	// Rebuild in a scaled frame so that 1e300-sized inputs do not overflow
	// the check itself.
	s := 1.0
	if n := F.FrobeniusNorm(); n > 0 {
		s = min(1/n, 0x1p1000) // 1/n overflows for subnormal F
	}
	G := U.Mul(Diag(sig.Scale(s))).Mul(V.T()).Sub(F.Scale(s))
	return G.FrobeniusNorm(), svdOrthoErr(U), svdOrthoErr(V)
}

// checkSVD verifies every promise of SVD3's doc comment for one F.
func checkSVD(t *testing.T, name string, F Mat3) (U Mat3, sig geom.Vec3, V Mat3) {
	t.Helper()
	U, sig, V = SVD3(F)
	rel, oU, oV := svdErrors(F, U, sig, V)
	if !(rel <= svdTol && oU <= svdTol && oV <= svdTol) {
		t.Errorf("%s: F=%v\n  sigma=%v backward=%.3g orthoU=%.3g orthoV=%.3g", name, F, sig, rel, oU, oV)
	}
	if dU, dV := U.Det(), V.Det(); math.Abs(dU-1) > svdTol || math.Abs(dV-1) > svdTol {
		t.Errorf("%s: det U = %v, det V = %v", name, dU, dV)
	}
	if !(sig[0] >= sig[1] && sig[1] >= math.Abs(sig[2])) {
		t.Errorf("%s: sigma %v not ordered", name, sig)
	}
	// The sign of sigma[2] must be the sign of det F wherever that sign is
	// meaningful, i.e. |det F| clearly above its rounding error.
	n := F.FrobeniusNorm()
	if n > 0 && n < 1e100 && n > 1e-100 {
		d := F.Scale(1 / n).Det()
		if math.Abs(d) > 1e-12 && (d > 0) != (sig[2] > 0) {
			t.Errorf("%s: det F/|F|^3 = %v but sigma = %v", name, d, sig)
		}
	}
	return U, sig, V
}

// svdRelClose reports |a-b| <= tol |b|.
func svdRelClose(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Abs(b) }

func TestSVD3Special(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	Q := RandomRotation(rng)
	P := RandomRotation(rng)

	t.Run("zero", func(t *testing.T) {
		U, sig, V := checkSVD(t, "zero", Mat3{})
		if sig != (geom.Vec3{}) || U != Identity3 || V != Identity3 {
			t.Errorf("zero: got %v %v %v", U, sig, V)
		}
	})
	t.Run("identity", func(t *testing.T) {
		U, sig, V := checkSVD(t, "identity", Identity3)
		if sig != (geom.Vec3{1, 1, 1}) || U != Identity3 || V != Identity3 {
			t.Errorf("identity: got %v %v %v", U, sig, V)
		}
	})
	t.Run("diagonal", func(t *testing.T) {
		// Every order and sign pattern of three distinct magnitudes, and of
		// repeated ones.
		for _, mags := range []geom.Vec3{{1, 2, 3}, {1, 1, 3}, {2, 2, 2}, {0, 1, 2}, {0, 0, 5}, {1e-12, 1, 1e12}} {
			for perm := 0; perm < 6; perm++ {
				i := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}[perm]
				for signs := 0; signs < 8; signs++ {
					var d geom.Vec3
					for k := 0; k < 3; k++ {
						d[k] = mags[i[k]]
						if signs>>k&1 == 1 {
							d[k] = -d[k]
						}
					}
					name := fmt.Sprintf("diag%v", d)
					_, sig, _ := checkSVD(t, name, Diag(d))
					want := []float64{math.Abs(d[0]), math.Abs(d[1]), math.Abs(d[2])}
					svdSortDesc(want)
					neg := d[0]*d[1]*d[2] < 0
					if sig[0] != want[0] || sig[1] != want[1] || math.Abs(sig[2]) != want[2] || (neg && sig[2] > 0) {
						t.Errorf("%s: sigma %v, want %v (negative: %v)", name, sig, want, neg)
					}
				}
			}
		}
	})
	t.Run("rotations", func(t *testing.T) {
		for i := 0; i < 200; i++ {
			R := RandomRotation(rng)
			if i < 30 {
				R = svdAxisRotation(i%3, float64(i)*0.37-5)
			}
			for _, scale := range []float64{1, -1, 0.5, 7.25, 1e-9, 1e9} {
				F := R.Scale(scale)
				_, sig, _ := checkSVD(t, "scaled rotation", F)
				a := math.Abs(scale)
				if !svdRelClose(sig[0], a, 1e-15) || !svdRelClose(sig[1], a, 1e-15) || !svdRelClose(math.Abs(sig[2]), a, 1e-15) || (scale < 0) != (sig[2] < 0) {
					t.Errorf("rotation*%v: sigma %v", scale, sig)
				}
			}
		}
	})
	t.Run("rank deficient", func(t *testing.T) {
		for i := 0; i < 200; i++ {
			Q := RandomRotation(rng)
			P := RandomRotation(rng)
			a, b := 0.1+rng.Float64(), 0.1+rng.Float64()
			cases := []struct {
				name string
				d    geom.Vec3
			}{
				{"rank2", geom.Vec3{a + b, b, 0}},
				{"rank1", geom.Vec3{a, 0, 0}},
				{"rank2 repeated", geom.Vec3{a, a, 0}},
				{"near singular", geom.Vec3{1, a, 1e-12}},
				{"inverted", geom.Vec3{1 + a, 1, -b}},
			}
			for _, c := range cases {
				F := Q.Mul(Diag(c.d)).Mul(P.T())
				_, sig, _ := checkSVD(t, c.name, F)
				want := []float64{c.d[0], c.d[1], math.Abs(c.d[2])}
				svdSortDesc(want)
				if c.d[2] < 0 {
					want[2] = -want[2]
				}
				for k := 0; k < 3; k++ {
					if math.Abs(sig[k]-want[k]) > 1e-14*want[0] {
						t.Errorf("%s: sigma %v, want %v", c.name, sig, want)
					}
				}
			}
			// Exact outer products, the usual shape of a rank-1 update.
			x := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			y := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			_, sig, _ := checkSVD(t, "outer", Outer(x, y))
			if !svdRelClose(sig[0], x.Norm()*y.Norm(), 1e-14) || sig[1] > 1e-15*sig[0] {
				t.Errorf("outer: sigma %v, want %v", sig, x.Norm()*y.Norm())
			}
			// Matrices with zero rows or columns.
			F := Q.Mul(Diag(geom.Vec3{a, b, 1}))
			F[3*(i%3)+0], F[3*(i%3)+1], F[3*(i%3)+2] = 0, 0, 0
			checkSVD(t, "zero row", F)
			checkSVD(t, "zero column", F.T())
		}
	})
	t.Run("scales", func(t *testing.T) {
		base := Q.Mul(Diag(geom.Vec3{3, 2, -0.5})).Mul(P)
		for e := -300; e <= 300; e += 10 {
			s := math.Pow(10, float64(e))
			_, sig, _ := checkSVD(t, fmt.Sprintf("scale 1e%d", e), base.Scale(s))
			if !svdRelClose(sig[0], 3*s, 1e-14) || !svdRelClose(sig[1], 2*s, 1e-14) || !svdRelClose(sig[2], -0.5*s, 1e-14) {
				t.Errorf("scale 1e%d: sigma %v", e, sig.Scale(1/s))
			}
		}
		// Subnormal entries: only the structure can be checked.
		_, sig, _ := checkSVD(t, "subnormal", Diag(geom.Vec3{4e-320, -2e-320, 1e-320}))
		if sig != (geom.Vec3{4e-320, 2e-320, -1e-320}) {
			t.Errorf("subnormal: sigma %v", sig)
		}
		// Wildly different magnitudes in one matrix.
		checkSVD(t, "mixed", Mat3{1e200, 1, 0, 1e-200, 1, 1e-300, 0, 1e100, 1})
	})
	t.Run("graded", func(t *testing.T) {
		// One-sided Jacobi resolves tiny singular values to relative accuracy
		// when F is graded by columns (F = Q D) or rows (F = D Q). The check
		// is against D itself: rounding Q D or D Q to doubles perturbs each
		// entry relative to its own size, which moves the singular values
		// only relatively (by ~eps cond(Q) = eps).
		D := Diag(geom.Vec3{1, 1e-8, 1e-12})
		worst := 0.0
		for i := 0; i < 200; i++ {
			Q := RandomRotation(rng)
			for _, g := range []struct {
				name string
				F    Mat3
				sign float64
			}{{"Q D", Q.Mul(D), 1}, {"D Q", D.Mul(Q), 1}, {"-Q D", Q.Mul(D).Scale(-1), -1}, {"-D Q^T", D.Mul(Q.T()).Scale(-1), -1}} {
				_, sig, _ := checkSVD(t, g.name, g.F)
				want := geom.Vec3{1, 1e-8, g.sign * 1e-12}
				for k := 0; k < 3; k++ {
					e := math.Abs(sig[k]-want[k]) / math.Abs(want[k])
					worst = math.Max(worst, e)
					if e > 1e-13 {
						t.Errorf("%s: sigma %v, want %v (rel err %.2g)", g.name, sig, want, e)
					}
				}
			}
			// Rotated on both sides, the rounding of F itself perturbs
			// sigma_3 by ~eps sigma_1, so only absolute accuracy can be asked.
			F := Q.Mul(D).Mul(P)
			_, sig, _ := checkSVD(t, "Q D P", F)
			if math.Abs(sig[2]-1e-12) > 1e-15 {
				t.Errorf("Q D P: sigma %v", sig)
			}
		}
		t.Logf("graded diag(1, 1e-8, 1e-12): worst relative error of any sigma %.2g", worst)
	})
	t.Run("non-finite", func(t *testing.T) {
		// No accuracy to ask for, but the iteration must end and say NaN.
		for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
			F := Identity3
			F[5] = x
			_, sig, _ := SVD3(F)
			if !math.IsNaN(sig[0]+sig[1]+sig[2]) && !math.IsInf(sig[0], 0) {
				t.Errorf("F with %v: sigma %v", x, sig)
			}
		}
	})
}

func TestJacobiCosSin(t *testing.T) {
	// The rotation must be orthogonal to rounding, come with its half-angle
	// tangent, and turn by within 0.5% of the exact Jacobi angle
	// theta = atan(g/d)/2, |theta| <= pi/4, over the whole range of d/g and
	// of scales.
	rng := rand.New(rand.NewPCG(5, 8))
	for i := 0; i < 100000; i++ {
		d := rng.NormFloat64() * math.Pow(10, 4*rng.NormFloat64())
		g := rng.NormFloat64() * math.Pow(10, 4*rng.NormFloat64())
		switch i % 50 {
		case 0:
			d = 0
		case 1:
			d, g = d*1e-200, g*1e-200 // the rescaled path
		}
		c, s, w := jacobiCosSin(d, g)
		if e := math.Abs(c*c + s*s - 1); e > 1e-15 {
			t.Fatalf("d=%g g=%g: c^2+s^2-1 = %g", d, g, e)
		}
		if e := math.Abs(s/(1+c) - w); e > 1e-15*math.Abs(w) {
			t.Fatalf("d=%g g=%g: w = %g, tan(theta/2) = %g", d, g, w, s/(1+c))
		}
		exact := 0.5 * math.Atan(g/d)
		if d == 0 {
			exact = math.Copysign(math.Pi/4, g)
		}
		got := math.Atan2(s, c)
		if math.Abs(got-exact) > 0.005*math.Abs(exact) {
			t.Fatalf("d=%g g=%g: angle %g, exact %g", d, g, got, exact)
		}
	}
}

func svdSortDesc(x []float64) {
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			if x[j] > x[i] {
				x[i], x[j] = x[j], x[i]
			}
		}
	}
}

// svdInput names a distribution of test matrices.
type svdInput struct {
	name string
	gen  func(rng *rand.Rand) Mat3
}

// svdInputs are the random distributions: plain random entries, the solver's
// near-identity stretches, strongly graded and ill-conditioned matrices,
// nearly rank deficient ones and inverted ones.
var svdInputs = []svdInput{
	{"uniform", func(rng *rand.Rand) Mat3 {
		var F Mat3
		for i := range F {
			F[i] = 2*rng.Float64() - 1
		}
		return F
	}},
	{"normal", func(rng *rand.Rand) Mat3 {
		var F Mat3
		for i := range F {
			F[i] = rng.NormFloat64()
		}
		return F
	}},
	{"near identity", func(rng *rand.Rand) Mat3 {
		return svdNearIdentity(rng)
	}},
	{"ill conditioned", func(rng *rand.Rand) Mat3 {
		// Singular values log-uniform over 1e-12..1, random signs.
		var d geom.Vec3
		for k := range d {
			d[k] = math.Pow(10, -12*rng.Float64())
			if rng.IntN(2) == 0 {
				d[k] = -d[k]
			}
		}
		return RandomRotation(rng).Mul(Diag(d)).Mul(RandomRotation(rng))
	}},
	{"graded columns", func(rng *rand.Rand) Mat3 {
		var F Mat3
		for c := 0; c < 3; c++ {
			s := math.Pow(10, -10*rng.Float64())
			for r := 0; r < 3; r++ {
				F[3*r+c] = s * rng.NormFloat64()
			}
		}
		return F
	}},
	{"clustered", func(rng *rand.Rand) Mat3 {
		// Two nearly equal singular values: the hard case for convergence.
		a := 1 + 1e-10*rng.NormFloat64()
		return RandomRotation(rng).Mul(Diag(geom.Vec3{1, a, 0.5})).Mul(RandomRotation(rng))
	}},
	{"inverted", func(rng *rand.Rand) Mat3 {
		F := svdNearIdentity(rng)
		F[0], F[3], F[6] = -F[0], -F[3], -F[6]
		return F.Scale(math.Pow(10, 20*rng.Float64()-10))
	}},
	{"near singular", func(rng *rand.Rand) Mat3 {
		// A rank-2 matrix plus an eps-sized perturbation: det F straddles 0.
		F := RandomRotation(rng).Mul(Diag(geom.Vec3{1 + rng.Float64(), rng.Float64(), 0})).Mul(RandomRotation(rng))
		for i := range F {
			F[i] += 1e-15 * rng.NormFloat64()
		}
		return F
	}},
}

// svdNearIdentity returns R diag(1 +- 3%) R', the typical deformation gradient
// the solver decomposes.
func svdNearIdentity(rng *rand.Rand) Mat3 {
	d := geom.Vec3{1 + 0.03*(2*rng.Float64()-1), 1 + 0.03*(2*rng.Float64()-1), 1 + 0.03*(2*rng.Float64()-1)}
	return RandomRotation(rng).Mul(Diag(d)).Mul(RandomRotation(rng))
}

// TestSVD3Random checks 10,000 random matrices and compares the singular
// values with gonum's LAPACK-based SVD.
func TestSVD3Random(t *testing.T) {
	rng := rand.New(rand.NewPCG(20130701, 42))
	var worstRel, worstOrtho, worstVsGonum float64
	var gsvd mat.SVD
	const n = 10000
	for i := 0; i < n; i++ {
		in := svdInputs[i%len(svdInputs)]
		F := in.gen(rng)
		U, sig, V := checkSVD(t, in.name, F)
		rel, oU, oV := svdErrors(F, U, sig, V)
		worstRel = math.Max(worstRel, rel)
		worstOrtho = math.Max(worstOrtho, math.Max(oU, oV))

		if !gsvd.Factorize(mat.NewDense(3, 3, F[:]), mat.SVDNone) {
			t.Fatalf("gonum failed on %v", F)
		}
		want := gsvd.Values(nil)
		got := geom.Vec3{sig[0], sig[1], math.Abs(sig[2])}
		for k := 0; k < 3; k++ {
			e := math.Abs(got[k]-want[k]) / want[0]
			worstVsGonum = math.Max(worstVsGonum, e)
			if e > svdTol {
				t.Errorf("%s: sigma %v, gonum %v", in.name, sig, want)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
	t.Logf("%d matrices: worst backward error %.2g ||F||, worst orthogonality defect %.2g, worst |sigma - gonum| %.2g sigma_1",
		n, worstRel, worstOrtho, worstVsGonum)
}

func TestPolar3(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	check := func(name string, F Mat3) {
		t.Helper()
		R, S := Polar3(F)
		n := F.FrobeniusNorm()
		if n == 0 {
			n = 1
		}
		if e := svdOrthoErr(R); e > svdTol || math.Abs(R.Det()-1) > svdTol {
			t.Errorf("%s: R not a rotation: ortho %.3g det %v", name, e, R.Det())
		}
		if S != S.T() {
			t.Errorf("%s: S not symmetric: %v", name, S)
		}
		if e := R.Mul(S).Sub(F).FrobeniusNorm() / n; e > svdTol {
			t.Errorf("%s: |R S - F| = %.3g |F|", name, e)
		}
		if F.Det() > 1e-12*n*n*n {
			// Positive semidefinite: S = V diag(sigma) V^T, so sigma >= 0,
			// and x^T S x >= 0 (to rounding) in random directions.
			_, sig, _ := SVD3(F)
			if sig[2] < 0 {
				t.Errorf("%s: det F > 0 but sigma %v", name, sig)
			}
			for k := 0; k < 20; k++ {
				x := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
				if q := x.Dot(S.MulVec(x)); q < -1e-14*n*x.Dot(x) {
					t.Errorf("%s: x^T S x = %v < 0", name, q)
				}
			}
		}
	}
	check("zero", Mat3{})
	check("identity", Identity3)
	check("reflection", Diag(geom.Vec3{1, 1, -1}))
	for i := 0; i < 2000; i++ {
		in := svdInputs[i%len(svdInputs)]
		check(in.name, in.gen(rng))
	}
	// Nearly inverted: det F passes through zero. R must stay a rotation and
	// be continuous in F away from the fold.
	Q, P := RandomRotation(rng), RandomRotation(rng)
	for _, d3 := range []float64{1e-3, 1e-9, 1e-15, 0, -1e-15, -1e-9, -1e-3, -0.5} {
		F := Q.Mul(Diag(geom.Vec3{1.2, 0.9, d3})).Mul(P)
		check(fmt.Sprintf("d3=%g", d3), F)
		R, _ := Polar3(F)
		if d := R.Sub(Q.Mul(P)).FrobeniusNorm(); d > 1e-12 {
			t.Errorf("d3=%g: R moved by %.3g from Q P", d3, d)
		}
	}
}

func TestSVD3NoAlloc(t *testing.T) {
	F := Mat3{1, 2, 3, 4, 5, 6, 7, 8, 10}
	var sink float64
	if a := testing.AllocsPerRun(100, func() {
		U, s, V := SVD3(F)
		R, S := Polar3(F)
		sink += U[0] + s[0] + V[0] + R[0] + S[0]
	}); a != 0 {
		t.Errorf("SVD3/Polar3 allocate %v times per call", a)
	}
	_ = sink
}

// svdBenchInputs returns a fixed table of inputs so the benchmark measures the
// decomposition, not the generator.
func svdBenchInputs(gen func(*rand.Rand) Mat3) []Mat3 {
	rng := rand.New(rand.NewPCG(3, 5))
	in := make([]Mat3, 1024)
	for i := range in {
		in[i] = gen(rng)
	}
	return in
}

var svdBenchSink float64

// svdBenchCases are the inputs of the benchmarks: the solver's typical F (a
// stretch within 3% of the identity between two random rotations) and a
// matrix of standard normal entries.
var svdBenchCases = []svdInput{
	{"near-identity", svdNearIdentity},
	{"random", svdInputs[1].gen},
}

func BenchmarkSVD3(b *testing.B) {
	for _, in := range svdBenchCases {
		b.Run(in.name, func(b *testing.B) {
			Fs := svdBenchInputs(in.gen)
			s := 0.0
			for i := 0; b.Loop(); i++ {
				U, sig, V := SVD3(Fs[i&1023])
				s += U[0] + sig[2] + V[0]
			}
			svdBenchSink = s
		})
	}
}

func BenchmarkPolar3(b *testing.B) {
	Fs := svdBenchInputs(svdNearIdentity)
	s := 0.0
	for i := 0; b.Loop(); i++ {
		R, S := Polar3(Fs[i&1023])
		s += R[0] + S[0]
	}
	svdBenchSink = s
}

// BenchmarkGonumSVD is the reference: gonum's general SVD (LAPACK dgesvd
// ported to Go) with U and V, reusing the factorization object.
func BenchmarkGonumSVD(b *testing.B) {
	for _, in := range svdBenchCases {
		b.Run(in.name, func(b *testing.B) {
			Fs := svdBenchInputs(in.gen)
			var svd mat.SVD
			var u, v mat.Dense
			vals := make([]float64, 3)
			A := mat.NewDense(3, 3, nil)
			s := 0.0
			for i := 0; b.Loop(); i++ {
				copy(A.RawMatrix().Data, Fs[i&1023][:])
				svd.Factorize(A, mat.SVDFull)
				svd.UTo(&u)
				svd.VTo(&v)
				s += svd.Values(vals)[2] + u.At(0, 0) + v.At(0, 0)
			}
			svdBenchSink = s
		})
	}
}
