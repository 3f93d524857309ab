package simcore

import (
	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
)

// Particles is the material points' state, as structure-of-arrays: every slice has one
// entry per particle. Positions and velocities are float64; the deformation state is
// float32, which is ample for F_E (its singular values stay within [1-theta_c, 1+theta_s])
// and keeps a particle near 249 bytes including the solver's per-step scratch (36 more
// when it sinters, 180 more for the semi-implicit integrator's per-particle Hessians,
// 24 more when it keeps its rest position).
// Every field is a channel of the table Channels (particle_channels.go), which the code
// that handles all fields follows: a new field needs its line there.
type Particles struct {
	ID   []int32            // persistent identity; the solver reorders particles for locality
	X    []geom.Vec3        // position x_p (m)
	V    []geom.Vec3        // velocity v_p (m/s)
	Mass []float32          // m_p (kg)
	Vol0 []float32          // V_p^0 (m^3), set by stage 2 of the first step; 0 until then
	FE   []Mat3f            // elastic deformation gradient F_E
	JP   []float32          // J_P = det F_P, the plastic volume ratio: the only part of F_P the model needs
	Mat  []ParticleMaterial // constitutive parameters, per particle (section 10)
	// Sinter is the pressure-sintering law and state per particle (sintering.go): nil
	// while no particle sinters, else one entry per particle (zero where it does not).
	Sinter []ParticleSintering
	// Affine is the APIC transfer's affine velocity C_p (1/s, apic.go): nil unless the
	// simulation uses that transfer.
	Affine []Mat3f
	// Rho0 is the rest density rho_p^0 (kg/m^3) that the particle was seeded with: its
	// mass over its share of the seeded volume, h^3 / PerCell for Fill, which is the
	// material's rho_0 after Variation. 0 for a particle that nobody gave one (Add).
	// It is what Density reports; the solver's forces use Vol0 instead (see Density).
	Rho0 []float32
	// Rest is the rest position (m): where the particle was seeded, which point-deform
	// tools (Houdini's Point Deform, Blender's geometry nodes) pair with its position
	// now. nil unless KeepRestPositions asked for it: the solver never reads it.
	Rest []geom.Vec3
	// Quiet is how long (s) the grid around the particle has been at rest, up to
	// Config.SleepTime, when the particle's group of the sparse grid falls asleep
	// (sleep.go): nil unless the simulation lets snow sleep.
	Quiet []float32

	// stress is V_p^0 times the Kirchhoff stress dPsi/dF_E F_E^T of the current F_E (so that
	// V_p^n sigma_p of equation (6) is just this). It is computed at the end of a step from
	// that step's SVD, which also gives R_E, and scattered as forces at the start of the next.
	stress []sym3f
}

// Mat3f is a 3x3 matrix stored in float32, row-major.
type Mat3f [9]float32

// mat3 widens m to float64.
func (m *Mat3f) mat3() linalg.Mat3 {
	var a linalg.Mat3
	for i, x := range m {
		a[i] = float64(x)
	}
	return a
}

// mat3fOf narrows a to float32.
func mat3fOf(a linalg.Mat3) Mat3f {
	var m Mat3f
	for i, x := range a {
		m[i] = float32(x)
	}
	return m
}

// set narrows a into m.
func (m *Mat3f) set(a *linalg.Mat3) {
	for i, x := range a {
		m[i] = float32(x)
	}
}

// sym3f is a symmetric 3x3 matrix in float32: xx, yy, zz, xy, xz, yz.
type sym3f [6]float32

// Len returns the number of particles.
func (p *Particles) Len() int { return len(p.X) }

// Add appends one undeformed particle (F_E = I, J_P = 1) and returns its index.
func (p *Particles) Add(x, v geom.Vec3, mass float64, m ParticleMaterial) int {
	i := p.Len()
	p.extend(1)
	p.set(i, x, v, mass, m)
	return i
}

// extend appends k particles whose every channel is zero (an Optional channel that p
// lacks stays nil), for set to fill in. Fill makes room for a batch at once: a call
// per channel and particle would cost more than the rest of seeding one.
func (p *Particles) extend(k int) {
	for i := range Channels {
		if c := &Channels[i]; c.Present(p) {
			c.data.extend(p, k)
		}
	}
}

// Reserve makes room for n particles in every channel that p carries, and in the
// Optional ones that seeding adds later (setOptional), so that seeding up to n particles
// (Add, Fill) allocates each channel once. Without it the channels grow by appending,
// each growth a copy that holds the old and the new array at once: seeding a million
// particles then peaked at 420 bytes of resident memory per particle against the
// 150 that they hold (BenchmarkPeakRSS). Call it before seeding with the number of
// particles expected (snowsim estimates it, to within a percent, before it seeds); a
// small excess costs no resident memory, and a shortfall only the growth that Reserve
// would have spared.
func (p *Particles) Reserve(n int) {
	for i := range Channels {
		if c := &Channels[i]; c.Present(p) {
			c.data.reserve(p, n)
		}
	}
}

