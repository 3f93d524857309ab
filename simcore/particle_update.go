package simcore

import (
	"fmt"
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/linalg"
)

// updateParticles is stages 7 to 10 for every particle, in one pass: each particle
// interpolates the grid's new velocities once, with the kernel rasterize used (kernelAt), for
// both stage 7 and stage 8, and its state is read and written once. It also measures
// the fastest particle and elastic wave for the next time step, and returns an error
// naming the first particle whose state is no longer finite.
func (s *Sim) updateParticles(dt, t1 float64) error {
	for w := range s.work {
		s.work[w].stats = stepStats{bad: -1}
	}
	parallel.For(s.threads, len(s.bins.blocks), func(w, k int) {
		s.updateBlock(&s.work[w], &s.bins.blocks[k], dt, t1)
	})
	s.maxSpeed, s.maxWaveSpeed = 0, 0
	bad, why := -1, ""
	for w := range s.work {
		st := &s.work[w].stats
		s.maxSpeed = max(s.maxSpeed, math.Sqrt(st.maxSpeed2))
		s.maxWaveSpeed = max(s.maxWaveSpeed, math.Sqrt(st.maxWaveSpeed2))
		if st.bad >= 0 && (bad < 0 || s.P.ID[st.bad] < s.P.ID[bad]) {
			bad, why = st.bad, st.badWhy
		}
	}
	if bad >= 0 {
		return fmt.Errorf("step %d at t = %.6g s, dt = %.3g s: %w: particle %d (id %d) %s; "+
			"the likely cause is a time step too long for the material's stiffness (lower cfl or max_dt, or E0 and xi) "+
			"or a collider moving faster than the snow can follow",
			s.Steps, s.Time, dt, errUnstable, bad, s.P.ID[bad], why)
	}
	return nil
}

// updateBlock is updateParticles on the particles of one block.
func (s *Sim) updateBlock(ws *workerScratch, g *particleBlock, dt, t1 float64) {
	p := s.P
	alpha := s.cfg.flipAlpha(dt)
	invH := s.invH
	// Copy the window's velocities into dense memory.
	nodes := &ws.velocities
	forWindowRows(g, nodes, s.grid.velocityRows(), func(w, n *[blockWidth]nodeVelocity) { *w = *n })

	near := s.groupColliders(ws, g, t1)

	var kernels kernelsAhead
	order := s.bins.order[g.start:g.end]
	for n, i := range order {
		// The kernel rasterize used; the next particle's is computed ahead, before
		// this one moves (advect), so its position is still x^n.
		ker, ox, oy, oz := kernels.next(n, order, p.X, invH)
		x, v := &p.X[i], &p.V[i]
		var vPIC, dv geom.Vec3
		var gradV linalg.Mat3
		interpolateTo(nodes, ker, ox, oy, oz, &vPIC, &dv, &gradV) // for 7 and 8
		for j := range gradV {
			gradV[j] *= invH // from h grad v
		}
		jE, mu, lambda := s.updateDeformation(i, dt, &gradV) // 7
		if p.Affine != nil {
			*v = vPIC // 8, APIC: v_p is the PIC velocity, C_p from the same nodes
			E := ker.moments(*x, invH)
			C := gatherAffine(nodes, ker, &E, ox, oy, oz, invH)
			p.Affine[i].set(&C)
		} else {
			blendPICFLIP(v, alpha, &vPIC, &dv) // 8
		}
		s.collide(near, x, v, dt, t1) // 9
		s.advect(x, v, dt)            // 10
		// For the next time step, and to catch a state gone bad:
		speed2 := v[0]*v[0] + v[1]*v[1] + v[2]*v[2]
		ws.stats.maxSpeed2 = max(ws.stats.maxSpeed2, speed2)
		ws.stats.maxWaveSpeed2 = max(ws.stats.maxWaveSpeed2, p.waveSpeed2(int(i), jE, mu, lambda))
		if !(speed2 < math.Inf(1)) || !(math.Abs(jE) < math.Inf(1)) {
			ws.stats.noteBad(p, i, jE)
		}
	}
}

// The stages below take vectors by pointer and work component by component: a Vec3
// passed, returned or assigned by value is copied through the stack, and a copy of an
// array just written waits for its stores, which in the particle loop costs more than
// the arithmetic.

// blendPICFLIP is stage 8: it replaces the particle velocity v^n in v by
// v^{n+1} = (1 - alpha) v_PIC + alpha v_FLIP with v_PIC = sum_i v_i^{n+1} w_ip and
// v_FLIP = v^n + sum_i (v_i^{n+1} - v_i^n) w_ip, the second sum being dv.
func blendPICFLIP(v *geom.Vec3, alpha float64, vPIC, dv *geom.Vec3) {
	for a := range v {
		v[a] = (1-alpha)*vPIC[a] + alpha*(v[a]+dv[a])
	}
}

// flipAlpha returns the PIC/FLIP blend of a step of dt: FlipAlpha, or with
// FlipAlphaStep FlipAlpha^(dt / FlipAlphaStep), which makes the PIC share's damping of
// relative motion, FlipAlpha per FlipAlphaStep seconds, independent of the step.
func (c *Config) flipAlpha(dt float64) float64 {
	if c.FlipAlphaStep > 0 && c.FlipAlpha > 0 {
		return math.Pow(c.FlipAlpha, dt/c.FlipAlphaStep)
	}
	return c.FlipAlpha
}

// advect is stage 10: it moves x by dt v, x^{n+1} = x^n + dt v^{n+1}, clamped into the
// domain. The walls are colliders and stop snow first; the clamp only catches what
// round-off or a fast collider pushes past them, so that no particle is ever lost.
func (s *Sim) advect(x, v *geom.Vec3, dt float64) {
	lo, hi := &s.cfg.Domain.Min, &s.cfg.Domain.Max
	for a := range x {
		x[a] += v[a] * dt
		if x[a] < lo[a] {
			x[a] = lo[a]
		} else if x[a] > hi[a] {
			x[a] = hi[a]
		}
	}
}

// noteBad keeps particle i, with J_E jE, as the bad one if it has the lowest ID so
// far: the error names the same particle whatever the thread count.
func (st *stepStats) noteBad(p *Particles, i int32, jE float64) {
	if st.bad < 0 || p.ID[i] < p.ID[st.bad] {
		st.bad = int(i)
		st.badWhy = fmt.Sprintf("at %v has velocity %v and det F_E = %g", p.X[i], p.V[i], jE)
	}
}
