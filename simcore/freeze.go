package simcore

import "math"

// A Freeze is a step after which every particle was exactly at rest although the
// step's forces had set the grid moving, and no particle was within freezeGap cells of
// a collider or a wall: the collisions took away a motion that no surface was near
// enough to stop. A step far too long for its forces does that: each grid node's or
// particle's end point x + dt v lands beyond a wall, and the wall's sticking response
// zeroes it, so that the snow hangs in the air (issue 24: a press of 1e10 Pa did this
// until stableDt took the presses' acceleration into account). Snow at rest before
// its forces start, or resting on a surface, is no Freeze.
type Freeze struct {
	Steps     int64   // the steps taken, this one included
	Time      float64 // at the end of the step (s)
	GridSpeed float64 // the fastest grid velocity v* before the collisions (m/s)
	Gap       float64 // the distance from the nearest particle to a collider or wall (m)
}

// freezeGap, in cells, is how far from every collider and wall snow must be for a
// stop to count as a Freeze: more than the kernel's reach of 2 cells plus the
// contactDistance at which snow comes to rest.
const freezeGap = 3

// Frozen returns the first step that froze the snow (see Freeze), or nil: a front end
// warns with it, since the frames it writes hold snow that no longer moves.
func (s *Sim) Frozen() *Freeze { return s.frozen }

// noteFreeze keeps the step that ends at t1 as the first Freeze if it is one. It costs
// a pass over the particles and colliders only when every particle is at rest.
func (s *Sim) noteFreeze(t1 float64) {
	if s.frozen != nil || s.maxSpeed != 0 || s.P.Len() == 0 {
		return
	}
	forced := 0.0
	for w := range s.work {
		forced = max(forced, s.work[w].forcedSpeed2)
	}
	if forced == 0 {
		return // no force acted: snow at rest stays at rest
	}
	gap := s.boundaryGap(t1)
	if gap > freezeGap*s.cfg.H {
		s.frozen = &Freeze{Steps: s.Steps + 1, Time: t1, GridSpeed: math.Sqrt(forced), Gap: gap}
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
