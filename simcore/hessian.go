package simcore

import "snowtools/simcore/linalg"

// The action of the energy Hessian on a grid velocity increment, equations (7)-(8) of
// section 6: for an increment du,
//
//	-df_i = sum_p V_p^0 A_p (F_Ep^n)^T grad w_ip,   A_p = d2Psi/dF_E dF_E : (sum_j du_j (grad w_jp)^T F_Ep^n),
//
// linearised about F_E at the start of the step. For the fixed-corotated energy of
// equation (1), Psi = mu ||F - R||^2 + lambda/2 (J - 1)^2 with the hardened mu and
// lambda of equation (2) (constant within a step: they depend on F_P alone), the first
// Piola stress is P = 2 mu (F - R) + lambda (J - 1) C with C = J F^-T, the cofactor
// matrix, and its differential along dF is
//
//	dP = 2 mu (dF - dR) + lambda (C : dF) C + lambda (J - 1) dC.
//
// dC is linear in dF (each entry of C is a 2x2 minor of F). dR, the change of the
// rotation of the polar decomposition F = R S, is R W with W skew: differentiating
// R^T F = S (symmetric) gives W S + S W = R^T dF - dF^T R, and for the skew matrix W of
// a vector w, W S + S W is the skew matrix of (tr(S) I - S) w. So
//
//	w = (tr(S) I - S)^-1 axial(R^T dF - dF^T R),   dR = R W(w),
//
// where (tr(S) I - S) has the eigenvalues s_1 + s_2, s_1 + s_3, s_2 + s_3 > 0.

// hessianParticle is what a particle's part of the Hessian needs, computed from F_E^n:
// the matrices and the scaled Lamé parameters.
type hessianParticle struct {
	F, R linalg.Mat3 // F_E^n and its polar rotation
	C    linalg.Mat3 // cofactor matrix J F^-T
	K    [6]float64  // (tr(S) I - S)^-1, symmetric: xx yy zz xy xz yz
	mu2  float64     // 2 mu V_p^0
	lam  float64     // lambda V_p^0
	jm1  float64     // J - 1
}

// set prepares particle data for F_E = f with hardened mu, lambda and volume vol0.
func (hp *hessianParticle) set(f *linalg.Mat3, mu, lambda, vol0 float64) {
	hp.F = *f
	r, sym := linalg.Polar3(*f)
	hp.R = r
	hp.C = cofactor(f)
	hp.jm1 = f.Det() - 1
	hp.mu2 = 2 * mu * vol0
	hp.lam = lambda * vol0
	tr := sym[0] + sym[4] + sym[8]
	// M = tr(S) I - S, inverted by its adjugate.
	a, b, c := tr-sym[0], tr-sym[4], tr-sym[8]
	d, e, g := -sym[1], -sym[2], -sym[5] // xy, xz, yz
	adj := [6]float64{b*c - g*g, a*c - e*e, a*b - d*d, e*g - d*c, d*g - e*b, d*e - a*g}
	det := a*adj[0] + d*adj[3] + e*adj[4]
	for k := range adj {
		hp.K[k] = adj[k] / det
	}
}

// cofactor returns J F^-T: entry (i, j) is the minor of F without row i and column j,
// with the sign (-1)^(i+j), which the cyclic index order gives.
func cofactor(f *linalg.Mat3) linalg.Mat3 {
	var c linalg.Mat3
	for i := 0; i < 3; i++ {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := 0; j < 3; j++ {
			j1, j2 := (j+1)%3, (j+2)%3
			c[3*i+j] = f[3*i1+j1]*f[3*i2+j2] - f[3*i1+j2]*f[3*i2+j1]
		}
	}
	return c
}

// cofactorDiff returns the differential of the cofactor matrix of f along df.
func cofactorDiff(f, df *linalg.Mat3) linalg.Mat3 {
	var c linalg.Mat3
	for i := 0; i < 3; i++ {
		i1, i2 := (i+1)%3, (i+2)%3
		for j := 0; j < 3; j++ {
			j1, j2 := (j+1)%3, (j+2)%3
			c[3*i+j] = df[3*i1+j1]*f[3*i2+j2] + f[3*i1+j1]*df[3*i2+j2] -
				df[3*i1+j2]*f[3*i2+j1] - f[3*i1+j2]*df[3*i2+j1]
		}
	}
	return c
}

