package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/collider"
)

// updateGrid is stages 4 and 5 on every node with mass and, for the explicit
// integrator, stage 6; the semi-implicit one takes v* from here (implicit.go). The three
// share one pass over the nodes because each needs only the last one's result for the
// same node. A node tests for collision where its velocity would carry it by the end of
// the step, x_i + dt v_i*, at time t1 = t^{n+1}; how it collides depends on whether
// snow touching the collider reaches it (markContacts, collideNode: contact.go).
func (s *Sim) updateGrid(dt, t1 float64) {
	s.markContacts(dt, t1)
	g := &s.grid
	h := s.cfg.H
	gravity := s.gravity()
	decay := math.Exp(-s.cfg.Damping * dt) // 1 without damping
	// Nodes of a block lie within sqrt(3) 1.5 h of its centre; a node whose velocity
	// would carry it more than one cell in a step is tested against every collider.
	reach := math.Sqrt(3)*1.5*h + h
	if s.semiImplicit() {
		s.implicit.resizeNodes(len(g.blocks) * blockNodes) // for setRightHandSide
	}
	for w := range s.work {
		s.work[w].gridMotion = gridMotion{}
	}
	parallel.For(s.threads, len(g.blocks), func(w, bi int) {
		c := g.coords[bi]
		centre := geom.Vec3{
			(float64(c[0]<<blockShift) + 1.5) * h,
			(float64(c[1]<<blockShift) + 1.5) * h,
			(float64(c[2]<<blockShift) + 1.5) * h,
		}
		ws := &s.work[w]
		near := ws.nearColliders(s.colliders, centre, reach, t1)
		ws.gridMotion.add(s.updateGridBlock(bi, near, gravity, decay, dt, t1))
	})
}

// updateGridBlock is updateGrid on the nodes of block bi, with near the colliders
// within reach of the block and decay the damping factor of velocityStar. It returns
// the motion of the block's nodes before and after the collisions (see Freeze).
func (s *Sim) updateGridBlock(bi int, near []collider.Collider, gravity geom.Vec3, decay, dt, t1 float64) (m gridMotion) {
	nodes, vel, c := &s.grid.blocks[bi], &s.grid.velocities[bi], s.grid.coords[bi]
	pins := s.pinnedNodes(bi) // nodes that sleeping snow holds still (sleep.go)
	for a := 0; a < blockWidth; a++ {
		for b := 0; b < blockWidth; b++ {
			for cc := 0; cc < blockWidth; cc++ {
				k := (a*blockWidth+b)*blockWidth + cc
				n := &nodes[k]
				if n.mass == 0 {
					vel[k] = nodeVelocity{} // every particle weighs this node 0
					continue
				}
				var vn, vStar geom.Vec3
				n.velocityStar(&vn, &vStar, &gravity, decay, dt)  // 4
				x, v := nodePosition(c, a, b, cc, s.cfg.H), vStar // v: v* after the collisions
				s.collideNode(near, bi, k, &x, &vn, &v, dt, t1)   // 5
				m.note(n.mass, &vStar, &v)
				held := holdPinned(k, pins, &v) // v = 0 where snow sleeps
				if s.semiImplicit() {
					s.implicit.setRightHandSide(&vel[k], bi*blockNodes+k, vn, v, held || v != vStar)
				} else {
					explicitVelocity(&vel[k], &vn, &v) // 6
				}
			}
		}
	}
	return m
}

// velocityStar is stage 4 for a node with mass: it sets vn to the node's velocity
// v_i^n = momentum / m_i (the normalized weights of stage 1, which conserve momentum)
// and vStar to v_i* = (v_i^n + dt (f_i / m_i + g)) decay, equation (10) with gravity g,
// f_i including the presses' forces, and decay = exp(-Damping dt), the drag of
// Config.Damping (1 without, which leaves v_i* bit for bit as equation (10) gives it).
// Applied every step, the factor makes a velocity decay as exp(-Damping t) whatever
// the step, and it never amplifies one, so it cannot make a step unstable. The vectors
// go by pointer as in the particle update's stages (particle_update.go).
func (n *node) velocityStar(vn, vStar, gravity *geom.Vec3, decay, dt float64) {
	inv := 1 / n.mass
	for a := range vn {
		vn[a] = inv * n.momentum[a]
		vStar[a] = (vn[a] + dt*(inv*n.force[a]+gravity[a])) * decay
	}
}

// collide is stage 5 for a grid node that touching snow reaches (collideNode) and
// stage 9 for a particle, which section 8 processes the same way: it makes the
// velocity v of a point at x, moving for dt, non-penetrating against the colliders
// that touch x + dt v at time t1. near are the colliders within reach of the point's
// block (see collider.InReach). The vectors go by pointer as in the particle update's
// other stages (particle_update.go), and v is read component by component: the
// particle update has just written it so, and reading it whole as *v waits for those
// stores. Most points are slow and have no collider near their block, so InReach
// (inlined) returns none and nothing else runs.
func (s *Sim) collide(near []collider.Collider, x, v *geom.Vec3, dt, t1 float64) {
	if cs := collider.InReach(near, s.colliders, v, dt, s.cfg.H); len(cs) > 0 {
		*v = collider.Collide(cs, *x, geom.Vec3{v[0], v[1], v[2]}, dt, t1)
	}
}

// explicitVelocity is stage 6 of the explicit integrator for a node whose velocity was
// vn and is vStar after stages 4 and 5: v^{n+1} = v*, and v^{n+1} - v^n.
func explicitVelocity(out *nodeVelocity, vn, vStar *geom.Vec3) {
	for a := range vStar {
		out.v[a] = vStar[a]
		out.dv[a] = vStar[a] - vn[a]
	}
}

// gravity returns the gravity that acts in the step that starts now: none before
// GravityStart.
func (s *Sim) gravity() geom.Vec3 {
	if s.Time >= s.cfg.GravityStart {
		return s.cfg.Gravity
	}
	return geom.Vec3{}
}

// nearColliders returns, in the worker's scratch, the colliders of all that may touch
// the ball of radius r around centre at time t (collider.Nearby).
func (ws *workerScratch) nearColliders(all []collider.Collider, centre geom.Vec3, r, t float64) []collider.Collider {
	ws.near = collider.Nearby(ws.near, all, centre, r, t)
	return ws.near
}