// set makes particle i an undeformed one (F_E = I, J_P = 1, ID i) at x with velocity v,
// its mass and material m. The channels it leaves alone start at zero.
func (p *Particles) set(i int, x, v geom.Vec3, mass float64, m ParticleMaterial) {
	p.ID[i] = int32(i)
	p.X[i], p.V[i] = x, v
	p.Mass[i] = float32(mass)
	p.FE[i] = mat3fOf(linalg.Identity3)
	p.JP[i] = 1
	p.Mat[i] = m
	if p.Rest != nil {
		p.Rest[i] = x
	}
}

// KeepRestPositions makes p carry rest positions (the Rest channel) from now on: the
// particles it holds get their positions now, and every particle that Add or Fill
// seeds later gets the position it is seeded at. Call it before seeding, so that
// "now" is the seeding; it does nothing if p carries them already.
func (p *Particles) KeepRestPositions() {
	if p.Rest == nil {
		p.Rest = make([]geom.Vec3, p.Len(), cap(p.X)) // not nil even for no particle: Present; as reserved
		copy(p.Rest, p.X)
	}
}

// setSintering gives particle i the sintering law and state ps (setOptional).
func (p *Particles) setSintering(i int, ps ParticleSintering) {
	setOptional(&p.Sinter, p.Len(), i, ps, cap(p.X))
}

// setAffine gives particle i the APIC affine velocity C (setOptional).
func (p *Particles) setAffine(i int, C Mat3f) { setOptional(&p.Affine, p.Len(), i, C, cap(p.X)) }

// setOptional sets value i of an Optional channel col of n particles to v, making room
// for all n the first time a value is not zero: a channel stays nil while every
// particle would hold zero in it. The new channel has the capacity of the positions,
// so that what Reserve reserved holds for it too.
func setOptional[T comparable](col *[]T, n, i int, v T, capacity int) {
	if *col == nil {
		var zero T
		if v == zero {
			return
		}
		*col = make([]T, n, max(n, capacity))
	}
	(*col)[i] = v
}

// VolumeRatio returns J = det F_E J_P = V_p^n / V_p^0, the particle's volume now over
// its volume at rest: 1 as seeded, below 1 where the snow has been packed.
func (p *Particles) VolumeRatio(i int) float64 {
	return p.FE[i].mat3().Det() * float64(p.JP[i])
}

// Density returns the particle's current mass density rho_p^0 / J (kg/m^3), J from
// VolumeRatio: the rest density Rho0 over the volume ratio, so that snow at rest reads
// the density it was seeded with. A particle without Rho0 falls back to stage 2's
// estimate m_p / V_p^0, and reads 0 until the first step has measured V_p^0.
//
// Stage 2's V_p^0 is not used here because it is the paper's quadrature weight for
// equation (6), not the particle's volume: rho_p^0 = sum_i m_i w_ip / h^3 smooths the
// mass over the kernel's 4h support, so it is right in the body's interior (to 0.2%
// for jittered seeding, measured beyond 2h of every face) and falls off towards every
// surface, floors and walls included: about 0.58 rho_0 within h/2 of a face, 0.78 at
// h/2 to h, 0.92 at h to 1.5h, and 0.2 rho_0 at a corner. Half the particles of a body
// 10 to 20 cells across lie within 2h of its surface, so its mean read 0.8-0.88 rho_0.
func (p *Particles) Density(i int) float64 {
	j := p.VolumeRatio(i)
	if p.Rho0[i] > 0 {
		return float64(p.Rho0[i]) / j
	}
	if p.Vol0[i] == 0 {
		return 0
	}
	return float64(p.Mass[i]) / (float64(p.Vol0[i]) * j)
}

// Orientation returns the rotation of the particle's material as a unit quaternion
// w + x i + y j + z k with w >= 0 (linalg.RotationQuat): the rotation R of the polar
// decomposition F_E = R S of its elastic deformation gradient, S symmetric. F_E maps
// the material's rest neighbourhood to the present one, so R is how far the material
// has turned since it was seeded, stretch and squash aside (they are S); snow that
// only slides or falls keeps the identity. Plasticity (section 7) clamps the singular
// values of F_E = U Sigma V^T and keeps U and V, so it leaves R = U V^T alone: R
// follows the snow's turn through yielding too. A point-deform tool turns the rest
// mesh around the particle by it.
func (p *Particles) Orientation(i int) (w, x, y, z float64) {
	R, _ := linalg.Polar3(p.FE[i].mat3())
	return linalg.RotationQuat(R)
}

// SinteredDensity returns the density rho of Ye and Sugimoto's pressure sintering
// (equation 2, ParticleSintering.Density) for a particle that sinters, and Density
// for one that does not (kg/m^3). The sintering density is the model's own state: it
// starts at the material's rho_0 and grows with stress and pressing (sintering.go),
// apart from J.
func (p *Particles) SinteredDensity(i int) float64 {
	if p.Sinter != nil && p.Sinter[i].MaxDensity != 0 {
		return float64(p.Sinter[i].Density)
	}
	return p.Density(i)
}

// trim drops the spare capacity that appending left in every channel (beyond what
// trimmed keeps): particles are most of the solver's memory.
func (p *Particles) trim() {
	for k := range Channels {
		Channels[k].data.trim(p)
	}
}

// permute moves particle i to index dest[i] for every i, in every channel. dest is
// consumed: it is left as the identity.
func (p *Particles) permute(dest []int32) {
	for k := range Channels {
		Channels[k].data.permute(p, dest)
	}
	for i := range dest {
		dest[i] = int32(i)
	}
}