// stressDiff returns V^0 dP along df (the A_p of equation 8, times V_p^0).
func (hp *hessianParticle) stressDiff(df *linalg.Mat3) linalg.Mat3 {
	f, r := &hp.F, &hp.R
	// a = R^T dF; the axial vector of a - a^T is (a_zy - a_yz, a_xz - a_zx, a_yx - a_xy).
	var a linalg.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			a[3*i+j] = r[i]*df[j] + r[3+i]*df[3+j] + r[6+i]*df[6+j]
		}
	}
	ax, ay, az := a[7]-a[5], a[2]-a[6], a[3]-a[1]
	k := &hp.K
	wx := k[0]*ax + k[3]*ay + k[4]*az
	wy := k[3]*ax + k[1]*ay + k[5]*az
	wz := k[4]*ax + k[5]*ay + k[2]*az
	// dR = R W with W = [[0, -wz, wy], [wz, 0, -wx], [-wy, wx, 0]].
	var dR linalg.Mat3
	for i := 0; i < 3; i++ {
		r0, r1, r2 := r[3*i], r[3*i+1], r[3*i+2]
		dR[3*i] = r1*wz - r2*wy
		dR[3*i+1] = -r0*wz + r2*wx
		dR[3*i+2] = r0*wy - r1*wx
	}
	dC := cofactorDiff(f, df)
	c := &hp.C
	dJ := c[0]*df[0] + c[1]*df[1] + c[2]*df[2] + c[3]*df[3] + c[4]*df[4] + c[5]*df[5] + c[6]*df[6] + c[7]*df[7] + c[8]*df[8]
	var dP linalg.Mat3
	for k := range dP {
		dP[k] = hp.mu2*(df[k]-dR[k]) + hp.lam*(dJ*c[k]+hp.jm1*dC[k])
	}
	return dP
}

// forceDiff returns the particle's part of the Hessian action in the grid's terms:
// for g = h grad du (the windowGradient of an increment), dF = g F / h, and the result
// V^0 dP(dF) F^T / h is what scatterGradient spreads against h grad w.
func (hp *hessianParticle) forceDiff(g *linalg.Mat3, invH float64) linalg.Mat3 {
	f := &hp.F
	var df linalg.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			df[3*i+j] = (g[3*i]*f[j] + g[3*i+1]*f[3+j] + g[3*i+2]*f[6+j]) * invH
		}
	}
	dP := hp.stressDiff(&df)
	var gm linalg.Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			gm[3*i+j] = (dP[3*i]*f[3*j] + dP[3*i+1]*f[3*j+1] + dP[3*i+2]*f[3*j+2]) * invH
		}
	}
	return gm
}

// stiffness is a particle's part of the Hessian as the solve uses it: the 9x9 matrix S
// with forceDiff(g) = S g for g = h grad du read row-major. S is symmetric (it is the
// second derivative of the particle's energy along grid increments), so it is kept as
// its upper triangle, row by row. Applying it costs 81 multiply-adds in place of
// forceDiff's chain of products (BenchmarkHessianAction: 11 ms instead of 15 on
// 33,500 particles), and building it costs 9 forceDiffs once per step. float32 halves
// the memory (180 bytes per particle) and perturbs the operator far below any solver
// tolerance, while keeping it exactly symmetric.
type stiffness [45]float32

// stiffnessOf returns the stiffness of hp: column j of S is forceDiff(e_j), symmetrized
// against round-off.
func stiffnessOf(hp *hessianParticle, invH float64) stiffness {
	var cols [9]linalg.Mat3
	for j := range cols {
		var e linalg.Mat3
		e[j] = 1
		cols[j] = hp.forceDiff(&e, invH)
	}
	var k stiffness
	idx := 0
	for i := 0; i < 9; i++ {
		for j := i; j < 9; j++ {
			k[idx] = float32((cols[j][i] + cols[i][j]) / 2)
			idx++
		}
	}
	return k
}

// apply returns S g.
func (k *stiffness) apply(g *linalg.Mat3) linalg.Mat3 {
	var out linalg.Mat3
	idx := 0
	for i := 0; i < 9; i++ {
		gi := g[i]
		sum := float64(k[idx]) * gi
		idx++
		for j := i + 1; j < 9; j++ {
			kij := float64(k[idx])
			sum += kij * g[j]
			out[j] += kij * gi
			idx++
		}
		out[i] += sum
	}
	return out
}

// at returns S_ij.
func (k *stiffness) at(i, j int) float64 {
	if i > j {
		i, j = j, i
	}
	return float64(k[i*9-i*(i-1)/2+j-i])
}
