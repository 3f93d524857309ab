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
// With n(x) = Noise{NoiseSeed}.At(x / NoiseScale) in [-1, 1], phi the signed
// distance of the particle to the source's surface and t(x) in [0, 1] the chunk
// pattern below, a particle at x gets
//
//	E_0     = E_0^base     (1 + StiffnessNoise n(x)) (ShellStiffness if phi > -ShellThickness) blend(SeamStiffness, ChunkStiffness, t(x))
//	theta_s = theta_s^base (1 + StretchNoise n(x))                                            blend(SeamStrength, ChunkStrength, t(x))
//	theta_c = theta_c^base                                                                    blend(SeamStrength, ChunkStrength, t(x))
//	rho_0   = rho_0^base                             (ShellDensity if phi > -ShellThickness)
//
// and, through rho_0, the mass rho_0 h^3 / PerCell. The three variations are factors,
// so they combine by multiplication, in any order: a shell particle on a seam is both
// harder (shell) and weaker (seam). One noise field drives both E_0 and theta_s, so
// stiff regions are also the ones that stretch further before they break.
//
// The chunk pattern cuts space into Voronoi cells about ChunkSize across (Cells, at
// lattice spacing ChunkSize, seeded by NoiseSeed) and weakens a band of full width
// SeamWidth around every cell face. With d(x) the distance from x to the nearest face
// of its cell (Cells.FaceDistance, in metres),
//
//	t(x) = min(1, 2 d(x) / SeamWidth),  blend(s, c, t) = exp((1 - t) ln s + t ln c) = s^(1-t) c^t:
//
// on a face the seam factors apply, from SeamWidth/2 inside a cell on the chunk
// factors, and between the factors change geometrically (log-linearly), so that a
// seam 0.2 and a chunk 10 meet at 1.4 in the middle of the band rather than 5.1.
// Scaling theta_c and theta_s together scales the yield strain of section 7 in
// compression and in stretch: seams yield (and, once stretched, soften and crack)
// long before the chunk cores, so the failure that the noise alone spreads over the
// whole ball (docs/fracture.md) runs along the seams and leaves the chunks whole.
type Variation struct {
	NoiseScale     float64 // lattice spacing of the noise (m): about the size of the chunks; 0 for no noise
	NoiseSeed      uint64  // seed of the noise field and the chunk pattern: sources with one seed share them
	StiffnessNoise float64 // relative amplitude of E_0 variation, in [0, 1)
	StretchNoise   float64 // relative amplitude of theta_s variation, in [0, 1)

	ShellThickness float64 // particles with phi > -ShellThickness (m) form the shell; 0 for none
	ShellStiffness float64 // factor on E_0 in the shell; 0 is read as 1
	ShellDensity   float64 // factor on rho_0 (and so on mass) in the shell; 0 is read as 1

	ChunkSize      float64 // lattice spacing of the chunk pattern (m): about the size of the chunks; 0 for none
	SeamWidth      float64 // full width (m) of the weak band around each chunk face, in (0, ChunkSize]
	ChunkStrength  float64 // factor on theta_c and theta_s in chunk cores; 0 is read as 1
	SeamStrength   float64 // factor on theta_c and theta_s on the seams; 0 is read as 1
	ChunkStiffness float64 // factor on E_0 in chunk cores; 0 is read as 1
	SeamStiffness  float64 // factor on E_0 on the seams; 0 is read as 1
}

// SetChunks turns on the chunk pattern with chunks about size metres across and the
// seams and factors measured to break a thrown snowball into chunks and powder
// (docs/fracture.md, point 9): seams a third of the chunk size wide, theta_c and
// theta_s times 10 in the cores and 0.2 on the seams, E_0 times 2 and 0.3. A scene
// that names only chunk_size gets these; any of them can still be set on its own.
// (A Variation with ChunkSize and SeamWidth but no factors varies nothing: the factors
// are what weaken the seams.)
func (v *Variation) SetChunks(size float64) {
	v.ChunkSize, v.SeamWidth = size, size/3
	v.ChunkStrength, v.SeamStrength = 10, 0.2
	v.ChunkStiffness, v.SeamStiffness = 2, 0.3
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
	return v.validateChunks()
}

