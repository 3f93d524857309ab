package simcore

import (
	"math"
	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
)

// updateDeformation is stage 7 for particle i (section 7): the trial elastic gradient
// F^_E = (I + dt grad v_p^{n+1}) F_E^n of equation (11), its SVD U S^ V^T, and the
// singular values clamped to [1 - theta_c, 1 + theta_s] (equation 12): F_E = U S V^T,
// and the excess goes to F_P. Only J_P = det F_P enters the model (equation 2), and
// F_P^{n+1} = V S^-1 S^ V^T F_P^n, so J_P^{n+1} = J_P^n det S^ / det S.
//
// The same SVD gives R_E = U V^T, so the stress that the next step's forces need is
// computed here: one SVD per particle per step, or none when nothing is clamped. It
// returns J_E = det F_E and the hardened Lamé parameters.
//
// Matrices go by pointer here and in the helpers of the elastic case: a 3x3 array
// passed or returned by value is copied through the stack in 16-byte pieces just after
// being written in 8-byte ones, and each such copy waits for the stores to complete.
func (s *Sim) updateDeformation(i int32, dt float64, gradV *linalg.Mat3) (jE, mu, lambda float64) {
	p := s.P
	pm := &p.Mat[i]
	var fHat linalg.Mat3
	trialElastic(&fHat, &p.FE[i], gradV, dt)
	lo, hi := 1-float64(pm.ThetaC), 1+float64(pm.ThetaS)

	if det := fHat.Det(); singularValuesWithinDet(&fHat, det, lo, hi) {
		// Nothing to clamp, which is most particles in most steps: F_E = F^_E, J_P is
		// unchanged, and the stress needs only R_E, which a few Newton steps give for
		// an F_E this close to a rotation, at a fraction of the cost of an SVD.
		var r linalg.Mat3
		nearRotation(&r, &fHat)
		p.FE[i].set(&fHat)
		jE = det
		mu, lambda = hardenedAt(pm, p.JP[i])
		kirchhoffStressPolar(&p.stress[i], &fHat, &r, jE, float64(p.Vol0[i]), mu, lambda)
		return jE, mu, lambda
	}

	u, sig, v := linalg.SVD3(fHat)
	clamped := sig
	for k, x := range clamped {
		if x < lo {
			clamped[k] = lo
		} else if x > hi {
			clamped[k] = hi
		}
	}
	if clamped != sig {
		// A negative singular value (an inverted F^_E) is clamped to 1 - theta_c: the
		// inversion is treated as compression, and J_P keeps its magnitude.
		ratio := math.Abs(sig[0]*sig[1]*sig[2]) / (clamped[0] * clamped[1] * clamped[2])
		p.JP[i] = float32(float64(p.JP[i]) * ratio)
		fHat = composeSVD(u, clamped, v)
		sig = clamped
	}
	p.FE[i].set(&fHat)

	jE = sig[0] * sig[1] * sig[2]
	mu, lambda = pm.hardened(float64(p.JP[i]))
	p.stress[i] = kirchhoffStress(u, sig, jE, float64(p.Vol0[i]), mu, lambda)
	return jE, mu, lambda
}

// hardenedAt is pm.hardened(jp): at J_P = 1, snow that has never yielded, the
// factor exp(xi (1 - J_P)) is exactly 1 and the exponential is skipped.
func hardenedAt(pm *ParticleMaterial, jp float32) (mu, lambda float64) {
	if jp == 1 {
		return float64(pm.Mu0), float64(pm.Lambda0)
	}
	return pm.hardened(float64(jp))
}

// trialElastic sets f to the trial elastic gradient F^_E = (I + dt grad v) F_E of
// equation (11).
func trialElastic(f *linalg.Mat3, fe *Mat3f, gradV *linalg.Mat3, dt float64) {
	if useAVX2 {
		trialElasticAVX2(f, fe, gradV, dt)
		return
	}
	trialElasticGo(f, fe, gradV, dt)
}

// trialElasticGo is trialElastic in Go, which trialElasticAVX2 does with vectors.
func trialElasticGo(f *linalg.Mat3, fe *Mat3f, gradV *linalg.Mat3, dt float64) {
	for c := 0; c < 3; c++ {
		e0, e1, e2 := float64(fe[c]), float64(fe[3+c]), float64(fe[6+c])
		for r := 0; r < 3; r++ {
			f[3*r+c] = float64(fe[3*r+c]) + dt*(gradV[3*r]*e0+gradV[3*r+1]*e1+gradV[3*r+2]*e2)
		}
	}
}

