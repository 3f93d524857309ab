package simcore

import (
	"math"

	"snowtools/levelset/geom"
)

// A Freeze is a step whose grid collisions took away nearly all the motion that its
// forces gave the grid (the mass-weighted mean of |v|^2 fell below freezeRatio^2 of
// that of |v*|), while no particle was within freezeGap cells of a collider or a wall:
// motion that no surface was near enough to stop. A step far too long for its forces
// does that: each grid node's end point x + dt v* lands beyond a wall, and the wall's
// sticking response zeroes it, so that the snow hangs in the air (issue 24: a press of
// 1e10 Pa did this until stableDt took the presses' acceleration into account). Snow
// at rest with no force acting, and snow stopped by a surface it touches, are no
// Freeze.
type Freeze struct {
	Steps     int64   // the steps taken, this one included
	Time      float64 // at the end of the step (s)
	GridSpeed float64 // the grid's root-mean-square v* before the collisions (m/s)
	Gap       float64 // the distance from the nearest particle to a collider or wall (m)
}

const (
	// freezeGap, in cells, is how far from every collider and wall snow must be for
	// a stop to count as a Freeze: more than the kernel's reach of 2 cells plus the
	// contactDistance at which snow comes to rest.
	freezeGap = 3
	// freezeRatio is the share of the grid's speed that collisions leave in a Freeze.
	freezeRatio = 1e-3
)

// gridMotion sums a step's grid motion, per unit of mass: sum m_i, sum m_i |v*_i|^2
// before the collisions and sum m_i |v_i|^2 after them.
type gridMotion struct {
	mass, before, after float64
}

// note adds a node of mass m whose velocity was vStar before the collisions and v
// after them.
func (g *gridMotion) note(m float64, vStar, v *geom.Vec3) {
	g.mass += m
	g.before += m * (vStar[0]*vStar[0] + vStar[1]*vStar[1] + vStar[2]*vStar[2])
	g.after += m * (v[0]*v[0] + v[1]*v[1] + v[2]*v[2])
}

// add adds o to g.
func (g *gridMotion) add(o gridMotion) {
	g.mass += o.mass
	g.before += o.before
	g.after += o.after
}

// Frozen returns the first step that froze the snow (see Freeze), or nil: a front end
// warns with it, since the frames it writes hold snow that no longer moves.
func (s *Sim) Frozen() *Freeze { return s.frozen }

// noteFreeze keeps the step that ends at t1 as the first Freeze if it is one. It costs
// a pass over the particles and colliders only when the collisions stopped the grid.
func (s *Sim) noteFreeze(t1 float64) {
	if s.frozen != nil {
		return
	}
	var g gridMotion
	for w := range s.work {
		g.add(s.work[w].gridMotion)
	}
	if !(g.before > 0) || !(g.after <= freezeRatio*freezeRatio*g.before) {
		return // no force moved the grid, or the collisions left it moving
	}
	if gap := s.boundaryGap(t1); gap > freezeGap*s.cfg.H {
		s.frozen = &Freeze{Steps: s.Steps + 1, Time: t1, GridSpeed: math.Sqrt(g.before / g.mass), Gap: gap}
	}
}

// boundaryGap returns the smallest signed distance phi from a particle to a collider or
// wall at time t (a Sample may report a positive phi lower than it is, so this is at
// most the true gap).
func (s *Sim) boundaryGap(t float64) float64 {
	gap := math.Inf(1)
	for _, x := range s.P.X {
		for _, c := range s.colliders {
			phi, _, _ := c.Sample(x, t)
			gap = min(gap, phi)
		}
	}
	return gap
}
