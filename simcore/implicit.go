package simcore

import (
	"fmt"
	"math"

	"snowtools/levelset"
)

// Semi-implicit integration, section 6.1: stage 6 solves
//
//	sum_j (I delta_ij + beta dt^2 m_i^-1 d2Phi/dx_i dx_j) v_j^{n+1} = v_i*      (9)
//
// for the new grid velocities, with v* of equation (10) (stages 4 and 5) on the right.
// The Hessian is taken at the start of the step (hessian.go). The operator is symmetric
// in the mass inner product <u, v>_M = sum_i m_i u_i . v_i, so conjugate residuals
// minimise the residual in that norm; nodes whose velocity the grid collisions changed
// keep it (their degrees of freedom are projected out, section 8).

// Integrator chooses stage 6.
type Integrator int

const (
	Explicit     Integrator = iota // v^{n+1} = v*
	SemiImplicit                   // solve (9) by conjugate residuals
)

func (in Integrator) String() string {
	if in == SemiImplicit {
		return "semi-implicit"
	}
	return "explicit"
}

// implicitState is the scratch of the solve: per particle (in bins order) the
// linearisation, per node the vectors of the conjugate residual method.
type implicitState struct {
	particles          []hessianParticle
	mass               []float64 // m_i; 0 for nodes without mass and for fixed nodes
	fixed              []bool    // set by the grid collisions
	x, r, p, ar, ap, b []Vec3

	iterations int     // of the last solve
	residual   float64 // its final relative residual
}

// LastSolve reports the conjugate-residual iterations and the final relative residual
// ||r||_M / ||v*||_M of the last step's solve (0, 0 for the explicit integrator).
func (s *Sim) LastSolve() (iterations int, residual float64) {
	return s.implicit.iterations, s.implicit.residual
}

// semiImplicit reports whether stage 6 solves equation (9) (with beta = 0 the solve
// returns v* unchanged, as the explicit integrator does).
func (s *Sim) semiImplicit() bool { return s.Integrator == SemiImplicit }

// resizeNodes sizes the per-node arrays of the solve for the current grid.
func (st *implicitState) resizeNodes(nodes int) {
	grow := func(v []Vec3) []Vec3 {
		if cap(v) < nodes {
			return make([]Vec3, nodes)
		}
		return v[:nodes]
	}
	st.x, st.r, st.p, st.ar, st.ap, st.b = grow(st.x), grow(st.r), grow(st.p), grow(st.ar), grow(st.ap), grow(st.b)
	if cap(st.mass) < nodes {
		st.mass, st.fixed = make([]float64, nodes), make([]bool, nodes)
	}
	st.mass, st.fixed = st.mass[:nodes], st.fixed[:nodes]
	clear(st.fixed)
}

// linearise computes every particle's hessianParticle from F_E^n.
func (s *Sim) linearise() {
	p := s.P
	st := &s.implicit
	if cap(st.particles) < p.Len() {
		st.particles = make([]hessianParticle, p.Len())
	}
	st.particles = st.particles[:p.Len()]
	order := s.bins.order
	levelset.ParallelRanges(s.threads, len(order), 1024, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			i := order[k]
			f := p.FE[i].Mat3()
			mu, lambda := p.Mat[i].hardened(float64(p.JP[i]))
			st.particles[k].set(&f, mu, lambda, float64(p.Vol0[i]))
		}
	})
}

// solveImplicit is stage 6 of the semi-implicit integrator: it replaces the grid's v* (left in the nodes'
// mv by updateGrid, with v* - v^n in f) by the solution of (9).
func (s *Sim) solveImplicit(dt float64) error {
	st := &s.implicit
	blocks := s.grid.blocks
	scale := s.Beta * dt * dt
	for b := range blocks {
		for k := range blocks[b] {
			n := &blocks[b][k]
			i := b*blockNodes + k
			st.b[i], st.x[i] = n.mv, n.mv
			st.mass[i] = n.mass
			if st.fixed[i] {
				st.mass[i] = 0 // projected out: never changes, never counts
			}
		}
	}
	// A u = u + beta dt^2 M^-1 H u on the free nodes, 0 on the others.
	apply := func(u, out []Vec3) {
		s.applyHessian(u, out)
		for i := range out {
			if m := st.mass[i]; m > 0 {
				out[i] = u[i].Add(out[i].Scale(scale / m))
			} else {
				out[i] = Vec3{}
			}
		}
	}
	dot := func(u, v []Vec3) float64 {
		sum := 0.0
		for i, m := range st.mass {
			if m > 0 {
				sum += m * (u[i][0]*v[i][0] + u[i][1]*v[i][1] + u[i][2]*v[i][2])
			}
		}
		return sum
	}
	// Conjugate residuals from x = v*: r = b - A x, p = r, Ap = Ar.
	apply(st.x, st.ar)
	for i := range st.r {
		if st.mass[i] > 0 {
			st.r[i] = st.b[i].Sub(st.ar[i])
		} else {
			st.r[i] = Vec3{}
		}
	}
	copy(st.p, st.r)
	apply(st.r, st.ar)
	copy(st.ap, st.ar)
	norm0 := math.Sqrt(dot(st.b, st.b))
	rAr := dot(st.r, st.ar)
	st.iterations, st.residual = 0, 0
	if norm0 > 0 {
		st.residual = math.Sqrt(dot(st.r, st.r)) / norm0
	}
	for st.residual > s.SolverTolerance && st.iterations < s.SolverMaxIterations {
		apAp := dot(st.ap, st.ap)
		if !(apAp > 0) || !(rAr != 0) {
			break
		}
		alpha := rAr / apAp
		for i := range st.x {
			st.x[i] = st.x[i].Add(st.p[i].Scale(alpha))
			st.r[i] = st.r[i].Sub(st.ap[i].Scale(alpha))
		}
		apply(st.r, st.ar)
		rArNew := dot(st.r, st.ar)
		beta := rArNew / rAr
		rAr = rArNew
		for i := range st.p {
			st.p[i] = st.r[i].Add(st.p[i].Scale(beta))
			st.ap[i] = st.ar[i].Add(st.ap[i].Scale(beta))
		}
		st.iterations++
		st.residual = math.Sqrt(dot(st.r, st.r)) / norm0
	}
	if math.IsNaN(st.residual) {
		return fmt.Errorf("step %d at t = %.6g s, dt = %.3g s: %w: the semi-implicit solve diverged", s.Steps, s.Time, dt, ErrUnstable)
	}
	// v^{n+1} into the nodes, and v^{n+1} - v^n = (v* - v^n) + (v^{n+1} - v*).
	for b := range blocks {
		for k := range blocks[b] {
			n := &blocks[b][k]
			i := b*blockNodes + k
			n.f = n.f.Add(st.x[i].Sub(n.mv))
			n.mv = st.x[i]
		}
	}
	return nil
}