// singularValuesWithin reports whether all singular values of f lie strictly inside
// (lo, hi) with det f > 0 (0 < lo < hi), without an SVD: the eigenvalues of f^T f must
// then lie inside (lo^2, hi^2), that is f^T f - lo^2 I and hi^2 I - f^T f must both be
// positive definite, which Sylvester's criterion (positive leading principal minors)
// decides. A singular value within rounding of lo or hi may go either way; both answers
// are right to that rounding. NaN gives false.
func singularValuesWithin(f *linalg.Mat3, lo, hi float64) bool {
	return singularValuesWithinDet(f, f.Det(), lo, hi)
}

// singularValuesWithinDet is singularValuesWithin given det f, which stage 7 needs too.
func singularValuesWithinDet(f *linalg.Mat3, det, lo, hi float64) bool {
	if !(det > 0) {
		return false
	}
	// c = f^T f, symmetric: c_ij = column i . column j.
	c00 := f[0]*f[0] + f[3]*f[3] + f[6]*f[6]
	c11 := f[1]*f[1] + f[4]*f[4] + f[7]*f[7]
	c22 := f[2]*f[2] + f[5]*f[5] + f[8]*f[8]
	c01 := f[0]*f[1] + f[3]*f[4] + f[6]*f[7]
	c02 := f[0]*f[2] + f[3]*f[5] + f[6]*f[8]
	c12 := f[1]*f[2] + f[4]*f[5] + f[7]*f[8]
	l, h := lo*lo, hi*hi
	return positiveDefinite(c00-l, c11-l, c22-l, c01, c02, c12) &&
		positiveDefinite(h-c00, h-c11, h-c22, -c01, -c02, -c12)
}

// positiveDefinite applies Sylvester's criterion to the symmetric matrix
// [[a, d, e], [d, b, f], [e, f, c]].
func positiveDefinite(a, b, c, d, e, f float64) bool {
	m2 := a*b - d*d
	return a > 0 && m2 > 0 && m2*c-a*f*f-b*e*e+2*d*e*f > 0
}

// nearRotation sets r to the rotation R of the polar decomposition f = R S for an f whose
// singular values are positive and within a few percent of 1, as the plastic clamp keeps
// F^_E's. Newton's iteration R <- (R + R^-T)/2 from R = f (Higham 1986) squares the
// error |sigma - 1| each step and halves it: from the 0.025 of theta_c, three steps
// reach 1e-15.
func nearRotation(r, f *linalg.Mat3) {
	if useAVX2 {
		nearRotationAVX2(r, f)
		return
	}
	nearRotationGo(r, f)
}

// nearRotationGo is nearRotation in Go, which nearRotationAVX2 does with vectors.
func nearRotationGo(r, f *linalg.Mat3) {
	*r = *f
	for range 3 {
		// The cofactors of r, which are det(r) r^-T.
		c0, c1, c2 := r[4]*r[8]-r[5]*r[7], r[5]*r[6]-r[3]*r[8], r[3]*r[7]-r[4]*r[6]
		c3, c4, c5 := r[2]*r[7]-r[1]*r[8], r[0]*r[8]-r[2]*r[6], r[1]*r[6]-r[0]*r[7]
		c6, c7, c8 := r[1]*r[5]-r[2]*r[4], r[2]*r[3]-r[0]*r[5], r[0]*r[4]-r[1]*r[3]
		k := 0.5 / (r[0]*c0 + r[1]*c1 + r[2]*c2)
		r[0], r[1], r[2] = 0.5*r[0]+k*c0, 0.5*r[1]+k*c1, 0.5*r[2]+k*c2
		r[3], r[4], r[5] = 0.5*r[3]+k*c3, 0.5*r[4]+k*c4, 0.5*r[5]+k*c5
		r[6], r[7], r[8] = 0.5*r[6]+k*c6, 0.5*r[7]+k*c7, 0.5*r[8]+k*c8
	}
}

