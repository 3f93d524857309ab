package simcore

import (
	"math"
	"snowtools/levelset/geom"
	"snowtools/simcore/hashrand"
)

// Variation makes a source's material vary in space, as section 10 of the paper
// does: "the snowballs were made harder and heavier on the outside with stiffness
// varied with a noise pattern to get chunky fracture". Its zero value varies nothing.
//
// With n(x) = Noise{NoiseSeed}.At(x / NoiseScale) in [-1, 1] and phi the signed
// distance of the particle to the source's surface, a particle at x gets
//
//	E_0     = E_0^base     (1 + StiffnessNoise n(x)) (ShellStiffness if phi > -ShellThickness)
//	theta_s = theta_s^base (1 + StretchNoise n(x))
//	rho_0   = rho_0^base                             (ShellDensity if phi > -ShellThickness)
//
// and, through rho_0, the mass rho_0 h^3 / PerCell. One noise field drives both E_0
// and theta_s, so stiff regions are also the ones that stretch further before they
// break: chunks of strong snow separated by weak seams, where cracks run.
type Variation struct {
	NoiseScale     float64 // lattice spacing of the noise (m): about the size of the chunks; 0 for no noise
	NoiseSeed      uint64  // seed of the noise field: sources with one seed share one field
	StiffnessNoise float64 // relative amplitude of E_0 variation, in [0, 1)
	StretchNoise   float64 // relative amplitude of theta_s variation, in [0, 1)

	ShellThickness float64 // particles with phi > -ShellThickness (m) form the shell; 0 for none
	ShellStiffness float64 // factor on E_0 in the shell; 0 is read as 1
	ShellDensity   float64 // factor on rho_0 (and so on mass) in the shell; 0 is read as 1
}

// Validate reports a knob out of range, as a *SettingError naming it in snake case
// ("noise_scale", "stiffness_noise", ...).
func (v Variation) Validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !finite(v.NoiseScale) || v.NoiseScale < 0:
		return badSetting("noise_scale", "%g: must be >= 0 (m)", v.NoiseScale)
	case !finite(v.StiffnessNoise) || v.StiffnessNoise < 0 || v.StiffnessNoise >= 1:
		return badSetting("stiffness_noise", "%g: must be in [0, 1)", v.StiffnessNoise)
	case !finite(v.StretchNoise) || v.StretchNoise < 0 || v.StretchNoise >= 1:
		return badSetting("stretch_noise", "%g: must be in [0, 1)", v.StretchNoise)
	case (v.StiffnessNoise > 0 || v.StretchNoise > 0) && v.NoiseScale == 0:
		return badSetting("noise_scale", "0: the noise amplitudes %g, %g need a noise scale > 0 (m)", v.StiffnessNoise, v.StretchNoise)
	case !finite(v.ShellThickness) || v.ShellThickness < 0:
		return badSetting("shell_thickness", "%g: must be >= 0 (m)", v.ShellThickness)
	case !finite(v.ShellStiffness) || v.ShellStiffness < 0:
		return badSetting("shell_stiffness", "%g: must be > 0 (a factor; 0 means 1)", v.ShellStiffness)
	case !finite(v.ShellDensity) || v.ShellDensity < 0:
		return badSetting("shell_density", "%g: must be > 0 (a factor; 0 means 1)", v.ShellDensity)
	}
	return nil
}

// active reports whether v changes any particle's material.
func (v Variation) active() bool {
	noise := v.NoiseScale > 0 && (v.StiffnessNoise > 0 || v.StretchNoise > 0)
	shell := v.ShellThickness > 0 && (factor(v.ShellStiffness) != 1 || factor(v.ShellDensity) != 1)
	return noise || shell
}

// factor reads a shell factor, 0 meaning 1.
func factor(f float64) float64 {
	if f == 0 {
		return 1
	}
	return f
}

// InShell reports whether a particle at signed distance phi is in the shell.
func (v Variation) InShell(phi float64) bool {
	return v.ShellThickness > 0 && phi > -v.ShellThickness
}

// Material returns the material of a particle at x with signed distance phi to the
// source surface (see Variation for the formulas). v must be valid.
func (v Variation) Material(base Material, x geom.Vec3, phi float64) Material {
	m := base
	if v.NoiseScale > 0 && (v.StiffnessNoise > 0 || v.StretchNoise > 0) {
		n := Noise{Seed: v.NoiseSeed}.At(x.Scale(1 / v.NoiseScale))
		m.YoungsModulus *= 1 + v.StiffnessNoise*n
		m.CriticalStretch *= 1 + v.StretchNoise*n
	}
	if v.InShell(phi) {
		m.YoungsModulus *= factor(v.ShellStiffness)
		m.Density *= factor(v.ShellDensity)
	}
	return m
}

// Noise is a seeded 3D value-noise field with unit lattice spacing. Each lattice
// point c gets a value v_c uniform in [-1, 1) from a hash of (Seed, c); between them
//
//	n(p) = sum over the 8 corners c of the lattice cell of p of
//	       prod_a (c_a == floor(p_a) ? 1 - s(t_a) : s(t_a)) v_c,   t = p - floor(p),
//
// with the quintic fade s(t) = 6t^5 - 15t^4 + 10t^3, whose first and second
// derivatives vanish at 0 and 1, so that n is C2. The weights are non-negative and sum to 1, so n(p) is in [-1, 1]; its
// partial derivatives are at most max s' * 2 = 3.75 per lattice unit. The same Seed
// gives the same field on every machine (integer hashing, no tables).
type Noise struct{ Seed uint64 }

// At returns n(p).
func (nz Noise) At(p geom.Vec3) float64 {
	var b [3]int
	var s [3]float64
	for a := range 3 {
		f := math.Floor(p[a])
		b[a] = int(f)
		t := p[a] - f
		s[a] = t * t * t * (t*(6*t-15) + 10)
	}
	sum := 0.0
	for c := range 8 {
		w := 1.0
		var q [3]int
		for a := range 3 {
			if c>>a&1 == 0 {
				w *= 1 - s[a]
				q[a] = b[a]
			} else {
				w *= s[a]
				q[a] = b[a] + 1
			}
		}
		v := float64(hashrand.Lattice(nz.Seed, tagNoise, q[0], q[1], q[2])>>11)*0x1p-52 - 1
		sum += w * v
	}
	return sum
}
