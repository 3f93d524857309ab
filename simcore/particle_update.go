package simcore

import (
	"fmt"
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/collider"
)

// updateParticles is stages 7 to 10 for every particle, in one pass: interpolate the
// grid's new velocities with the kernel cached by rasterize, update F_E with plasticity
// (stage 7), blend PIC and FLIP velocities (stage 8), collide (stage 9) and move (stage 10).
// It also measures the fastest particle and elastic wave for the next time step, and
// returns an error naming the first particle whose state is no longer finite.
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
			s.Steps, s.Time, dt, ErrUnstable, bad, s.P.ID[bad], why)
	}
	return nil
}

func (s *Sim) updateBlock(ws *workerScratch, g *particleBlock, dt, t1 float64) {
	p := s.P
	alpha := s.FlipAlpha
	invH := s.invH
	// Copy the window's velocities into dense memory.
	nodes := &ws.velocities
	forWindowRows(g, nodes, s.grid.nodeRows(), func(w *[blockWidth]nodeVelocity, n *[blockWidth]node) {
		for c := range w {
			w[c] = nodeVelocity{n[c].mv, n[c].f}
		}
	})
	origin := [3]int{g.coord[0] << blockShift, g.coord[1] << blockShift, g.coord[2] << blockShift}

	// The group's particles lie in the 4x4x4 cells starting one cell past its block's
	// first node, within sqrt(3) 2h of their centre; one more cell of reach covers a step's
	// motion, and a faster particle is tested against every collider.
	h := s.H
	centre := geom.Vec3{float64(origin[0]+3) * h, float64(origin[1]+3) * h, float64(origin[2]+3) * h}
	near := collider.Nearby(ws.near, s.colliders, centre, math.Sqrt(3)*2*h+h, t1)
	ws.near = near

	var ker kernel
	for k := g.start; k < g.end; k++ {
		i := s.bins.order[k]
		x := p.X[i]
		ox, oy, oz := stencilOffset(stencilBase(x, invH))
		s.cache[k].load(&ker)
		vPIC, dv, gradV := interpolate(nodes, &ker, ox, oy, oz)
		for j := range gradV {
			gradV[j] *= invH // from h grad v
		}

		jE, mu, lambda := s.updateDeformation(i, dt, &gradV) // 7

		// Stages 8-10 component by component: chains of Vec3 methods pass arrays by value,
		// and each copy of an array just written waits for its stores, which costs more
		// than the arithmetic.
		var v, xEnd geom.Vec3
		for a := range v {
			v[a] = (1-alpha)*vPIC[a] + alpha*(p.V[i][a]+dv[a]) // 8
			xEnd[a] = x[a] + v[a]*dt
		}
		if cs := collider.InReach(near, s.colliders, v, dt, h); len(cs) > 0 {
			v = collider.Collide(cs, x, v, dt, t1) // 9
			for a := range xEnd {
				xEnd[a] = x[a] + v[a]*dt
			}
		}
		s.keepInDomain(&xEnd) // 10
		pv, px := &p.V[i], &p.X[i]
		for a := range v {
			pv[a], px[a] = v[a], xEnd[a]
		}

		speed2 := v.Dot(v)
		ws.stats.maxSpeed2 = max(ws.stats.maxSpeed2, speed2)
		ws.stats.maxWaveSpeed2 = max(ws.stats.maxWaveSpeed2, p.waveSpeed2(int(i), jE, mu, lambda))
		if !(speed2 < math.Inf(1)) || !(math.Abs(jE) < math.Inf(1)) {
			if ws.stats.bad < 0 || p.ID[i] < p.ID[ws.stats.bad] {
				ws.stats.bad = int(i)
				ws.stats.badWhy = fmt.Sprintf("at %v has velocity %v and det F_E = %g", xEnd, v, jE)
			}
		}
	}
}

// keepInDomain clamps a position into the domain. The walls are colliders and stop snow
// first; this guard only catches what round-off or a fast collider pushes past them, so
// that no particle is ever lost.
func (s *Sim) keepInDomain(x *geom.Vec3) {
	lo, hi := s.Domain.Min, s.Domain.Max
	for a := 0; a < 3; a++ {
		if x[a] < lo[a] {
			x[a] = lo[a]
		} else if x[a] > hi[a] {
			x[a] = hi[a]
		}
	}
}