// composeSVD returns U diag(s) V^T.
func composeSVD(u linalg.Mat3, s geom.Vec3, v linalg.Mat3) linalg.Mat3 {
	var m linalg.Mat3
	for r := 0; r < 3; r++ {
		a, b, c := u[3*r]*s[0], u[3*r+1]*s[1], u[3*r+2]*s[2]
		m[3*r] = a*v[0] + b*v[1] + c*v[2]
		m[3*r+1] = a*v[3] + b*v[4] + c*v[5]
		m[3*r+2] = a*v[6] + b*v[7] + c*v[8]
	}
	return m
}

// kirchhoffStress returns V^0 dPsi/dF_E F_E^T for the energy of equation (1),
// Psi = mu ||F_E - R_E||^2 + lambda/2 (J_E - 1)^2 with the hardened mu and lambda of
// equation (2). With F_E = U S V^T and R_E = U V^T, dPsi/dF_E = 2 mu (F_E - R_E) +
// lambda (J_E - 1) J_E F_E^-T, so dPsi/dF_E F_E^T = U diag(2 mu (s_k - 1) s_k +
// lambda (J_E - 1) J_E) U^T: symmetric, and V^0 times it is V_p^n sigma_p of equation (6).
func kirchhoffStress(u linalg.Mat3, sig geom.Vec3, jE, vol0, mu, lambda float64) sym3f {
	vol := lambda * (jE - 1) * jE
	var d geom.Vec3
	for k := range d {
		d[k] = vol0 * (2*mu*(sig[k]-1)*sig[k] + vol)
	}
	// (U diag(d) U^T)_rc = sum_k U_rk d_k U_ck
	at := func(r, c int) float32 {
		return float32(u[3*r]*d[0]*u[3*c] + u[3*r+1]*d[1]*u[3*c+1] + u[3*r+2]*d[2]*u[3*c+2])
	}
	return sym3f{at(0, 0), at(1, 1), at(2, 2), at(0, 1), at(0, 2), at(1, 2)}
}

// kirchhoffStressPolar sets st to kirchhoffStress computed from F_E and its rotation R_E
// instead of the SVD: V^0 dPsi/dF_E F_E^T for equation (1) is
// V^0 (2 mu (F_E - R_E) F_E^T + lambda (J_E - 1) J_E I), the same matrix, since
// (F_E - R_E) F_E^T = U (S - I) S U^T.
func kirchhoffStressPolar(st *sym3f, f, r *linalg.Mat3, jE, vol0, mu, lambda float64) {
	vol := lambda * (jE - 1) * jE
	// (2 mu (F - R) F^T)_rc + vol delta_rc = sum_k 2 mu (f_rk - r_rk) f_ck + vol delta_rc
	at := func(i, j int, diag float64) float32 {
		a0, a1, a2 := f[3*i]-r[3*i], f[3*i+1]-r[3*i+1], f[3*i+2]-r[3*i+2]
		return float32(vol0 * (2*mu*(a0*f[3*j]+a1*f[3*j+1]+a2*f[3*j+2]) + diag))
	}
	st[0], st[1], st[2] = at(0, 0, vol), at(1, 1, vol), at(2, 2, vol)
	st[3], st[4], st[5] = at(0, 1, 0), at(0, 2, 0), at(1, 2, 0)
}

// storedWaveSpeed2 is waveSpeed2 of particle i's stored F_E and J_P: its state
// between steps.
func (p *Particles) storedWaveSpeed2(i int) float64 {
	mu, lambda := p.Mat[i].hardened(float64(p.JP[i]))
	return p.waveSpeed2(i, p.FE[i].mat3().Det(), mu, lambda)
}

// fastestWave returns the largest elastic wave speed of the particles' stored states.
func (p *Particles) fastestWave() float64 {
	c2 := 0.0
	for i := range p.X {
		c2 = max(c2, p.storedWaveSpeed2(i))
	}
	return math.Sqrt(c2)
}

// waveSpeed2 returns the square of the elastic (P-wave) speed (lambda + 2 mu)/rho of
// particle i, given its hardened Lamé parameters and J_E; rho is its current density.
func (p *Particles) waveSpeed2(i int, jE, mu, lambda float64) float64 {
	vol := float64(p.Vol0[i]) * math.Abs(jE*float64(p.JP[i]))
	if !(vol > 0) {
		return 0
	}
	return (lambda + 2*mu) * vol / float64(p.Mass[i])
}
