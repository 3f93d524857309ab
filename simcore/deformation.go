package simcore

import "math"

// updateDeformation is stage 7 for particle i (section 7): the trial elastic gradient
// F^_E = (I + dt grad v_p^{n+1}) F_E^n of equation (11), its SVD U S^ V^T, and the
// singular values clamped to [1 - theta_c, 1 + theta_s] (equation 12): F_E = U S V^T,
// and the excess goes to F_P. Only J_P = det F_P enters the model (equation 2), and
// F_P^{n+1} = V S^-1 S^ V^T F_P^n, so J_P^{n+1} = J_P^n det S^ / det S.
//
// The same SVD gives R_E = U V^T, so the stress that the next step's forces need is
// computed here: one SVD per particle per step. It returns J_E = det F_E and the
// hardened Lamé parameters.
func (s *Sim) updateDeformation(i int32, dt float64, gradV Mat3) (jE, mu, lambda float64) {
	p := s.P
	pm := &p.Mat[i]
	fe := p.FE[i].Mat3()
	step := gradV.Scale(dt) // I + dt grad v
	step[0], step[4], step[8] = step[0]+1, step[4]+1, step[8]+1
	fHat := step.Mul(fe)
	u, sig, v := SVD3(fHat)

	lo, hi := 1-float64(pm.ThetaC), 1+float64(pm.ThetaS)
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
	p.FE[i] = Mat3fOf(fHat)

	jE = sig[0] * sig[1] * sig[2]
	mu, lambda = pm.hardened(float64(p.JP[i]))
	p.stress[i] = kirchhoffStress(u, sig, jE, float64(p.Vol0[i]), mu, lambda)
	return jE, mu, lambda
}

// composeSVD returns U diag(s) V^T.
func composeSVD(u Mat3, s Vec3, v Mat3) Mat3 {
	var m Mat3
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
func kirchhoffStress(u Mat3, sig Vec3, jE, vol0, mu, lambda float64) Sym3f {
	vol := lambda * (jE - 1) * jE
	var d Vec3
	for k := range d {
		d[k] = vol0 * (2*mu*(sig[k]-1)*sig[k] + vol)
	}
	// (U diag(d) U^T)_rc = sum_k U_rk d_k U_ck
	at := func(r, c int) float32 {
		return float32(u[3*r]*d[0]*u[3*c] + u[3*r+1]*d[1]*u[3*c+1] + u[3*r+2]*d[2]*u[3*c+2])
	}
	return Sym3f{at(0, 0), at(1, 1), at(2, 2), at(0, 1), at(0, 2), at(1, 2)}
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
