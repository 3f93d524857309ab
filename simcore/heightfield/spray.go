package heightfield

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"snowtools/levelset/geom"
)

// Spray holds the parameters of the paper's particle generation. The paper gives no
// values for them (it used particles for sand only); the defaults below are this
// package's. A zero Adhesion turns spray off.
type Spray struct {
	// Adhesion is the volume of material a piece of the object picks up per unit of
	// its area in contact (m^3/m^2 = m: the thickness of the layer that sticks).
	Adhesion float64
	// ReleaseTime is the h of equation (3): the load left on a piece of the object a
	// time tau after it leaves the ground is v exp(-tau/h). (The paper calls h a half
	// life; in (3) it is the time constant, so the load halves every h ln 2.)
	ReleaseTime float64
	// ParticleVolume is 1/phi, the volume of one spray particle (m^3).
	ParticleVolume float64
	// DropSpeed is s, the speed (m/s) at which every potential particle is created;
	// slower ones are created with probability (|v|/s)^gamma.
	DropSpeed float64
	// Gamma is the exponent gamma of that probability.
	Gamma float64
	// Perturbation is the radius of the random change of a particle's initial
	// velocity (8), as a fraction of its speed.
	Perturbation float64
	// Seed makes the random choices repeatable.
	Seed uint64
}

// DefaultSpray is the spray of the sand preset: a 0.5 mm layer sticks, falls off
// with a time constant of 0.1 s as grains of (2.5 mm)^3, all of them from pieces
// moving at 1 m/s or faster.
var DefaultSpray = Spray{Adhesion: 5e-4, ReleaseTime: 0.1, ParticleVolume: 2.5e-3 * 2.5e-3 * 2.5e-3,
	DropSpeed: 1, Gamma: 2, Perturbation: 0.2, Seed: 1}

// Validate reports a parameter outside its range.
func (s Spray) Validate() error {
	switch {
	case !finite(s.Adhesion) || s.Adhesion < 0:
		return fmt.Errorf("spray adhesion %g: must be >= 0 (m)", s.Adhesion)
	case s.Adhesion == 0:
		return nil
	case !finite(s.ReleaseTime) || s.ReleaseTime <= 0:
		return fmt.Errorf("spray release time %g: must be > 0 (s)", s.ReleaseTime)
	case !finite(s.ParticleVolume) || s.ParticleVolume <= 0:
		return fmt.Errorf("spray particle volume %g: must be > 0 (m^3)", s.ParticleVolume)
	case !finite(s.DropSpeed) || s.DropSpeed <= 0:
		return fmt.Errorf("spray drop speed %g: must be > 0 (m/s)", s.DropSpeed)
	case !finite(s.Gamma) || s.Gamma < 0:
		return fmt.Errorf("spray gamma %g: must be >= 0", s.Gamma)
	case !finite(s.Perturbation) || s.Perturbation < 0:
		return fmt.Errorf("spray perturbation %g: must be >= 0", s.Perturbation)
	}
	return nil
}

// released returns the volume of equation (3) that falls off in the step that ends
// a time tau after the piece left the ground, of length dt, from a load v:
//
//	Delta v = v (exp(-(tau - dt)/h) - exp(-tau/h))
func (s Spray) released(v, tau, dt float64) float64 {
	return v * (math.Exp(-max(tau-dt, 0)/s.ReleaseTime) - math.Exp(-tau/s.ReleaseTime))
}

// spray is the particle generation stage for the step from t to t + dt: carriers
// ride with their objects, touch the contact cells of this step or leave the ground,
// and those off the ground drop their load by (3).
func (s *Sim) spray(cells map[[2]int]contactCell, touched map[[2]int]bool, t, dt float64) {
	g := s.cfg.Grid
	start := make([][4]geom.Vec3, len(s.carriers))
	claimed := make(map[[2]int]bool, len(cells))
	for k := range s.carriers {
		c := &s.carriers[k]
		start[k] = c.corner
		col := s.cfg.Colliders[c.collider]
		if c.touching {
			// Where its centre goes decides whether it still touches; only if not
			// do its corners ride.
			if cell, ok := s.follow(c, cells, claimed, t, dt); ok {
				c.place(g, cell, cells[cell])
				continue
			}
			c.ride(col, t, dt, g.Cell)
			s.liftOff(c, touched, t)
			continue
		}
		c.ride(col, t, dt, g.Cell)
		if cell := c.centreCell(g); claimable(cells, claimed, cell, c.collider) {
			claimed[cell] = true
			c.place(g, cell, cells[cell])
		}
	}
	// New carriers, in cell order so that runs repeat.
	var fresh [][2]int
	for cell := range cells {
		if !claimed[cell] {
			fresh = append(fresh, cell)
		}
	}
	slices.SortFunc(fresh, func(a, b [2]int) int {
		if a[1] != b[1] {
			return a[1] - b[1]
		}
		return a[0] - b[0]
	})
	for _, cell := range fresh {
		var c carrier
		c.place(g, cell, cells[cell])
		s.carriers = append(s.carriers, c)
		start = append(start, c.corner)
	}
	for k := range s.carriers {
		if c := &s.carriers[k]; !c.touching {
			s.release(c, start[k], t, dt)
			if t+dt-c.left > crumbleAfter*s.cfg.Spray.ReleaseTime {
				s.crumble(c)
			}
		}
	}
	s.carriers = slices.DeleteFunc(s.carriers, func(c carrier) bool { return !c.touching && c.load <= 0 })
}

