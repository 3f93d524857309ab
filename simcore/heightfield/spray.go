package heightfield

import (
	"fmt"
	"math"
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
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
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