// validateChunks checks the chunk pattern's knobs (see Validate).
func (v Variation) validateChunks() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	for _, f := range []struct {
		name  string
		value float64
	}{{"chunk_strength", v.ChunkStrength}, {"seam_strength", v.SeamStrength},
		{"chunk_stiffness", v.ChunkStiffness}, {"seam_stiffness", v.SeamStiffness}} {
		if !finite(f.value) || f.value < 0 {
			return badSetting(f.name, "%g: must be > 0 (a factor; 0 means 1)", f.value)
		}
	}
	switch {
	case !finite(v.ChunkSize) || v.ChunkSize < 0:
		return badSetting("chunk_size", "%g: must be >= 0 (m)", v.ChunkSize)
	case !finite(v.SeamWidth) || v.SeamWidth < 0:
		return badSetting("seam_width", "%g: must be >= 0 (m)", v.SeamWidth)
	case v.ChunkSize == 0 && v.chunkFactorsVary():
		return badSetting("chunk_size", "0: the chunk and seam factors need a chunk size > 0 (m)")
	case v.ChunkSize == 0 && v.SeamWidth > 0:
		return badSetting("chunk_size", "0: a seam width of %g m needs a chunk size > 0 (m)", v.SeamWidth)
	case v.ChunkSize > 0 && v.SeamWidth == 0:
		return badSetting("seam_width", "0: chunks of %g m need seams of width > 0 (m)", v.ChunkSize)
	case v.SeamWidth > v.ChunkSize:
		return badSetting("seam_width", "%g: must be at most the chunk size %g m, or the seams leave no chunk cores", v.SeamWidth, v.ChunkSize)
	}
	return nil
}

// ValidateFor validates v (see Validate) and the material it makes of base: the
// strongest strength factor must keep theta_c below 1, or the clamp of section 7
// would allow singular values of F_E down to zero or below.
func (v Variation) ValidateFor(base Material) error {
	if err := v.Validate(); err != nil {
		return err
	}
	if v.ChunkSize == 0 {
		return nil
	}
	name, f := "chunk_strength", factor(v.ChunkStrength)
	if s := factor(v.SeamStrength); s > f {
		name, f = "seam_strength", s
	}
	if thetaC := base.CriticalCompression * f; thetaC >= 1 {
		return badSetting(name, "%g: theta_c %g x %g = %g: must stay below 1", f, base.CriticalCompression, f, thetaC)
	}
	return nil
}

// chunkFactorsVary reports whether some chunk or seam factor is not 1.
func (v Variation) chunkFactorsVary() bool {
	return factor(v.ChunkStrength) != 1 || factor(v.SeamStrength) != 1 ||
		factor(v.ChunkStiffness) != 1 || factor(v.SeamStiffness) != 1
}

// active reports whether v changes any particle's material.
func (v Variation) active() bool {
	noise := v.NoiseScale > 0 && (v.StiffnessNoise > 0 || v.StretchNoise > 0)
	shell := v.ShellThickness > 0 && (factor(v.ShellStiffness) != 1 || factor(v.ShellDensity) != 1)
	chunks := v.ChunkSize > 0 && v.chunkFactorsVary()
	return noise || shell || chunks
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
	if v.ChunkSize > 0 && v.chunkFactorsVary() {
		t := v.ChunkCore(x)
		strength := blend(factor(v.SeamStrength), factor(v.ChunkStrength), t)
		m.CriticalCompression *= strength
		m.CriticalStretch *= strength
		m.YoungsModulus *= blend(factor(v.SeamStiffness), factor(v.ChunkStiffness), t)
	}
	return m
}

// ChunkCore returns t(x) = min(1, 2 d(x) / SeamWidth) of the chunk pattern (see
// Variation): 0 on a chunk face, 1 in a chunk's core. v.ChunkSize must be > 0.
func (v Variation) ChunkCore(x geom.Vec3) float64 {
	d := Cells{Seed: v.NoiseSeed}.FaceDistance(x.Scale(1/v.ChunkSize)) * v.ChunkSize
	return min(1, 2*d/v.SeamWidth)
}

// blend returns seam^(1-t) chunk^t, the factor at t between a seam and a chunk core.
func blend(seam, chunk, t float64) float64 {
	return math.Exp((1-t)*math.Log(seam) + t*math.Log(chunk))
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
