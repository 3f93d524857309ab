package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/collider"
)

// How the grid collisions act. Section 8 collides every grid node that lies in a
// collider (phi(x_i + dt v_i*) <= 0) and takes away its velocity into it. Nodes reach
// 2h into the snow through the cubic B-spline, so snow moving toward a surface is
// slowed by those nodes while it is still up to 2h away, and settles about one cell
// above the highest of them: 0.5 to 1.1 h above the surface, depending on where the
// surface falls between two rows of nodes (contact_gap_test.go measures it). Stage 5
// here treats two kinds of node in a collider apart:
//
//   - a node that snow touching the collider reaches, in the 4x4x4 stencil of a
//     particle within contactDistance of it at the end of the step (markContacts),
//     collides as section 8 says, so that snow pressed against a surface or pushed by
//     a collider is compacted through F_E as before;
//   - any other node collides against a surface that recedes at the speed at which its
//     particles already approach it (collider.CollideReceding, with the node's v_i^n):
//     it keeps the velocity its snow brings and gains none toward the collider. Snow
//     that has not reached the surface is not slowed by it, and snow at rest
//     (v_i^n = v_co) is held as by section 8, by every node under it.
//
// In between, the particle collisions of stage 9, against the same level sets, keep
// the snow out. Snow comes to rest when its lowest particles touch, about
// contactDistance from the surface. Neither rule alone would do: with the other nodes
// free, the weight of resting snow hangs on the few nodes near the particles that
// touch, and the snow drops a little whenever one of them lets go (a free node under
// snow cannot balance the snow's weight); with every node receding, snow pressed
// against a surface keeps approaching it and the particle collisions stop it without
// F_E recording the compaction (TestPressingHardensSnow fails).

// contactDistance, in cells, is how close a particle must come to a collider to touch
// it, and so about the distance from the surface at which snow comes to rest: a
// quarter cell, half the particle spacing at the default 8 particles per cell, at which
// the volume a particle stands for just reaches the surface.
const contactDistance = 0.25

// markContacts is the first part of stage 5: it sets contact[i] for every grid node i
// in the stencil of a particle that touches a collider during the step, one whose
// position at the end of the step, x_p + dt v_p^n, is within contactDistance cells of a
// collider at t1 (collider.Touching). Groups of one colour have disjoint windows (see
// bins.go), so each colour's groups mark in parallel.
func (s *Sim) markContacts(dt, t1 float64) {
	nodes := len(s.grid.blocks) * blockNodes
	s.contact = resizeScratch(s.contact, nodes)
	clear(s.contact)
	for color := range s.bins.colors {
		list := s.bins.colors[color]
		parallel.For(s.threads, len(list), func(w, k int) {
			s.markGroupContacts(&s.work[w], &s.bins.blocks[list[k]], dt, t1)
		})
	}
}

// markGroupContacts is markContacts on the particles of group g.
func (s *Sim) markGroupContacts(ws *workerScratch, g *particleBlock, dt, t1 float64) {
	p := s.P
	h := s.cfg.H
	near := s.groupColliders(ws, g, t1)
	for k := g.start; k < g.end; k++ {
		i := s.bins.order[k]
		x, v := &p.X[i], &p.V[i]
		cs := collider.InReach(near, s.colliders, v, dt, h)
		if len(cs) == 0 {
			continue
		}
		end := geom.Vec3{x[0] + dt*v[0], x[1] + dt*v[1], x[2] + dt*v[2]}
		if collider.Touching(cs, end, t1, contactDistance*h) {
			s.markStencil(g, stencilBase(*x, s.invH))
		}
	}
}

// markStencil sets contact for the 4x4x4 nodes of the stencil whose first node is
// base, of a particle of group g. Window node (a, b, c) is node
// ((a mod 4) 4 + b mod 4) 4 + c mod 4 of the window's node block ((a/4) 2 + b/4) 2 + c/4.
func (s *Sim) markStencil(g *particleBlock, base [3]int) {
	const m = blockWidth - 1
	ox, oy, oz := stencilOffset(base)
	for a := ox; a < ox+blockWidth; a++ {
		for b := oy; b < oy+blockWidth; b++ {
			for c := oz; c < oz+blockWidth; c++ {
				blk := g.window[(a>>blockShift)<<2|(b>>blockShift)<<1|c>>blockShift]
				s.contact[int(blk)*blockNodes+((a&m)*blockWidth+(b&m))*blockWidth+(c&m)] = true
			}
		}
	}
}

// collideNode is stage 5 for node k of block bi, at x, whose velocity is vn from its
// particles and v* in v: a node that touching snow reaches (markContacts) collides as
// section 8 says; any other collides against surfaces that recede at the speed its
// particles already approach them (collider.CollideReceding).
func (s *Sim) collideNode(near []collider.Collider, bi, k int, x, vn, v *geom.Vec3, dt, t1 float64) {
	if s.contact[bi*blockNodes+k] {
		s.collide(near, x, v, dt, t1)
	} else if cs := collider.InReach(near, s.colliders, v, dt, s.cfg.H); len(cs) > 0 {
		*v = collider.CollideReceding(cs, *x, *vn, *v, dt, t1)
	}
}

// groupColliders returns, in the worker's scratch, the colliders that may touch the
// particles of group g at time t. The group's particles lie in the 4x4x4 cells starting
// one cell past its block's first node, within sqrt(3) 2h of their centre; one more
// cell of reach covers a step's motion (a faster particle is tested against every
// collider: collider.InReach), and contactDistance more the reach of markContacts'
// Touching.
func (s *Sim) groupColliders(ws *workerScratch, g *particleBlock, t float64) []collider.Collider {
	h := s.cfg.H
	origin := [3]int{g.coord[0] << blockShift, g.coord[1] << blockShift, g.coord[2] << blockShift}
	centre := geom.Vec3{float64(origin[0]+3) * h, float64(origin[1]+3) * h, float64(origin[2]+3) * h}
	return ws.nearColliders(s.colliders, centre, math.Sqrt(3)*2*h+(1+contactDistance)*h, t)
}