// crumbleAfter, in release times, is how long a carrier off the ground keeps what it
// has not dropped: less than one particle's volume, or particles the speed test
// kept on a slow object. By then (3) has released all but exp(-10) of its load.
const crumbleAfter = 10

// crumble drops the rest of a carrier's load straight into the column under its
// centre (or counts it lost outside the virtual grid), so that carriers do not pile
// up over a long run.
func (s *Sim) crumble(c *carrier) {
	cell := c.centreCell(s.cfg.Grid)
	if s.field.inExtent(cell[0], cell[1]) {
		s.field.Add(cell[0], cell[1], c.load/(s.cfg.Cell*s.cfg.Cell))
	} else {
		s.stats.Lost += c.load
	}
	c.load = 0
}

// follow moves the centre of a touching carrier with its object over the step and
// claims the contact cell it arrives over, if it is free and the same object's.
func (s *Sim) follow(c *carrier, cells map[[2]int]contactCell, claimed map[[2]int]bool, t, dt float64) ([2]int, bool) {
	g := s.cfg.Grid
	centre := c.at([4]float64{0.25, 0.25, 0.25, 0.25})
	_, _, v := s.cfg.Colliders[c.collider].Sample(centre, t)
	centre = centre.Add(v.Scale(dt))
	cell := g.cellUnder(centre)
	if !claimable(cells, claimed, cell, c.collider) {
		return cell, false
	}
	claimed[cell] = true
	return cell, true
}

// claimable reports whether cell is a contact cell of collider that no carrier has
// claimed.
func claimable(cells map[[2]int]contactCell, claimed map[[2]int]bool, cell [2]int, collider int) bool {
	cc, ok := cells[cell]
	return ok && cc.collider == collider && !claimed[cell]
}

// liftOff loads a carrier that has just left the ground, at time t: it tops its load
// up to Adhesion times its area, taking the material from the four columns of the
// cell it last touched, and starts the clock of (3). Columns an object still touches
// give nothing (a carrier at the edge of a sole that lost its cell to a neighbour's
// rounding has not taken material away from under the sole), so the carrier then
// takes only the free columns' share.
func (s *Sim) liftOff(c *carrier, touched map[[2]int]bool, t float64) {
	a0, a1 := c.area()
	if want := s.cfg.Spray.Adhesion*(a0+a1) - c.load; want > 0 {
		d2 := s.cfg.Cell * s.cfg.Cell
		for _, o := range cellCorners {
			if col := [2]int{c.cell[0] + o[0], c.cell[1] + o[1]}; !touched[col] {
				s.field.Add(col[0], col[1], -want/4/d2)
				c.load += want / 4
			}
		}
	}
	c.touching, c.left, c.full, c.due = false, t, c.load, 0
}

// release drops the volume (3) gives for the step from t to t + dt as particles. Each
// is created at a random time t + u dt in the step (so that the spray does not come
// in sheets), at a random point of the carrier (4)-(7) interpolated between where it
// was at the start of the step and where it is at the end, with the object's
// velocity there (8), the paper's nu + omega x p, randomly perturbed. It is kept
// with probability (|v|/s)^gamma; the volume of one not kept stays on the carrier.
// A created particle then falls for the rest of the step.
func (s *Sim) release(c *carrier, start [4]geom.Vec3, t, dt float64) {
	sp := s.cfg.Spray
	vol := sp.ParticleVolume
	c.due += sp.released(c.full, t+dt-c.left, dt)
	col := s.cfg.Colliders[c.collider]
	before := carrier{corner: start}
	for c.due >= vol && c.load >= vol {
		c.due -= vol
		wts := c.pointOn(s.rng)
		u := s.rng.Float64()
		p := before.at(wts).Scale(1 - u).Add(c.at(wts).Scale(u))
		_, _, v := col.Sample(p, t+u*dt)
		v = v.Add(inBall(s.rng).Scale(sp.Perturbation * v.Norm()))
		if math.Pow(v.Norm()/sp.DropSpeed, sp.Gamma) <= s.rng.Float64() {
			continue
		}
		c.load -= vol
		rest := (1 - u) * dt
		g := s.cfg.Gravity
		x := p.Add(v.Scale(rest)).Add(g.Scale(0.5 * rest * rest))
		s.P.add(x, v.Add(g.Scale(rest)), s.nextID)
		s.nextID++
	}
}

// inBall returns a point uniform in the unit ball, by rejection from the cube.
func inBall(rng *rand.Rand) geom.Vec3 {
	for {
		p := geom.Vec3{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
		if p.Dot(p) <= 1 {
			return p
		}
	}
}
