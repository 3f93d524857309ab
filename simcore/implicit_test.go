package simcore

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/simcore/bspline"
	"snowtools/simcore/linalg"
)

// firstPiola is P = dPsi/dF for equation (1), written independently of hessian.go:
// 2 mu (F - R) + lambda (J - 1) J F^-T, with J F^-T from the inverse.
func firstPiola(f linalg.Mat3, mu, lambda float64) linalg.Mat3 {
	r, _ := linalg.Polar3(f)
	j := f.Det()
	inv := inverse3(f)
	var p linalg.Mat3
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			p[3*a+b] = 2*mu*(f[3*a+b]-r[3*a+b]) + lambda*(j-1)*j*inv[3*b+a]
		}
	}
	return p
}

func inverse3(a linalg.Mat3) linalg.Mat3 {
	d := a.Det()
	return linalg.Mat3{
		(a[4]*a[8] - a[5]*a[7]) / d, (a[2]*a[7] - a[1]*a[8]) / d, (a[1]*a[5] - a[2]*a[4]) / d,
		(a[5]*a[6] - a[3]*a[8]) / d, (a[0]*a[8] - a[2]*a[6]) / d, (a[2]*a[3] - a[0]*a[5]) / d,
		(a[3]*a[7] - a[4]*a[6]) / d, (a[1]*a[6] - a[0]*a[7]) / d, (a[0]*a[4] - a[1]*a[3]) / d,
	}
}

// randomRotation returns a rotation from a random unit quaternion.
func randomRotation(rng *rand.Rand) linalg.Mat3 {
	q := [4]float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	w, x, y, z := q[0]/n, q[1]/n, q[2]/n, q[3]/n
	return linalg.Mat3{
		1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y),
		2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x),
		2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y),
	}
}

// testGradients returns deformation gradients U diag(s) V^T of the kinds the solver
// meets and the harder ones: near identity, compressed and stretched to the plastic
// limits, and near-inverted (a singular value of 0.05).
func testGradients(rng *rand.Rand) []linalg.Mat3 {
	var fs []linalg.Mat3
	for _, s := range []geom.Vec3{{1, 1, 1}, {1.001, 0.998, 0.9995}, {0.975, 0.98, 1.0075}, {1.2, 0.7, 0.9}, {0.05, 1, 1.1}, {0.3, 0.06, 2}} {
		for k := 0; k < 4; k++ {
			fs = append(fs, randomRotation(rng).Mul(linalg.Diag(s)).Mul(randomRotation(rng)))
		}
	}
	return fs
}

// A particle's stiffness applied to g = h grad du is V^0 dP(dF) F^T / h with
// dF = g F / h: it matches central differences of P along dF (with V^0 = h = 1), for
// the fixed-corotated energy with plain and strongly hardened Lamé parameters and for
// deformations near identity, at the plastic limits, stretched and near-inverted.
func TestStiffnessMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	mu0, lambda0 := DefaultMaterial.Lame()
	worst := 0.0
	for _, harden := range []float64{1, math.Exp(10 * 0.4)} { // xi = 10, J_P = 0.6
		mu, lambda := mu0*harden, lambda0*harden
		for _, f := range testGradients(rng) {
			k := stiffnessOf(&f, mu, lambda, 1, 1)
			for n := 0; n < 5; n++ {
				var g linalg.Mat3
				for i := range g {
					g[i] = rng.NormFloat64()
				}
				got := k.apply(&g)
				const eps = 1e-6
				df := g.Mul(f)
				plus := firstPiola(f.Add(df.Scale(eps)), mu, lambda)
				minus := firstPiola(f.Sub(df.Scale(eps)), mu, lambda)
				want := plus.Sub(minus).Scale(1 / (2 * eps)).Mul(f.T())
				err := got.Sub(want).FrobeniusNorm() / want.FrobeniusNorm()
				worst = max(worst, err)
				if err > 1e-5 {
					t.Fatalf("F = %v, hardening %.0f: dP F^T relative error %.2g", f, harden, err)
				}
			}
		}
	}
	t.Logf("worst relative error of the stiffness against finite differences: %.2g", worst)
}

