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
	// Auto takes Explicit or SemiImplicit afresh for every Advance (every frame):
	// the one that the step limits make cheaper (integrator_auto.go).
	Auto
)

func (in Integrator) String() string {
	switch in {
	case SemiImplicit:
		return "semi-implicit"
	case Auto:
		return "auto"
	}
	return "explicit"
}

// implicitState is the scratch of the solve: per particle (in bins order) the
// linearisation (96 bytes: hessian.go), per node which nodes the grid collisions fixed
// and the vectors of the preconditioned conjugate residual method. What the grid update
// leaves for the solve, v^n and v* of each node, waits in the grid's velocity arrays,
// which the solve fills only at its end (setRightHandSide, storeVelocities): 48 bytes a
// node fewer than arrays of their own.
type implicitState struct {
	stiffness []stiffness // the particles' Hessians, in bins order
	fixed     []bool      // the nodes whose velocity the grid collisions changed
	mass      []float64   // m_i; 0 for nodes without mass and for fixed nodes
	invDiag   []geom.Vec3 // the preconditioner: 1 / diag(K), 0 where mass is 0
	// x the solution, r = M v* - K x, z = diag(K)^-1 r, p the search direction, and
	// kz, kp = K z, K p (diag(K)^-1 K p is formed where it is needed, not kept).
	x, r, z, p, kz, kp []geom.Vec3
	partial            []float64           // per-chunk sums of reduce
	diagWindows        []window[paddedVec] // per worker: linearise's scatter of diag(H)

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
func (s *Sim) semiImplicit() bool { return s.integrator == SemiImplicit }

// resizeNodes sizes the per-node arrays of the solve for the current grid, with no
// node fixed until the grid update sets those of the nodes with mass.
func (st *implicitState) resizeNodes(nodes int) {
	st.x, st.r, st.z, st.p = resizeScratch(st.x, nodes), resizeScratch(st.r, nodes), resizeScratch(st.z, nodes), resizeScratch(st.p, nodes)
	st.kz, st.kp, st.invDiag = resizeScratch(st.kz, nodes), resizeScratch(st.kp, nodes), resizeScratch(st.invDiag, nodes)
	st.mass, st.fixed = resizeScratch(st.mass, nodes), resizeScratch(st.fixed, nodes)
	clear(st.fixed)
}

// setRightHandSide records what stages 4 and 5 give node i, whose grid velocity is
// vel: v^n, and v* after the grid collisions, the right-hand side of (9), held in vel
// until storeVelocities replaces them (a node without mass keeps the zeros that the
// grid update gives it); fixed marks a node whose velocity the collisions changed,
// whose degrees of freedom the solve projects out (section 8).
func (st *implicitState) setRightHandSide(vel *nodeVelocity, i int, vn, vStar geom.Vec3, fixed bool) {
	vel.v, vel.dv, st.fixed[i] = vStar, vn, fixed
}

// solveImplicit is stage 6 of the semi-implicit integrator: it solves (9), with the
// Hessian at F_E^n, for v^{n+1} from the v* that the grid update left
// (setRightHandSide), and stores v^{n+1} and v^{n+1} - v^n in the grid for the
// transfer back.
func (s *Sim) solveImplicit(dt float64) error {
	st := &s.implicit
	scale := s.cfg.Beta * dt * dt
	s.loadSystem()
	s.linearise(st.x, st.r, st.invDiag) // the stiffness, r = H v* and diag(H): one pass
	s.setPreconditioner(scale)
	zKz, norm0 := s.startSolve(scale)
	s.conjugateResiduals(scale, zKz, norm0)
	if math.IsNaN(st.residual) {
		return fmt.Errorf("step %d at t = %.6g s, dt = %.3g s: %w: the semi-implicit solve diverged", s.Steps, s.Time, dt, errUnstable)
	}
	if st.residual > s.cfg.SolverTolerance {
		st.unconverged++
	}
	s.storeVelocities()
	return nil
}

// loadSystem starts the solve from x = v* (setRightHandSide), with the masses of the
// free nodes.
func (s *Sim) loadSystem() {
	st := &s.implicit
	for b := range s.grid.blocks {
		for k := range s.grid.blocks[b] {
			i := b*blockNodes + k
			st.x[i] = s.grid.velocities[b][k].v
			st.mass[i] = s.grid.blocks[b][k].mass
			if st.fixed[i] {
				st.mass[i] = 0 // projected out: never changes, never counts
			}
		}
	}
}

// applyK sets out to K u = M u + beta dt^2 H u (scale = beta dt^2) on the free nodes,
// 0 on the others.
func (s *Sim) applyK(u, out []geom.Vec3, scale float64) {
	st := &s.implicit
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

// setPreconditioner turns invDiag, which linearise left holding diag(H), into
// 1 / diag(K), with diag(K) = m_i + beta dt^2 H_ii, where a negative H_ii (a compressed
// particle's rotational modes can soften) is left out to keep the preconditioner
// positive.
func (s *Sim) setPreconditioner(scale float64) {
	st := &s.implicit
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
}

// startSolve sets, from x = v* and r = H v* (linearise), r = M v* - K x = -beta dt^2 H v*,
// z = diag(K)^-1 r, p = z and the relative residual, and returns z . K z and the mass
// norm of v*.
func (s *Sim) startSolve(scale float64) (zKz, norm0 float64) {
	st := &s.implicit
	norm0 = math.Sqrt(s.reduce(func(i int) float64 { return st.mass[i] * st.x[i].Dot(st.x[i]) }))
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
	s.applyK(st.z, st.kz, scale)
	copy(st.kp, st.kz)
	zKz = s.reduce(func(i int) float64 { return st.z[i].Dot(st.kz[i]) })
	st.iterations, st.residual = 0, 0
	if norm0 > 0 {
		st.residual = math.Sqrt(s.reduce(st.residualTerm)) / norm0
	}
	return zKz, norm0
}

// residualTerm is node i's part of the squared mass norm of the residual of (9),
// M^-1 r: r . M^-1 r.
func (st *implicitState) residualTerm(i int) float64 {
	if m := st.mass[i]; m > 0 {
		return st.r[i].Dot(st.r[i]) / m
	}
	return 0
}

// conjugateResiduals iterates the preconditioned conjugate residual method from the
// state startSolve set, until the relative residual is within SolverTolerance or
// SolverMaxIterations iterations have run.
func (s *Sim) conjugateResiduals(scale, zKz, norm0 float64) {
	st := &s.implicit
	for st.residual > s.cfg.SolverTolerance && st.iterations < s.cfg.SolverMaxIterations {
		kpq := s.reduce(func(i int) float64 { return st.kp[i].Dot(mulElements(st.invDiag[i], st.kp[i])) })
		if !(kpq > 0) || !(zKz != 0) {
			return
		}
		alpha := zKz / kpq
		rr := s.reduce(func(i int) float64 {
			st.x[i] = st.x[i].Add(st.p[i].Scale(alpha))
			st.r[i] = st.r[i].Sub(st.kp[i].Scale(alpha))
			st.z[i] = st.z[i].Sub(mulElements(st.invDiag[i], st.kp[i]).Scale(alpha)) // q = diag(K)^-1 K p
			return st.residualTerm(i)
		})
		st.iterations++
		st.total++
		st.residual = math.Sqrt(rr) / norm0
		if !(st.residual > s.cfg.SolverTolerance) || st.iterations >= s.cfg.SolverMaxIterations {
			return // converged, or at the cap: the next search direction would go unused
		}
		s.applyK(st.z, st.kz, scale)
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
}

// storeVelocities puts the solution into the grid for the transfer back: v^{n+1} = x
// and v^{n+1} - v^n, summed as (v* - v^n) + (v^{n+1} - v*), the explicit change and
// the solve's correction to it.
func (s *Sim) storeVelocities() {
	st := &s.implicit
	for b := range s.grid.velocities {
		vel := &s.grid.velocities[b]
		for k := range vel {
			i := b*blockNodes + k
			vStar, vn := vel[k].v, vel[k].dv // setRightHandSide
			vel[k] = nodeVelocity{v: st.x[i], dv: vStar.Sub(vn).Add(st.x[i].Sub(vStar))}
		}
	}
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
