package simcore

import (
	"math"

	"snowtools/levelset/parallel"
)

// Pressure sintering of snow, after Ye and Sugimoto (equations 2-9 of their paper): when
// snow is pressed its density grows with the von Mises stress it carries and with the
// external force pressing it, and with the density its Young's modulus, Poisson's ratio
// and hardening coefficient, so that pressed snow breaks into lumps rather than powder.
// These are the model's laws, one function per equation; the solver applies them to
// each sintering particle between stages 3 and 4 of the step.

// SinteringLaw holds the constants of the model. The paper's values (its Table 1) are
// for 2D, with C4 and C5 per frame.
type SinteringLaw struct {
	MaxDensity float64 // rho_max (kg/m^3): sintering packs snow up to this, equation (6)
	// C1 and C2 are the density's growth rates per unit of von Mises stress over
	// relative density (1/(Pa s)) and per unit of external force density |b| (m^3/(N s);
	// |b| in N/m^3, see Press), equation (2).
	C1, C2 float64
	// C3 is the exponent of Young's modulus in relative density, equation (7); negative,
	// so that denser snow is stiffer.
	C3 float64
	// C4 and C5 are the hardening coefficient's growth rates per unit of von Mises stress
	// (1/(Pa s)) and of external force density (m^3/(N s)), equation (9). The paper adds
	// C4 sigma_m + C5 |b| once per frame; here they are rates, so that the result does
	// not depend on how many steps a frame takes.
	C4, C5 float64
}

// DefaultSinteringLaw is the law for 3D snow. The paper's Table 1 is for 2D (rho 100
// of 700 kg/m^3, E0 = 1.4e3, C4 and C5 per frame, forces per particle of 0.01 kg) and
// does not carry over:
//
//   - rho_max is ice, 917 kg/m^3: the densest snow can get. With Table 2's snow (400
//     kg/m^3, nu = 0.2) Poisson's ratio then reaches 0.44 at full density; snow
//     lighter than about 330 kg/m^3 needs a smaller nu (Validate says so).
//   - C3 = -9 is Table 1's: Young's modulus grows 160-fold from 400 kg/m^3 to ice.
//   - C2 = 1e-3 m^3/(N s) is calibrated with the press-then-drop experiment (Ye and
//     Sugimoto's section 4.1; TestPressThenDrop and examples/press): a 10 cm ball of
//     fresh snow (E0 = 1.4e4 Pa) pressed for 0.1 s at 50, 150 and 300 Pa sinters to
//     about 435, 513 and 658 kg/m^3, so that the weakest press leaves it soft enough to
//     split over a step and the others do not. C2 scales the rate: pressing ten times as long at the same force
//     does what a C2 ten times larger does.
//   - C1 = 1e-6 1/(Pa s): sintering by the snow's own shear stress is slow, about 0.2
//     percent per second at 1 kPa, so that snow left to rest under its weight stays
//     snow for the length of a shot.
//   - C4 = C5 = 1e-4: the hardening coefficient grows by 0.05 at most in the
//     experiment (at 300 Pa; TestPressThenDrop logs it), so the experiment's lumps
//     come from density and stiffness, as the paper's (7) says. Larger values feed back (harder snow carries more stress, which
//     hardens it more) and made stiff scenes unstable in testing.
var DefaultSinteringLaw = SinteringLaw{MaxDensity: 917, C1: 1e-6, C2: 1e-3, C3: -9, C4: 1e-4, C5: 1e-4}

// VonMises returns the von Mises stress of a symmetric stress s (xx, yy, zz, xy, xz,
// yz), equations (3)-(5): sqrt(VM1 + VM2) with
// VM1 = ((s_xx - s_yy)^2 + (s_yy - s_zz)^2 + (s_zz - s_xx)^2) / 2 and
// VM2 = 3 (s_xy^2 + s_yz^2 + s_zx^2).
func VonMises(s [6]float64) float64 {
	dxy, dyz, dzx := s[0]-s[1], s[1]-s[2], s[2]-s[0]
	vm1 := (dxy*dxy + dyz*dyz + dzx*dzx) / 2
	vm2 := 3 * (s[3]*s[3] + s[5]*s[5] + s[4]*s[4])
	return math.Sqrt(vm1 + vm2)
}

// Densify returns the density after a step dt, equation (2):
// rho' = rho + dt rho (C1 sigma_m / rho_r + C2 |b|) with rho_r = rho / rho_max (6),
// for von Mises stress sigmaM and external force magnitude force. Both terms are
// non-negative, so density never falls; it is capped at rho_max.
func (l *SinteringLaw) Densify(rho, sigmaM, force, dt float64) float64 {
	rhoR := rho / l.MaxDensity
	next := rho + dt*rho*(l.C1*sigmaM/rhoR+l.C2*force)
	return math.Min(next, l.MaxDensity)
}