// The stiffness is symmetric, <g2, S g1> = <g1, S g2> (the solve needs it), and
// diagonalBlocks are the blocks of S that one row of g sees: Q^a_cd = (S e_a e_d^T)_ac.
func TestStiffnessSymmetricWithItsBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	mu, lambda := DefaultMaterial.Lame()
	dot := func(a, b linalg.Mat3) float64 {
		sum := 0.0
		for i := range a {
			sum += a[i] * b[i]
		}
		return sum
	}
	for _, f := range testGradients(rng) {
		k := stiffnessOf(&f, mu, lambda, 1, 1)
		var g1, g2 linalg.Mat3
		for i := range g1 {
			g1[i], g2[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		s1, s2 := k.apply(&g1), k.apply(&g2)
		a, b := dot(g2, s1), dot(g1, s2)
		if rel := math.Abs(a-b) / (math.Abs(a) + math.Abs(b)); rel > 1e-13 {
			t.Errorf("F = %v: <g2, S g1> = %.15g, <g1, S g2> = %.15g", f, a, b)
		}
		q := k.diagonalBlocks()
		for row := 0; row < 3; row++ {
			for d := 0; d < 3; d++ {
				var e linalg.Mat3
				e[3*row+d] = 1
				col := k.apply(&e)
				for c := 0; c < 3; c++ {
					want := col[3*row+c]
					got := q[row][symIndex(c, d)]
					if math.Abs(got-want) > 1e-12*k.scaleOf() {
						t.Errorf("F = %v: Q^%d_%d%d = %.12g, S gives %.12g", f, row, c, d, got, want)
					}
				}
			}
		}
	}
}

// symIndex is the position of entry (c, d) of a symmetric 3x3 stored as xx yy zz xy xz yz.
func symIndex(c, d int) int {
	if c == d {
		return c
	}
	return 3 + c + d - 1
}

// scaleOf is the largest coefficient of k, for tolerances.
func (k *stiffness) scaleOf() float64 {
	m := 0.0
	for _, x := range k.diag {
		m = max(m, math.Abs(float64(x)))
	}
	for _, p := range k.pair {
		for _, x := range p {
			m = max(m, math.Abs(float64(x)))
		}
	}
	return m
}

// hessianScene is a block of snow with random elastic deformations and hardening, its
// grid built for a step (stages 1-3), ready for the Hessian.
func hessianScene(t *testing.T, seed uint64) *Sim {
	t.Helper()
	cfg := DefaultConfig()
	cfg.H = 0.05
	cfg.Integrator = SemiImplicit
	cfg.SolverTolerance, cfg.SolverMaxIterations = 1e-8, 500 // for TestImplicitOperatorSymmetricAndSolved
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{1, 1, 1}}
	s := newBlock(t, cfg, geom.Box{Min: geom.Vec3{0.3, 0.3, 0.3}, Max: geom.Vec3{0.55, 0.5, 0.6}}, DefaultMaterial, geom.Vec3{})
	rng := rand.New(rand.NewPCG(seed, 3))
	fs := testGradients(rng)
	for i := range s.P.X {
		s.P.FE[i] = mat3fOf(fs[rng.IntN(len(fs))])
		s.P.JP[i] = float32(0.6 + 0.6*rng.Float64()) // hardened (0.6) to softened (1.2)
	}
	s.Prepare()
	s.binParticles()
	s.rasterize()
	st := &s.implicit
	st.resizeNodes(len(s.grid.blocks) * blockNodes)
	s.linearise(st.x, st.r, st.invDiag)
	return s
}

// nodeIndex returns the solver's vector index of grid node n.
func (s *Sim) nodeIndex(n [3]int) (int, bool) {
	b, ok := s.grid.index[blockKey(blockOf(n))]
	if !ok {
		return 0, false
	}
	a, bb, c := n[0]&(blockWidth-1), n[1]&(blockWidth-1), n[2]&(blockWidth-1)
	return int(b)*blockNodes + (a*blockWidth+bb)*blockWidth + c, true
}

