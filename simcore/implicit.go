package simcore

import (
	"fmt"
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Semi-implicit integration, section 6.1: stage 6 solves
//
//	sum_j (I delta_ij + beta dt^2 m_i^-1 d2Phi/dx_i dx_j) v_j^{n+1} = v_i*      (9)
//
// for the new grid velocities, with v* of equation (10) (stages 4 and 5) on the right.
// The Hessian H is taken at the start of the step (hessian.go, hessian_grid.go). The
// operator is symmetric in the mass inner product <u, v>_M = sum_i m_i u_i . v_i; put
// otherwise, (9) times M is K v = M v* with K = M + beta dt^2 H symmetric. Conjugate
// residuals solve it, preconditioned by K's diagonal (Jacobi): nodes that few particles
// reach have little mass against their share of stiffness, and without the scaling
// they set the iteration count. With M as the preconditioner the iterations are
// exactly the paper's unpreconditioned ones in the mass inner product. Nodes whose
// velocity the grid collisions changed keep it: their degrees of freedom are projected
// out (section 8). The solve stops when the residual of (9), in the mass norm, is below
// SolverTolerance times that of v*.

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
// linearisation, per node the vectors of the preconditioned conjugate residual method.
type implicitState struct {
	stiffness []stiffness // the particles' Hessians, in bins order
	mass      []float64   // m_i; 0 for nodes without mass and for fixed nodes
	fixed     []bool      // set by the grid collisions
	invDiag   []geom.Vec3 // the preconditioner: 1 / diag(K), 0 where mass is 0
	// x the solution, r = M v* - K x, z = diag(K)^-1 r, p the search direction, and
	// kz, kp, q = K z, K p, diag(K)^-1 K p.
	x, r, z, p, kz, kp, q []geom.Vec3
	partial               []float64 // per-chunk sums of reduce

	iterations  int     // of the last solve
	residual    float64 // its final relative residual
	total       int64   // iterations of every solve so far
	unconverged int64   // solves that stopped at the iteration cap
}

// LastSolve reports the conjugate-residual iterations and the final relative residual
// ||r||_M / ||v*||_M of the last step's solve (0, 0 for the explicit integrator).
func (s *Sim) LastSolve() (iterations int, residual float64) {
	return s.implicit.iterations, s.implicit.residual
}

// SolverIterations returns the conjugate-residual iterations of every step so far.
func (s *Sim) SolverIterations() int64 { return s.implicit.total }

// UnconvergedSolves returns how many steps so far stopped their solve at
// SolverMaxIterations with the residual still above SolverTolerance.
func (s *Sim) UnconvergedSolves() int64 { return s.implicit.unconverged }

// semiImplicit reports whether stage 6 solves equation (9) (with beta = 0 the solve
// returns v* unchanged, as the explicit integrator does).
func (s *Sim) semiImplicit() bool { return s.Integrator == SemiImplicit }

// resizeNodes sizes the per-node arrays of the solve for the current grid.
func (st *implicitState) resizeNodes(nodes int) {
	grow := func(v []geom.Vec3) []geom.Vec3 {
		if cap(v) < nodes {
			return make([]geom.Vec3, nodes)
		}
		return v[:nodes]
	}
	st.invDiag = grow(st.invDiag)
	st.x, st.r, st.z, st.p = grow(st.x), grow(st.r), grow(st.z), grow(st.p)
	st.kz, st.kp, st.q = grow(st.kz), grow(st.kp), grow(st.q)
	if cap(st.mass) < nodes {
		st.mass, st.fixed = make([]float64, nodes), make([]bool, nodes)
	}
	st.mass, st.fixed = st.mass[:nodes], st.fixed[:nodes]
	clear(st.fixed)
}

// linearise computes every particle's stiffness from F_E^n.
func (s *Sim) linearise() {
	p := s.P
	st := &s.implicit
	if cap(st.stiffness) < p.Len() {
		st.stiffness = make([]stiffness, p.Len())
	}
	st.stiffness = st.stiffness[:p.Len()]
	order := s.bins.order
	parallel.Ranges(s.threads, len(order), 1024, func(_, lo, hi int) {
		var hp hessianParticle
		for k := lo; k < hi; k++ {
			i := order[k]
			f := p.FE[i].mat3()
			mu, lambda := p.Mat[i].hardened(float64(p.JP[i]))
			hp.set(&f, mu, lambda, float64(p.Vol0[i]))
			st.stiffness[k] = stiffnessOf(&hp, s.invH)
		}
	})
}

// solveImplicit is stage 6 of the semi-implicit integrator: it replaces the grid's v*
// (left in the nodes' mv by updateGrid, with v* - v^n in f) by the solution of (9).
func (s *Sim) solveImplicit(dt float64) error {
	st := &s.implicit
	blocks := s.grid.blocks
	scale := s.Beta * dt * dt
	for b := range blocks {
		for k := range blocks[b] {
			n := &blocks[b][k]
			i := b*blockNodes + k
			st.x[i], st.mass[i] = n.mv, n.mass
			if st.fixed[i] {
				st.mass[i] = 0 // projected out: never changes, never counts
			}
		}
	}
	// K u = M u + beta dt^2 H u on the free nodes, 0 on the others.
	applyK := func(u, out []geom.Vec3) {
		s.applyHessian(u, out)
		s.forNodes(func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if m := st.mass[i]; m > 0 {
					out[i] = u[i].Scale(m).Add(out[i].Scale(scale))
				} else {
					out[i] = geom.Vec3{}
				}
			}
		})
	}
	// diag(K) = m_i + beta dt^2 H_ii, where a negative H_ii (a compressed particle's
	// rotational modes can soften) is left out to keep the preconditioner positive.
	s.hessianDiagonal(st.invDiag)
	s.forNodes(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := &st.invDiag[i]
			if m := st.mass[i]; m > 0 {
				for c := range d {
					d[c] = 1 / (m + scale*max(d[c], 0))
				}
			} else {
				*d = geom.Vec3{}
			}
		}
	})
	// From x = v*: r = M v* - K x = -beta dt^2 H v*, z = diag(K)^-1 r, p = z.
	norm0 := math.Sqrt(s.reduce(func(i int) float64 { return st.mass[i] * st.x[i].Dot(st.x[i]) }))
	s.applyHessian(st.x, st.r)
	s.forNodes(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			st.r[i] = st.r[i].Scale(-scale)
			if st.mass[i] == 0 {
				st.r[i] = geom.Vec3{}
			}
			st.z[i] = mulElements(st.invDiag[i], st.r[i])
		}
	})
	copy(st.p, st.z)
	applyK(st.z, st.kz)
	copy(st.kp, st.kz)
	zKz := s.reduce(func(i int) float64 { return st.z[i].Dot(st.kz[i]) })
	st.iterations, st.residual = 0, 0
	// The residual of (9) is M^-1 r; its mass norm is sqrt(r . M^-1 r).
	residual := func(i int) float64 {
		if m := st.mass[i]; m > 0 {
			return st.r[i].Dot(st.r[i]) / m
		}
		return 0
	}
	if norm0 > 0 {
		st.residual = math.Sqrt(s.reduce(residual)) / norm0
	}
	for st.residual > s.SolverTolerance && st.iterations < s.SolverMaxIterations {
		kpq := s.reduce(func(i int) float64 {
			st.q[i] = mulElements(st.invDiag[i], st.kp[i])
			return st.kp[i].Dot(st.q[i])
		})
		if !(kpq > 0) || !(zKz != 0) {
			break
		}
		alpha := zKz / kpq
		rr := s.reduce(func(i int) float64 {
			st.x[i] = st.x[i].Add(st.p[i].Scale(alpha))
			st.r[i] = st.r[i].Sub(st.kp[i].Scale(alpha))
			st.z[i] = st.z[i].Sub(st.q[i].Scale(alpha))
			return residual(i)
		})
		st.iterations++
		st.total++
		st.residual = math.Sqrt(rr) / norm0
		if !(st.residual > s.SolverTolerance) {
			break
		}
		applyK(st.z, st.kz)
		zKzNew := s.reduce(func(i int) float64 { return st.z[i].Dot(st.kz[i]) })
		beta := zKzNew / zKz
		zKz = zKzNew
		s.forNodes(func(lo, hi int) {
			for i := lo; i < hi; i++ {
				st.p[i] = st.z[i].Add(st.p[i].Scale(beta))
				st.kp[i] = st.kz[i].Add(st.kp[i].Scale(beta))
			}
		})
	}
	if math.IsNaN(st.residual) {
		return fmt.Errorf("step %d at t = %.6g s, dt = %.3g s: %w: the semi-implicit solve diverged", s.Steps, s.Time, dt, ErrUnstable)
	}
	if st.residual > s.SolverTolerance {
		st.unconverged++
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

// mulElements returns (a_x b_x, a_y b_y, a_z b_z).
func mulElements(a, b geom.Vec3) geom.Vec3 { return geom.Vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }

// nodeChunk is how many nodes a worker takes at a time in the solve's vector loops.
const nodeChunk = 4096

// forNodes runs body over the grid's nodes in chunks, in parallel.
func (s *Sim) forNodes(body func(lo, hi int)) {
	parallel.Ranges(s.threads, len(s.implicit.mass), nodeChunk, func(_, lo, hi int) { body(lo, hi) })
}

// reduce returns sum_i term(i) over the free nodes (those with mass), calling term
// once per node in parallel. Each chunk's sum is kept apart and the chunks are added
// in order, so the result does not depend on the threads.
func (s *Sim) reduce(term func(i int) float64) float64 {
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
			if st.mass[i] > 0 {
				sum += term(i)
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
