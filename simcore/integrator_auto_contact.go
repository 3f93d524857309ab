package simcore

import (
	"math"
	"sync"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/collider"
)

// Where a moving collider drives the snow, the auto integrator keeps the explicit one.
// The semi-implicit step lets the elastic wave cross up to WaveCells cells, and one
// linearised implicit step over that span damps the snow's elastic answer to the push:
// on the examples, auto's semi-implicit steps let the plough's blade push up a mound that
// the converged explicit runs do not, and the kicking foot throw no clumps
// (docs/solver.md#which-integrator). Snow that breaks or settles against still
// colliders (the floor, walls, the wedge) is left to the cost model: there auto stayed
// about as close to the explicit run as the explicit run at half its step, but for a
// ball landing on the edge of a step (examples/press_ball.toml), whose first contact
// decides which way it goes. (Semi-implicit frames also change how snow breaks, with or
// without colliders, which is why auto is not the default.)
//
// A collider drives the snow in a frame when, at the frame's start, middle or end, it
// moves at drivingSpeed or more with a particle within reach: within 2 sqrt(3) h of its
// surface (the farthest node of the particle's stencil), plus the frame's length times
// the speed at which the two approach, -(v_p - v_co) . n, and half the collider's speed
// (its motion between two sample times). A collider that lifts off the snow drives it
// too: it drags what sticks to it. The collider is sampled at the particle and at the
// centre of the particle's block of 4x4x4 cells, with 2 sqrt(3) h more reach there: a
// voxelized collider reports its velocity only within a narrow band round its
// surface, which one of the two points may miss. A key or a keyframe shorter than half
// a frame may fall between the sample times.

// drivingSpeed is the least collider speed that drives the snow, in cells per second:
// 10 cm/s at h = 2 cm. The examples' colliders move at 0.5 m/s (the plough's blade) to
// several m/s (the kicking foot).
const drivingSpeed = 5.0

// colliderDrive returns the fastest speed at which a collider drives the snow in the
// steps to time t (see above), or 0 when none does. It depends on the particles'
// positions and velocities and on the colliders alone, never on the particles' order or
// the thread count, so a resumed run measures what the uninterrupted one did.
func (s *Sim) colliderDrive(t float64) float64 {
	moving := mayMove(s.colliders)
	if len(moving) == 0 {
		return 0
	}
	p := s.P
	h := s.cfg.H
	d := drive{u: drivingSpeed * h, span: t - s.Time, reach: 2 * math.Sqrt(3) * h}
	width := blockWidth * h
	centreReach := d.reach + math.Sqrt(3)*width/2 // a particle is within sqrt(3) 2h of its block's centre
	times := [3]float64{s.Time, s.Time + d.span/2, t}
	var mu sync.Mutex
	fastest := 0.0
	parallel.Ranges(s.threads, p.Len(), 4096, func(_, lo, hi int) {
		found, fastestSnow := 0.0, 0.0
		for i := lo; i < hi; i++ {
			fastestSnow = max(fastestSnow, p.V[i].Norm())
		}
		for _, tau := range times { // one time after another: a keyed body is posed once per time
			for _, co := range moving {
				var key [3]int
				var centre contactSample
				for i := lo; i < hi; i++ {
					x, v := p.X[i], &p.V[i]
					b := [3]int{int(math.Floor(x[0] / width)), int(math.Floor(x[1] / width)), int(math.Floor(x[2] / width))}
					if i == lo || b != key {
						key = b
						c := geom.Vec3{(float64(b[0]) + 0.5) * width, (float64(b[1]) + 0.5) * width, (float64(b[2]) + 0.5) * width}
						centre = sampleContact(co, c, tau)
					}
					found = max(found, d.speed(&centre, v, centreReach))
					// The particle's own sample, unless the collider is out of reach of the
					// whole block, allowing for the snow's and the collider's speeds (a cell
					// for a collider that turns, whose speed varies over the block).
					if centre.phi <= centreReach+d.span*(fastestSnow+2*centre.speed)+h {
						at := sampleContact(co, x, tau)
						found = max(found, d.speed(&at, v, d.reach))
					}
				}
			}
		}
		mu.Lock()
		fastest = max(fastest, found)
		mu.Unlock()
	})
	return fastest
}

// contactSample is a collider's phi, normal and velocity at a point, with the speed
// |v_co|.
type contactSample struct {
	phi, speed float64
	n, vco     geom.Vec3
}

// sampleContact samples collider co at x at time t.
func sampleContact(co collider.Collider, x geom.Vec3, t float64) contactSample {
	phi, n, vco := co.Sample(x, t)
	return contactSample{phi: phi, speed: vco.Norm(), n: n, vco: vco}
}

// drive holds colliderDrive's thresholds: the least driving speed u, the frame's length
// and the reach of a particle's stencil.
type drive struct{ u, span, reach float64 }

// speed returns the collider's speed if it drives a particle moving at v, for which the
// collider's sample is sm, within reach: its speed at least u, and sm.phi at most reach
// plus the frame's approach. Otherwise 0.
func (d *drive) speed(sm *contactSample, v *geom.Vec3, reach float64) float64 {
	if sm.speed < d.u {
		return 0
	}
	approach := (sm.vco[0]-v[0])*sm.n[0] + (sm.vco[1]-v[1])*sm.n[1] + (sm.vco[2]-v[2])*sm.n[2]
	if sm.phi > reach+d.span*(max(approach, 0)+sm.speed/2) {
		return 0
	}
	return sm.speed
}

// mayMove returns the colliders that may move: all but the still analytic shapes (the
// domain's walls, a static floor), which never drive the snow.
func mayMove(all []collider.Collider) []collider.Collider {
	var moving []collider.Collider
	for _, co := range all {
		if m, ok := co.(*collider.MovingShape); ok && m.Velocity == (geom.Vec3{}) {
			continue
		}
		moving = append(moving, co)
	}
	return moving
}