// elasticForces is equation (5) with the grid nodes moved to x_i + du_i, computed
// directly (B-spline weights from bspline.N, P from firstPiola): f_i = -sum_p V_p^0
// P(F^_Ep) (F_Ep^n)^T grad w_ip with F^_Ep = (I + sum_j du_j grad w_jp^T) F_Ep^n.
func elasticForces(s *Sim, du []geom.Vec3) []geom.Vec3 {
	p := s.P
	f := make([]geom.Vec3, len(du))
	h := s.cfg.H
	for i := range p.X {
		base := stencilBase(p.X[i], s.invH)
		type nodeGrad struct {
			idx  int
			grad geom.Vec3
		}
		var nodes []nodeGrad
		for a := 0; a < 4; a++ {
			for b := 0; b < 4; b++ {
				for c := 0; c < 4; c++ {
					n := [3]int{base[0] + a, base[1] + b, base[2] + c}
					d := [3]float64{}
					for k := range d {
						d[k] = p.X[i][k]/h - float64(n[k])
					}
					g := geom.Vec3{
						bspline.Slope(d[0]) * bspline.N(d[1]) * bspline.N(d[2]) / h,
						bspline.N(d[0]) * bspline.Slope(d[1]) * bspline.N(d[2]) / h,
						bspline.N(d[0]) * bspline.N(d[1]) * bspline.Slope(d[2]) / h,
					}
					idx, ok := s.nodeIndex(n)
					if !ok {
						panic("stencil node outside the grid")
					}
					nodes = append(nodes, nodeGrad{idx, g})
				}
			}
		}
		fe := p.FE[i].mat3()
		grad := linalg.Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}
		for _, n := range nodes {
			grad = grad.Add(linalg.Outer(du[n.idx], n.grad))
		}
		mu, lambda := p.Mat[i].hardened(float64(p.JP[i]))
		stress := firstPiola(grad.Mul(fe), mu, lambda).Mul(fe.T()).Scale(float64(p.Vol0[i]))
		for _, n := range nodes {
			f[n.idx] = f[n.idx].Sub(stress.MulVec(n.grad))
		}
	}
	return f
}

// The Hessian action of equations (7)-(8) is minus the derivative of the grid forces
// along the increment: H du = -(f(eps du) - f(-eps du)) / (2 eps), for random increments
// over particles with random, near-inverted and hardened deformations.
func TestHessianMatchesGridForces(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		s := hessianScene(t, seed)
		rng := rand.New(rand.NewPCG(seed, 9))
		du := make([]geom.Vec3, len(s.implicit.x))
		for i := range du {
			du[i] = geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Scale(s.cfg.H)
		}
		hu := make([]geom.Vec3, len(du))
		s.applyHessian(du, hu)
		const eps = 1e-5
		scaled := func(e float64) []geom.Vec3 {
			v := make([]geom.Vec3, len(du))
			for i := range du {
				v[i] = du[i].Scale(e)
			}
			return v
		}
		plus, minus := elasticForces(s, scaled(eps)), elasticForces(s, scaled(-eps))
		var diff, norm float64
		for i := range hu {
			fd := minus[i].Sub(plus[i]).Scale(1 / (2 * eps))
			diff += fd.Sub(hu[i]).Dot(fd.Sub(hu[i]))
			norm += fd.Dot(fd)
		}
		rel := math.Sqrt(diff / norm)
		t.Logf("seed %d: %d particles, |H du - finite differences| / |finite differences| = %.2g", seed, s.P.Len(), rel)
		if rel > 1e-5 {
			t.Errorf("seed %d: relative error %.2g, want below 1e-5", seed, rel)
		}
	}
}

// The system of (9) is symmetric in the mass inner product, and conjugate residuals
// solve it.
func TestImplicitOperatorSymmetricAndSolved(t *testing.T) {
	s := hessianScene(t, 4)
	st := &s.implicit
	rng := rand.New(rand.NewPCG(4, 4))
	random := func() []geom.Vec3 {
		v := make([]geom.Vec3, len(st.x))
		for i := range v {
			v[i] = geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		}
		return v
	}
	mass := make([]float64, len(st.x))
	for b := range s.grid.blocks {
		for k := range s.grid.blocks[b] {
			mass[b*blockNodes+k] = s.grid.blocks[b][k].mass
		}
	}
	dt := 1e-3
	apply := func(u []geom.Vec3) []geom.Vec3 { // u + dt^2 M^-1 H u
		out := make([]geom.Vec3, len(u))
		s.applyHessian(u, out)
		for i := range out {
			if mass[i] > 0 {
				out[i] = u[i].Add(out[i].Scale(dt * dt / mass[i]))
			} else {
				out[i] = geom.Vec3{}
			}
		}
		return out
	}
	dotM := func(u, v []geom.Vec3) float64 {
		sum := 0.0
		for i := range u {
			sum += mass[i] * u[i].Dot(v[i])
		}
		return sum
	}
	u, v := random(), random()
	uAv, vAu := dotM(u, apply(v)), dotM(v, apply(u))
	if rel := math.Abs(uAv-vAu) / math.Abs(uAv); rel > 1e-10 {
		t.Errorf("<u, A v>_M = %.12g but <v, A u>_M = %.12g (relative %.2g)", uAv, vAu, rel)
	}

	// Solve A x = b through the grid, as a step does.
	b := random()
	for i := range b {
		s.grid.velocities[i/blockNodes][i%blockNodes].v = b[i] // v*, as setRightHandSide leaves it
	}
	if err := s.solveImplicit(dt); err != nil {
		t.Fatal(err)
	}
	iterations, residual := s.LastSolve()
	x := append([]geom.Vec3(nil), st.x...)
	ax := apply(x)
	var rr, bb float64
	for i := range ax {
		if mass[i] > 0 {
			r := b[i].Sub(ax[i])
			rr += mass[i] * r.Dot(r)
			bb += mass[i] * b[i].Dot(b[i])
		}
	}
	t.Logf("conjugate residuals: %d iterations to %.2g (true residual %.2g)", iterations, residual, math.Sqrt(rr/bb))
	if residual > 1e-8 || math.Sqrt(rr/bb) > 1e-7 {
		t.Errorf("solve stopped at residual %.2g after %d iterations (true residual %.2g)", residual, iterations, math.Sqrt(rr/bb))
	}
}

