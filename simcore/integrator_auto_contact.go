package simcore

import (
	"math"
	"sync"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Where a moving collider drives the snow, the auto integrator keeps the explicit one.
// The semi-implicit step lets the elastic wave cross up to WaveCells cells, and one
// linearised implicit step over that span damps the snow's elastic answer to the push:
// on the examples, auto's semi-implicit steps let the plough's blade push up a mound that
// the converged explicit runs do not, and the kicking foot throw no clumps
// (docs/solver.md#which-integrator). Snow that breaks or settles against still
// colliders (the floor, walls, the wedge) is left to the cost model: there auto stayed
// about as close to the explicit run as the explicit run at half its step.
//
// A collider drives the snow in a frame when, at the frame's start, middle or end, it
// moves at drivingSpeed or more with snow within reach: within 2h of its surface (the
// nodes of a particle's stencil), plus the frame's length times the speed at which the
// two approach (-(v_p - v_co) . n) and half the collider's speed (the motion between two
// sample times). A collider that lifts off the snow drives it too: it drags what
// sticks to it.

// drivingSpeed is the least collider speed that drives the snow, in cells per second:
// 10 cm/s at h = 2 cm. The examples' colliders move at 0.5 m/s (the plough's blade) to
// several m/s (the kicking foot).
const drivingSpeed = 5.0

// colliderDrive returns the fastest speed at which a collider drives the snow in the
// steps to time t (see above), or 0 when none does. It depends on the particles'
// positions and velocities and on the colliders alone, never on the particles' order or
// the solver's grouping, so a resumed run measures what the uninterrupted one did.
func (s *Sim) colliderDrive(t float64) float64 {
	if len(s.colliders) == 0 {
		return 0
	}
	p := s.P
	h := s.cfg.H
	span := t - s.Time
	u := drivingSpeed * h
	times := [3]float64{s.Time, s.Time + span/2, t}
	// Colliders are sampled at the centre of each particle's block of 4x4x4 cells: phi
	// changes no faster than distance, and a particle is within sqrt(3) 2h of it.
	width := blockWidth * h
	reach := math.Sqrt(3)*width/2 + 2*h
	type sample struct {
		phi, vcoSpeed, vcoN float64
		n                   geom.Vec3
	}
	var mu sync.Mutex
	fastest := 0.0
	parallel.Ranges(s.threads, p.Len(), 4096, func(_, lo, hi int) {
		var key [3]int
		samples := make([]sample, 0, len(times)*len(s.colliders))
		found := 0.0
		for i := lo; i < hi; i++ {
			x, v := &p.X[i], &p.V[i]
			b := [3]int{int(math.Floor(x[0] / width)), int(math.Floor(x[1] / width)), int(math.Floor(x[2] / width))}
			if i == lo || b != key {
				key = b
				c := geom.Vec3{(float64(b[0]) + 0.5) * width, (float64(b[1]) + 0.5) * width, (float64(b[2]) + 0.5) * width}
				samples = samples[:0]
				for _, tau := range times {
					for _, co := range s.colliders {
						phi, n, vco := co.Sample(c, tau)
						samples = append(samples, sample{phi, vco.Norm(), vco.Dot(n), n})
					}
				}
			}
			for k := range samples {
				sm := &samples[k]
				if sm.vcoSpeed < u || sm.vcoSpeed <= found {
					continue
				}
				approach := sm.vcoN - (v[0]*sm.n[0] + v[1]*sm.n[1] + v[2]*sm.n[2])
				if sm.phi <= reach+span*(max(approach, 0)+sm.vcoSpeed/2) {
					found = sm.vcoSpeed
				}
			}
		}
		mu.Lock()
		fastest = max(fastest, found)
		mu.Unlock()
	})
	return fastest
}
