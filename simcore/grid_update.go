package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/collider"
)

// updateGrid is stages 4 to 6 on every node with mass: the velocity
// v_i^n = momentum / m_i, the explicit update of equation (10) plus gravity (from
// GravityStart on), v_i* = v_i^n + dt (f_i / m_i + g) with f_i including the presses'
// forces, the grid collisions of section 8, and, for explicit integration,
// v_i^{n+1} = v_i*; the semi-implicit one takes v* from here, with the
// nodes that collided marked fixed. A node tests for collision where its velocity would
// carry it by the end of the step, x_i + dt v_i*, at time t1 = t^{n+1}.
func (s *Sim) updateGrid(dt, t1 float64) {
	g := &s.grid
	h := s.H
	var gravity geom.Vec3
	if s.Time >= s.GravityStart {
		gravity = s.Gravity
	}
	// Nodes of a block lie within sqrt(3) 1.5 h of its centre; a node whose velocity
	// would carry it more than one cell in a step is tested against every collider.
	reach := math.Sqrt(3)*1.5*h + h
	parallel.For(s.threads, len(g.blocks), func(w, bi int) {
		blk := &g.blocks[bi]
		c := g.coords[bi]
		centre := geom.Vec3{
			(float64(c[0]<<blockShift) + 1.5) * h,
			(float64(c[1]<<blockShift) + 1.5) * h,
			(float64(c[2]<<blockShift) + 1.5) * h,
		}
		near := collider.Nearby(s.work[w].near, s.colliders, centre, reach, t1)
		s.work[w].near = near
		for a := 0; a < blockWidth; a++ {
			for b := 0; b < blockWidth; b++ {
				for cc := 0; cc < blockWidth; cc++ {
					n := &blk[(a*blockWidth+b)*blockWidth+cc]
					if n.mass == 0 {
						continue
					}
					inv := 1 / n.mass
					vOld := n.mv.Scale(inv)
					vStar := vOld.Add(n.f.Scale(inv).Add(gravity).Scale(dt)) // (10)
					x := geom.Vec3{
						float64(c[0]<<blockShift+a) * h,
						float64(c[1]<<blockShift+b) * h,
						float64(c[2]<<blockShift+cc) * h,
					}
					vNew := collider.Collide(collider.InReach(near, s.colliders, vStar, dt, h), x, vStar, dt, t1)
					n.mv = vNew
					n.f = vNew.Sub(vOld)
					if s.semiImplicit() && vNew != vStar {
						s.implicit.fixed[bi*blockNodes+(a*blockWidth+b)*blockWidth+cc] = true // projected out of (9)
					}
				}
			}
		}
	})
}
