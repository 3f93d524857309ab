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
	partial            []float64 // per-chunk sums of massDot

	iterations int     // of the last solve
	residual   float64 // its final relative residual
	total      int64   // iterations of every solve so far
}

// LastSolve reports the conjugate-residual iterations and the final relative residual
// ||r||_M / ||v*||_M of the last step's solve (0, 0 for the explicit integrator).
func (s *Sim) LastSolve() (iterations int, residual float64) {
	return s.implicit.iterations, s.implicit.residual
}

// SolverIterations returns the conjugate-residual iterations of every step so far.
func (s *Sim) SolverIterations() int64 { return s.implicit.total }

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
		s.forNodes(func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if m := st.mass[i]; m > 0 {
					out[i] = u[i].Add(out[i].Scale(scale / m))
				} else {
					out[i] = Vec3{}
				}
			}
		})
	}
	// Conjugate residuals from x = v*: r = b - A x, p = r, Ap = Ar.
	apply(st.x, st.ar)
	s.forNodes(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if st.mass[i] > 0 {
				st.r[i] = st.b[i].Sub(st.ar[i])
			} else {
				st.r[i] = Vec3{}
			}
		}
	})
	copy(st.p, st.r)
	apply(st.r, st.ar)
	copy(st.ap, st.ar)
	norm0 := math.Sqrt(s.massDot(st.b, st.b))
	rAr := s.massDot(st.r, st.ar)
	st.iterations, st.residual = 0, 0
	if norm0 > 0 {
		st.residual = math.Sqrt(s.massDot(st.r, st.r)) / norm0
	}
	for st.residual > s.SolverTolerance && st.iterations < s.SolverMaxIterations {
		apAp := s.massDot(st.ap, st.ap)
		if !(apAp > 0) || !(rAr != 0) {
			break
		}
		alpha := rAr / apAp
		s.forNodes(func(lo, hi int) {
			for i := lo; i < hi; i++ {
				st.x[i] = st.x[i].Add(st.p[i].Scale(alpha))
				st.r[i] = st.r[i].Sub(st.ap[i].Scale(alpha))
			}
		})
		apply(st.r, st.ar)
		rArNew := s.massDot(st.r, st.ar)
		beta := rArNew / rAr
		rAr = rArNew
		s.forNodes(func(lo, hi int) {
			for i := lo; i < hi; i++ {
				st.p[i] = st.r[i].Add(st.p[i].Scale(beta))
				st.ap[i] = st.ar[i].Add(st.ap[i].Scale(beta))
			}
		})
		st.iterations++
		st.total++
		st.residual = math.Sqrt(s.massDot(st.r, st.r)) / norm0
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

// nodeChunk is how many nodes a worker takes at a time in the solve's vector loops.
const nodeChunk = 4096

// forNodes runs body over the grid's nodes in chunks, in parallel.
func (s *Sim) forNodes(body func(lo, hi int)) {
	levelset.ParallelRanges(s.threads, len(s.implicit.mass), nodeChunk, func(_, lo, hi int) { body(lo, hi) })
}

// massDot returns <u, v>_M = sum_i m_i u_i . v_i over the free nodes. Each chunk's sum
// is kept apart and the chunks are added in order, so the result does not depend on
// the threads.
func (s *Sim) massDot(u, v []Vec3) float64 {
	st := &s.implicit
	n := len(st.mass)
	partial := st.partial[:0]
	for lo := 0; lo < n; lo += nodeChunk {
		partial = append(partial, 0)
	}
	st.partial = partial
	s.forNodes(func(lo, hi int) {
		sum := 0.0
		for i := lo; i < hi; i++ {
			if m := st.mass[i]; m > 0 {
				sum += m * (u[i][0]*v[i][0] + u[i][1]*v[i][1] + u[i][2]*v[i][2])
			}
		}
		partial[lo/nodeChunk] = sum
	})
	total := 0.0
	for _, p := range partial {
		total += p
	}
	return total
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
// row-major: entry (r, c) is sum_i u_i[r] (h grad w_ip)[c]. As in interpolate, the
// tensor-product kernel lets the sums run along z first: for each (a, b) the sums
// Sw = sum_c u Wz[c] and Sd = sum_c u Dz[c], then (h grad w) components
// (Dx Wy Sw, Wx Dy Sw, Wx Wy Sd), written out per component to stay in registers.
func windowGradient(win *window[Vec3], ker *kernel, ox, oy, oz int) Mat3 {
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	var g Mat3
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			row := (*[4]Vec3)(win[ox+a][oy+b][oz:])
			u0, u1, u2, u3 := &row[0], &row[1], &row[2], &row[3]
			swx := u0[0]*w0 + u1[0]*w1 + u2[0]*w2 + u3[0]*w3
			swy := u0[1]*w0 + u1[1]*w1 + u2[1]*w2 + u3[1]*w3
			swz := u0[2]*w0 + u1[2]*w1 + u2[2]*w2 + u3[2]*w3
			sdx := u0[0]*d0 + u1[0]*d1 + u2[0]*d2 + u3[0]*d3
			sdy := u0[1]*d0 + u1[1]*d1 + u2[1]*d2 + u3[1]*d3
			sdz := u0[2]*d0 + u1[2]*d1 + u2[2]*d2 + u3[2]*d3
			dab := ker.D[0][a] * ker.W[1][b]
			adb := ker.W[0][a] * ker.D[1][b]
			wab := ker.W[0][a] * ker.W[1][b]
			g[0] += swx * dab
			g[1] += swx * adb
			g[2] += sdx * wab
			g[3] += swy * dab
			g[4] += swy * adb
			g[5] += sdy * wab
			g[6] += swz * dab
			g[7] += swz * adb
			g[8] += sdz * wab
		}
	}
	return g
}

// scatterGradient adds m (h grad w_ip) to every node of a particle's stencil. With
// h grad w = (Dx Wy Wz, Wx Dy Wz, Wx Wy Dz), node (a, b, c) receives P Wz[c] + Q Dz[c]
// with P = m (Dx Wy, Wx Dy, 0) and Q = m (0, 0, Wx Wy), fixed along z (as in rasterize).
func scatterGradient(win *window[Vec3], ker *kernel, ox, oy, oz int, m *Mat3) {
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	d0, d1, d2, d3 := ker.D[2][0], ker.D[2][1], ker.D[2][2], ker.D[2][3]
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			dab := ker.D[0][a] * ker.W[1][b]
			adb := ker.W[0][a] * ker.D[1][b]
			wab := ker.W[0][a] * ker.W[1][b]
			px, py, pz := m[0]*dab+m[1]*adb, m[3]*dab+m[4]*adb, m[6]*dab+m[7]*adb
			qx, qy, qz := m[2]*wab, m[5]*wab, m[8]*wab
			row := (*[4]Vec3)(win[ox+a][oy+b][oz:])
			n0, n1, n2, n3 := &row[0], &row[1], &row[2], &row[3]
			n0[0] += px*w0 + qx*d0
			n1[0] += px*w1 + qx*d1
			n2[0] += px*w2 + qx*d2
			n3[0] += px*w3 + qx*d3
			n0[1] += py*w0 + qy*d0
			n1[1] += py*w1 + qy*d1
			n2[1] += py*w2 + qy*d2
			n3[1] += py*w3 + qy*d3
			n0[2] += pz*w0 + qz*d0
			n1[2] += pz*w1 + qz*d1
			n2[2] += pz*w2 + qz*d2
			n3[2] += pz*w3 + qz*d3
		}
	}
}