// Maxima returns E_max and nu_max of equation (8) for a particle that starts with
// Young's modulus e0, Poisson's ratio nu0 and relative density rhoR0: the values that
// make equation (7) give back e0 and nu0 at rhoR0, so that turning sintering on changes
// nothing until the snow densifies. For E that is the paper's E_max = E0 / exp(C3 (1 -
// rho_r^0)). For nu the paper prints nu_max = nu0 sqrt(rho_r^0 / (3 - rho_r^0)), which
// makes (7) return a far smaller ratio than nu0 at rho_r^0 (0.01 for its Table 1, where
// nu0 = 0.2); the inverse, nu0 / sqrt(rho_r^0 / (3 - 2 rho_r^0)), is what the paper's
// "instead of manually specifying" asks for, and is used here.
func (l *SinteringLaw) Maxima(e0, nu0, rhoR0 float64) (eMax, nuMax float64) {
	return e0 / math.Exp(l.C3*(1-rhoR0)), nu0 / densityFactor(rhoR0)
}

// Elasticity returns Young's modulus and Poisson's ratio at relative density rhoR,
// equation (7): E = E_max exp(C3 (1 - rho_r)), nu = nu_max sqrt(rho_r / (3 - 2 rho_r)).
func (l *SinteringLaw) Elasticity(rhoR, eMax, nuMax float64) (e, nu float64) {
	return eMax * math.Exp(l.C3*(1-rhoR)), nuMax * densityFactor(rhoR)
}

// densityFactor is sqrt(rho_r / (3 - 2 rho_r)), Poisson's ratio's growth with relative
// density in equation (7): 1 at full density.
func densityFactor(rhoR float64) float64 { return math.Sqrt(rhoR / (3 - 2*rhoR)) }

// Harden returns the hardening coefficient after a step dt, equation (9) as a rate:
// xi' = xi + dt (C4 sigma_m + C5 |b|).
func (l *SinteringLaw) Harden(xi, sigmaM, force, dt float64) float64 {
	return xi + dt*(l.C4*sigmaM+l.C5*force)
}

// Validate reports a law that cannot describe snow of initial density rho0 and
// Poisson's ratio nu0: rho0 must lie below rho_max, the rates must not be negative,
// and Poisson's ratio must stay below 1/2 up to full density, where equation (7) gives
// nu_max. The error is a *SettingError naming "sintering." and the parameter, or
// "sintering" for the law as a whole.
func (l *SinteringLaw) Validate(rho0, nu0 float64) error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	for _, c := range []struct {
		name string
		v    float64
	}{{"C1", l.C1}, {"C2", l.C2}, {"C4", l.C4}, {"C5", l.C5}} {
		if !finite(c.v) || c.v < 0 {
			return badSetting("sintering."+c.name, "%g: must be >= 0", c.v)
		}
	}
	switch {
	case !finite(l.C3):
		return badSetting("sintering.C3", "%g: must be finite", l.C3)
	case !finite(l.MaxDensity) || !(l.MaxDensity > rho0):
		return badSetting("sintering.rho_max", "%g: must exceed the snow's density rho0 = %g", l.MaxDensity, rho0)
	}
	if _, nuMax := l.Maxima(1, nu0, rho0/l.MaxDensity); !(nuMax < 0.5) {
		return badSetting("sintering", "Poisson's ratio would reach %.3g at rho_max = %g (from nu = %g at rho0 = %g): "+
			"it must stay below 0.5; lower nu or raise rho0", nuMax, l.MaxDensity, nu0, rho0)
	}
	return nil
}

// sintering reports whether the sintering window is open at time t.
func (s *Sim) sintering(t float64) bool {
	return t >= s.cfg.SinterStart && (s.cfg.SinterEnd == 0 || t < s.cfg.SinterEnd)
}

// sinter applies the laws to every sintering particle, between stages 3 and 4 as the
// paper does: the von Mises stress of its Cauchy stress sigma = tau / J (the stress the
// forces of stage 3 used, kept as V^0 tau), then equation (7) from the relative density
// rho_r^n, (2) and (9). The new E and nu become the particle's Lamé parameters mu_0 and
// lambda_0, which equation (2) of Stomakhin et al. hardens with J_P as before. |b| is
// the presses' force on the particle per unit initial volume (press.go); gravity does
// not count: it pulls every particle alike and does not press snow together.
func (s *Sim) sinter(dt float64) {
	p := s.P
	if p.Sinter == nil {
		return // no particle sinters
	}
	parallel.Ranges(s.threads, p.Len(), 4096, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			pm, ps := &p.Mat[i], &p.Sinter[i]
			if ps.MaxDensity == 0 || p.Vol0[i] == 0 {
				continue
			}
			j := p.FE[i].mat3().Det() * float64(p.JP[i])
			var sigma [6]float64
			for k, v := range p.stress[i] {
				sigma[k] = float64(v) / (float64(p.Vol0[i]) * j)
			}
			sigmaM := VonMises(sigma)
			force := s.pressDensity(p.X[i]).Norm()
			law := ps.law()
			rho := float64(ps.Density)
			e, nu := law.Elasticity(rho/law.MaxDensity, float64(ps.EMax), float64(ps.NuMax))
			mu, lambda := Material{YoungsModulus: e, PoissonRatio: nu}.Lame()
			pm.Mu0, pm.Lambda0 = float32(mu), float32(lambda)
			ps.Density = float32(law.Densify(rho, sigmaM, force, dt))
			pm.Xi = float32(law.Harden(float64(pm.Xi), sigmaM, force, dt))
		}
	})
}
