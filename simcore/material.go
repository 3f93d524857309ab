package simcore

import (
	"math"
)

// Material holds the parameters of the snow model of section 5, named after Table 2.
type Material struct {
	CriticalCompression float64 // theta_c: singular values of F_E are kept >= 1 - theta_c
	CriticalStretch     float64 // theta_s: singular values of F_E are kept <= 1 + theta_s
	Hardening           float64 // xi in equation (2)
	Density             float64 // rho_0, initial density (kg/m^3)
	YoungsModulus       float64 // E_0, initial Young's modulus (Pa)
	PoissonRatio        float64 // nu
	// Sintering, when not nil, lets pressure sinter the snow (sintering.go): its density,
	// Young's modulus, Poisson's ratio and hardening grow while the simulation's
	// sintering window is open.
	Sintering *SinteringLaw
}

// DefaultMaterial is Table 2 of Stomakhin et al. 2013, "a useful starting point".
var DefaultMaterial = Material{
	CriticalCompression: 2.5e-2,
	CriticalStretch:     7.5e-3,
	Hardening:           10,
	Density:             4.0e2,
	YoungsModulus:       1.4e5,
	PoissonRatio:        0.2,
}

// Lame returns the initial Lamé parameters mu_0 = E/(2(1+nu)) and
// lambda_0 = E nu/((1+nu)(1-2nu)).
func (m Material) Lame() (mu0, lambda0 float64) {
	e, nu := m.YoungsModulus, m.PoissonRatio
	return e / (2 * (1 + nu)), e * nu / ((1 + nu) * (1 - 2*nu))
}

// Validate reports the first parameter that makes no physical sense, as a
// *SettingError that names it as Table 2 does (a sintering law's: see SinteringLaw).
func (m Material) Validate() error {
	bad := func(name string, v float64, want string) error {
		return badSetting(name, "%g: must be %s", v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !finite(m.CriticalCompression) || m.CriticalCompression < 0 || m.CriticalCompression >= 1:
		return bad("theta_c", m.CriticalCompression, "in [0, 1)")
	case !finite(m.CriticalStretch) || m.CriticalStretch < 0:
		return bad("theta_s", m.CriticalStretch, ">= 0")
	case !finite(m.Hardening) || m.Hardening < 0:
		return bad("xi", m.Hardening, ">= 0")
	case !finite(m.Density) || m.Density <= 0:
		return bad("rho0", m.Density, "> 0")
	case !finite(m.YoungsModulus) || m.YoungsModulus <= 0:
		return bad("E0", m.YoungsModulus, "> 0")
	case !finite(m.PoissonRatio) || m.PoissonRatio <= 0 || m.PoissonRatio >= 0.5:
		return bad("nu", m.PoissonRatio, "in (0, 0.5)")
	}
	if m.Sintering != nil {
		return m.Sintering.Validate(m.Density, m.PoissonRatio)
	}
	return nil
}

// ParticleMaterial is the per-particle form of a Material that the time step reads,
// in float32 to keep particles small (section 10 varies these per particle).
type ParticleMaterial struct {
	Mu0, Lambda0 float32 // initial Lamé parameters (Pa); sintering raises them
	Xi           float32 // hardening coefficient; sintering raises it
	ThetaC       float32 // critical compression
	ThetaS       float32 // critical stretch
}

// ParticleSintering is a particle's law and state of pressure sintering, in float32;
// all zero (MaxDensity 0) when the particle does not sinter. It is kept apart from
// ParticleMaterial (in Particles.Sinter) so that snow without sintering does not pay
// its 36 bytes.
type ParticleSintering struct {
	MaxDensity, C1, C2, C3, C4, C5 float32 // the SinteringLaw
	EMax, NuMax                    float32 // equation (8), from the particle's E_0, nu_0 and rho_0
	Density                        float32 // rho, equation (2) (kg/m^3)
}

// law returns the particle's SinteringLaw in float64.
func (ps *ParticleSintering) law() SinteringLaw {
	return SinteringLaw{MaxDensity: float64(ps.MaxDensity), C1: float64(ps.C1), C2: float64(ps.C2),
		C3: float64(ps.C3), C4: float64(ps.C4), C5: float64(ps.C5)}
}

// PerParticle returns the per-particle parameters of m.
func (m Material) PerParticle() ParticleMaterial {
	mu, lambda := m.Lame()
	return ParticleMaterial{
		Mu0: float32(mu), Lambda0: float32(lambda), Xi: float32(m.Hardening),
		ThetaC: float32(m.CriticalCompression), ThetaS: float32(m.CriticalStretch),
	}
}

// PerParticleSintering returns the per-particle sintering law and initial state of m,
// zero when m does not sinter.
func (m Material) PerParticleSintering() ParticleSintering {
	l := m.Sintering
	if l == nil {
		return ParticleSintering{}
	}
	eMax, nuMax := l.Maxima(m.YoungsModulus, m.PoissonRatio, m.Density/l.MaxDensity)
	return ParticleSintering{
		MaxDensity: float32(l.MaxDensity), C1: float32(l.C1), C2: float32(l.C2), C3: float32(l.C3),
		C4: float32(l.C4), C5: float32(l.C5), EMax: float32(eMax), NuMax: float32(nuMax), Density: float32(m.Density),
	}
}

// hardened returns the Lamé parameters of equation (2) for plastic volume ratio jp:
// mu = mu_0 exp(xi (1 - J_P)), lambda = lambda_0 exp(xi (1 - J_P)).
func (pm *ParticleMaterial) hardened(jp float64) (mu, lambda float64) {
	e := math.Exp(float64(pm.Xi) * (1 - jp))
	return float64(pm.Mu0) * e, float64(pm.Lambda0) * e
}