// applyHessian sets out to H u: (H u)_i = sum_p V_p^0 dP_p(dF_p) (F_Ep^n)^T grad w_ip with
// dF_p = (sum_j u_j (grad w_jp)^T) F_Ep^n, equations (7) and (8). Like the force scatter
// of stage 3 it runs colour by colour, each particle block gathering u through its
// window and scattering into another.
func (s *Sim) applyHessian(u, out []Vec3) {
	clear(out)
	invH := s.invH
	hp := s.implicit.particles
	for color := range s.bins.colors {
		list := s.bins.colors[color]
		levelset.ParallelFor(s.threads, len(list), func(w, k int) {
			g := &s.bins.blocks[list[k]]
			in, acc := &s.work[w].vecIn, &s.work[w].vecOut
			forWindowRows(g, in, vectorRows(u), func(w, n *[blockWidth]Vec3) { *w = *n })
			var ker kernel
			for k := g.start; k < g.end; k++ {
				s.cache[k].load(&ker)
				ox, oy, oz := stencilOffset(stencilBase(s.P.X[s.bins.order[k]], invH))
				grad := windowGradient(in, &ker, ox, oy, oz) // h grad u
				var df Mat3                                  // (grad u) F
				f := &hp[k].F
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						df[3*i+j] = (grad[3*i]*f[j] + grad[3*i+1]*f[3+j] + grad[3*i+2]*f[6+j]) * invH
					}
				}
				dP := hp[k].stressDiff(&df)
				var gm Mat3 // dP F^T / h, against h grad w
				for i := 0; i < 3; i++ {
					for j := 0; j < 3; j++ {
						gm[3*i+j] = (dP[3*i]*f[3*j] + dP[3*i+1]*f[3*j+1] + dP[3*i+2]*f[3*j+2]) * invH
					}
				}
				scatterGradient(acc, &ker, ox, oy, oz, &gm)
			}
			forWindowRows(g, acc, vectorRows(out), func(w, n *[blockWidth]Vec3) {
				for c := range w {
					n[c] = n[c].Add(w[c])
				}
				*w = [blockWidth]Vec3{}
			})
		})
	}
}

// windowGradient returns h grad u = sum_i u_i (h grad w_ip)^T over a particle's stencil,
// row-major: entry (r, c) is sum_i u_i[r] (h grad w_ip)[c].
func windowGradient(win *window[Vec3], ker *kernel, ox, oy, oz int) Mat3 {
	var g Mat3
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			wab := ker.W[0][a] * ker.W[1][b]
			dab := ker.D[0][a] * ker.W[1][b]
			adb := ker.W[0][a] * ker.D[1][b]
			row := &win[ox+a][oy+b]
			for c := 0; c < 4; c++ {
				u := &row[oz+c]
				gx, gy, gz := dab*ker.W[2][c], adb*ker.W[2][c], wab*ker.D[2][c]
				for r := 0; r < 3; r++ {
					g[3*r] += u[r] * gx
					g[3*r+1] += u[r] * gy
					g[3*r+2] += u[r] * gz
				}
			}
		}
	}
	return g
}

// scatterGradient adds m (h grad w_ip) to every node of a particle's stencil.
func scatterGradient(win *window[Vec3], ker *kernel, ox, oy, oz int, m *Mat3) {
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			wab := ker.W[0][a] * ker.W[1][b]
			dab := ker.D[0][a] * ker.W[1][b]
			adb := ker.W[0][a] * ker.D[1][b]
			row := &win[ox+a][oy+b]
			for c := 0; c < 4; c++ {
				gx, gy, gz := dab*ker.W[2][c], adb*ker.W[2][c], wab*ker.D[2][c]
				n := &row[oz+c]
				for r := 0; r < 3; r++ {
					n[r] += m[3*r]*gx + m[3*r+1]*gy + m[3*r+2]*gz
				}
			}
		}
	}
}