// icySnowball is the stiff scene of the benchmark, small: a ball of icy snow
// (E0 = 1.4e6 Pa, section 5) thrown at the ground.
func icySnowball(t testing.TB, h, radius float64, cfg Config) *Sim {
	cfg.H = h
	cfg.Domain = geom.Box{Min: geom.Vec3{0, 0, 0}, Max: geom.Vec3{6 * radius, 4 * radius, 6 * radius}}
	m := DefaultMaterial
	m.YoungsModulus = 1.4e6
	m.Hardening = 15
	src := ballSource(geom.Vec3{3 * radius, 1.5 * radius, 3 * radius}, radius, m, 1)
	src.Velocity = geom.Vec3{0.5, -3, 0}
	return newSimOf(t, cfg, src)
}

// kineticEnergy returns sum m v^2 / 2.
func kineticEnergy(p *Particles) float64 {
	e := 0.0
	for i, v := range p.V {
		e += 0.5 * float64(p.Mass[i]) * v.Dot(v)
	}
	return e
}

// With beta = 0 the semi-implicit solve returns v* and the run is the explicit one.
func TestBetaZeroIsExplicit(t *testing.T) {
	cfg := DefaultConfig()
	explicit := icySnowball(t, 0.02, 0.1, cfg)
	cfg.Integrator, cfg.Beta = SemiImplicit, 0
	semi := icySnowball(t, 0.02, 0.1, cfg)
	for k := 0; k < 40; k++ {
		dt := explicit.stableDt()
		for _, s := range []*Sim{explicit, semi} {
			if err := s.Step(dt); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range explicit.P.X {
		if explicit.P.X[i] != semi.P.X[i] || explicit.P.V[i] != semi.P.V[i] {
			t.Fatalf("particle %d: explicit at %v moving %v, beta = 0 at %v moving %v",
				i, explicit.P.X[i], explicit.P.V[i], semi.P.X[i], semi.P.V[i])
		}
	}
	if it, _ := semi.LastSolve(); it != 0 {
		t.Errorf("beta = 0 took %d iterations", it)
	}
}

// At dt = 0.5e-3, well beyond the explicit limit of this stiff snow, the explicit update
// blows up and the semi-implicit one (backward Euler) stays finite with bounded energy.
func TestSemiImplicitStableWhereExplicitIsNot(t *testing.T) {
	const dt = 0.5e-3
	cfg := DefaultConfig()
	explicit := icySnowball(t, 0.01, 0.05, cfg)
	t.Logf("explicit stable dt %.3g s; stepping both at %.3g s", explicit.stableDt(), dt)
	cfg.Integrator = SemiImplicit
	semi := icySnowball(t, 0.01, 0.05, cfg)
	e0 := kineticEnergy(semi.P)
	// Kinetic energy can grow only by the work of gravity: m g times the drop.
	bound := e0 + semi.P.totalMass()*9.81*semi.Config().Domain.Size()[1]
	var exploded error
	steps := 100 // 50 ms: the ball reaches the ground after about 16 steps
	if testing.Short() {
		steps = 40
	}
	for k := 0; k < steps; k++ {
		if exploded == nil {
			if err := explicit.Step(dt); err != nil {
				exploded = err
			} else if kineticEnergy(explicit.P) > 10*bound {
				exploded = errKineticEnergy
			}
		}
		if err := semi.Step(dt); err != nil {
			t.Fatalf("semi-implicit step %d: %v", k, err)
		}
		if e := kineticEnergy(semi.P); !(e <= bound) {
			t.Fatalf("semi-implicit step %d: kinetic energy %.3g J above the bound %.3g J", k, e, bound)
		}
	}
	it, res := semi.LastSolve()
	t.Logf("explicit: %v; semi-implicit: %d steps, kinetic energy %.3g J (bound %.3g J), last solve %d iterations to %.1g",
		exploded, steps, kineticEnergy(semi.P), bound, it, res)
	if exploded == nil {
		t.Errorf("the explicit update at dt = %g stayed stable: the scene is not stiff enough to test anything", dt)
	}
}

var errKineticEnergy = errors.New("kinetic energy exploded")

// BenchmarkStiffSnowball is the scene where the semi-implicit integrator pays: a ball
// of icy snow (E0 = 1.4e6 Pa, xi = 15) 10 cm across on a 5 mm grid (33,500 particles)
// thrown at the ground at 3 m/s, simulated for 40 ms (impact at 8 ms). It reports
// simulated seconds per wall second, steps and solver iterations per step, and how the
// end state compares with the explicit run's: the distance between the centroids, in
// cells, and the overlap (intersection over union) of the cells the snow occupies.
// Single particles are no yardstick: the ball shatters, and the explicit run at half
// its time step ends with most particles several cells from where the explicit run put
// them while the shape is the same; that run (explicit-half-dt) measures how much
// "the same" differs. The semi-implicit runs take fixed steps of 0.25 and 0.5 ms, and
// the default control (SemiImplicitCFL, WaveCells). Run with -benchtime 1x; the
// explicit runs take minutes.
func BenchmarkStiffSnowball(b *testing.B) {
	const h, radius, duration = 0.005, 0.05, 0.04
	var reference *Particles
	for _, c := range []struct {
		name string
		in   Integrator
		dt   float64 // 0: the stable step
		cfl  float64 // 0: the integrator's default
	}{
		{"explicit", Explicit, 0, 0},
		{"explicit-half-dt", Explicit, 0, explicitCFL / 2},
		{"semi-implicit-dt=0.25ms", SemiImplicit, 0.25e-3, 0},
		{"semi-implicit-dt=0.5ms", SemiImplicit, 0.5e-3, 0},
		{"semi-implicit-default", SemiImplicit, 0, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			var s *Sim
			var steps int
			for b.Loop() {
				cfg := DefaultConfig()
				cfg.Integrator = c.in
				cfg.CFL = c.cfl
				s = icySnowball(b, h, radius, cfg)
				steps = 0
				for s.Time < duration-1e-12 {
					dt := c.dt
					if dt == 0 {
						dt = s.stableDt()
					}
					dt = min(dt, duration-s.Time)
					if err := s.Step(dt); err != nil {
						b.Fatal(err)
					}
					steps++
				}
			}
			b.ReportMetric(duration*float64(b.N)/b.Elapsed().Seconds(), "sim-s/wall-s")
			b.ReportMetric(float64(steps), "steps")
			b.ReportMetric(float64(s.SolverIterations())/float64(steps), "iterations/step")
			if reference == nil {
				reference = s.P
				return
			}
			b.ReportMetric(centroid(s.P).Sub(centroid(reference)).Norm()/h, "centroid-diff-h")
			b.ReportMetric(occupancyOverlap(s.P, reference, h), "cell-IoU")
		})
	}
}

// occupancyOverlap returns |A & B| / |A | B| for the sets of cells of the given size
// that hold particles of a and of b.
func occupancyOverlap(a, b *Particles, size float64) float64 {
	cells := func(p *Particles) map[[3]int]bool {
		m := make(map[[3]int]bool)
		for _, x := range p.X {
			m[[3]int{int(math.Floor(x[0] / size)), int(math.Floor(x[1] / size)), int(math.Floor(x[2] / size))}] = true
		}
		return m
	}
	ca, cb := cells(a), cells(b)
	both := 0
	for c := range ca {
		if cb[c] {
			both++
		}
	}
	return float64(both) / float64(len(ca)+len(cb)-both)
}

// BenchmarkImplicitStep times semi-implicit steps of the icy snowball at dt = 0.5e-3.
func BenchmarkImplicitStep(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Integrator = SemiImplicit
	s := icySnowball(b, 0.01, 0.05, cfg)
	for k := 0; k < 20; k++ {
		if err := s.Step(0.5e-3); err != nil {
			b.Fatal(err)
		}
	}
	iterations := 0
	for b.Loop() {
		if err := s.Step(0.5e-3); err != nil {
			b.Fatal(err)
		}
		it, _ := s.LastSolve()
		iterations += it
	}
	b.ReportMetric(float64(iterations)/float64(b.N), "iterations/step")
}

// The diagonal that preconditions the solve is that of the Hessian: (H e_ia)_ia for a
// unit increment of component a at node i alone.
func TestHessianDiagonal(t *testing.T) {
	s := hessianScene(t, 5)
	n := len(s.implicit.x)
	u, hu, diag := make([]geom.Vec3, n), make([]geom.Vec3, n), make([]geom.Vec3, n)
	s.linearise(u, hu, diag) // the diagonal does not depend on u
	e, he := make([]geom.Vec3, n), make([]geom.Vec3, n)
	checked := 0
	for i := 0; i < n && checked < 60; i += 7 {
		if s.grid.blocks[i/blockNodes][i%blockNodes].mass == 0 {
			continue
		}
		for a := 0; a < 3; a++ {
			e[i][a] = 1
			s.applyHessian(e, he)
			e[i][a] = 0
			if rel := math.Abs(he[i][a]-diag[i][a]) / math.Abs(he[i][a]); !(rel < 1e-10) {
				t.Errorf("node %d component %d: diagonal %.12g, H e = %.12g", i, a, diag[i][a], he[i][a])
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no node with mass")
	}
}

// BenchmarkHessianAction times one application of the Hessian (the bulk of a
// conjugate-residual iteration) and, for scale, one explicit step, on the icy snowball
// at h = 5 mm (33,500 particles).
func BenchmarkHessianAction(b *testing.B) {
	cfg := DefaultConfig()
	cfg.Integrator = SemiImplicit
	s := icySnowball(b, 0.005, 0.05, cfg)
	if err := s.Step(0.25e-3); err != nil {
		b.Fatal(err)
	}
	b.Run("hessian", func(b *testing.B) {
		st := &s.implicit
		for b.Loop() {
			s.applyHessian(st.x, st.r)
		}
	})
	b.Run("explicit-step", func(b *testing.B) {
		cfg := s.Config()
		cfg.Integrator = Explicit
		e, err := Restore(cfg, s.Snapshot())
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := e.Step(1e-6); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The time step knows the integrator: explicit, CFL h / (v + c); semi-implicit,
// CFL h / v capped at WaveCells h / c; both capped at MaxDt, and CFL 0 taking each
// integrator's default.
func TestStableDtByIntegrator(t *testing.T) {
	s := icySnowball(t, 0.01, 0.05, DefaultConfig())
	if err := s.Step(1e-6); err != nil {
		t.Fatal(err)
	}
	cfg := s.Config()
	v, c, h := s.maxSpeed, s.maxWaveSpeed, cfg.H
	if !(v > 0 && c > v) {
		t.Fatalf("particle speed %g, wave speed %g: the scene should move and be stiff", v, c)
	}
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-12*want }
	if got, want := s.stableDt(), explicitCFL*h/(v+c); !near(got, want) {
		t.Errorf("explicit: dt %g, want %g", got, want)
	}
	cfg.Integrator = SemiImplicit
	for _, c2 := range []struct{ cfl, cells float64 }{{0, 14}, {0.15, 0.5}, {0.9, 1e6}} {
		cfg.CFL, cfg.WaveCells = c2.cfl, c2.cells
		semi, err := Restore(cfg, s.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		cfl := c2.cfl
		if cfl == 0 {
			cfl = SemiImplicitCFL // the semi-implicit default
		}
		want := math.Min(cfg.MaxDt, math.Min(cfl*h/v, c2.cells*h/c))
		if got := semi.stableDt(); !near(got, want) {
			t.Errorf("semi-implicit, cfl %g, wave cells %g: dt %g, want %g", c2.cfl, c2.cells, got, want)
		}
	}
}
