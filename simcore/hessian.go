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
// Piola stress is P = 2 mu (F - R) + lambda (J - 1) J F^-T.
//
// The Hessian is taken in the singular frame of F = U Sigma V^T (linalg.SVD3: U and V
// rotations, the sign of det F on the smallest singular value). Psi depends on the
// singular values s_1, s_2, s_3 alone, so P = U diag(P^_1, P^_2, P^_3) V^T with
// P^_i = dPsi/ds_i = 2 mu (s_i - 1) + lambda (J - 1) s_j s_k ({i, j, k} = {1, 2, 3}),
// and for dF^ = U^T dF V the rotated differential dP^ = U^T dP V decouples (Teran et
// al. 2005, "Robust quasistatic finite elements and flesh simulation"):
//
//   - the diagonal entries among themselves: dP^_ii = sum_j d2Psi/ds_i ds_j dF^_jj with
//     d2Psi/ds_i^2 = 2 mu + lambda (s_j s_k)^2 and
//     d2Psi/ds_i ds_j = lambda (s_j s_k s_i s_k + (J - 1) s_k);
//   - each off-diagonal pair: (dP^_ij, dP^_ji) = [[a, b], [b, a]] (dF^_ij, dF^_ji) with
//     a = (c1 + c2) / 2, b = (c1 - c2) / 2 and
//     c1 = (P^_i - P^_j) / (s_i - s_j) = 2 mu - lambda (J - 1) s_k,
//     c2 = (P^_i + P^_j) / (s_i + s_j) = 2 mu - 4 mu / (s_i + s_j) + lambda (J - 1) s_k,
//     where c1, written out, has no division (equal singular values are no special
//     case), and c2 divides by s_i + s_j, an eigenvalue of tr(S) I - S for the polar
//     form F = R S: the derivative of R has the same denominators.
//
// In the grid's terms the solve applies, for g = h grad du (the windowGradient of an
// increment), g -> V^0 dP(dF) F^T / h with dF = g F / h. With F V = U Sigma and
// V^T F^T = Sigma U^T, that is U M(U^T g U) U^T: rotate g into the frame, scale its
// columns by Sigma, apply the blocks above, scale the columns again, rotate back. M has
// 15 coefficients (a symmetric 3x3 on the diagonal entries, a symmetric 2x2 per pair),
// which with U are all a particle keeps: 96 bytes in float32, against 180 for the
// assembled 9x9 matrix, and built with one SVD and a few dozen products rather than
// nine chains of products.

// stiffness is a particle's part of the Hessian as the solve uses it: the rotation U of
// its F_E^n and the coefficients of M, scaled by V^0 / h^2, in float32 (the rounding
// perturbs the operator far below any solver tolerance and keeps it exactly symmetric:
// M is symmetric whatever its coefficients, and U is applied on both sides).
type stiffness struct {
	u    Mat3f      // U of F_E^n = U Sigma V^T
	diag [6]float32 // M on the diagonal entries of U^T g U, symmetric: 11 22 33 12 13 23
	// pair[p] is M on (G_ij, G_ji) for the pair p = (1, 2), (1, 3), (2, 3) of
	// G = U^T g U: G'_ij = alpha G_ij + beta G_ji, G'_ji = beta G_ij + gamma G_ji.
	pair [3][3]float32 // alpha, beta, gamma
}

// singularPairs are the off-diagonal index pairs (i, j) of stiffness.pair and the third
// index k.
var singularPairs = [3][3]int{{0, 1, 2}, {0, 2, 1}, {1, 2, 0}}

// stiffnessOf returns the stiffness of a particle with F_E = f, hardened Lamé
// parameters mu, lambda and volume vol0, on a grid of spacing 1 / invH.
func stiffnessOf(f *linalg.Mat3, mu, lambda, vol0, invH float64) stiffness {
	u, s, _ := linalg.SVD3(*f)
	c := vol0 * invH * invH
	j := s[0] * s[1] * s[2]
	mu2, lj := 2*mu, lambda*(j-1)
	others := [3]float64{s[1] * s[2], s[0] * s[2], s[0] * s[1]} // s_j s_k
	var k stiffness
	k.u.set(&u)
	for i := 0; i < 3; i++ {
		k.diag[i] = float32(c * s[i] * s[i] * (mu2 + lambda*others[i]*others[i]))
	}
	for p, ij := range singularPairs {
		a, b, third := ij[0], ij[1], ij[2]
		// d2Psi/ds_a ds_b times s_a s_b, at entry 12, 13 or 23 of diag.
		k.diag[3+p] = float32(c * s[a] * s[b] * (lambda*others[a]*others[b] + lj*s[third]))
		c1 := mu2 - lj*s[third]
		c2 := mu2 - 2*mu2/(s[a]+s[b]) + lj*s[third]
		ca, cb := (c1+c2)/2, (c1-c2)/2
		k.pair[p] = [3]float32{float32(c * ca * s[b] * s[b]), float32(c * cb * s[a] * s[b]), float32(c * ca * s[a] * s[a])}
	}
	return k
}

// rotation returns U in float64.
func (k *stiffness) rotation() linalg.Mat3 { return k.u.mat3() }

// frame applies M to G = U^T g U, in place: the diagonal entries through diag, each
// off-diagonal pair (G_ij, G_ji) through its pair (singularPairs order).
func (k *stiffness) frame(g *linalg.Mat3) {
	d := &k.diag
	g0, g4, g8 := g[0], g[4], g[8]
	g[0] = float64(d[0])*g0 + float64(d[3])*g4 + float64(d[4])*g8
	g[4] = float64(d[3])*g0 + float64(d[1])*g4 + float64(d[5])*g8
	g[8] = float64(d[4])*g0 + float64(d[5])*g4 + float64(d[2])*g8
	framePair(&k.pair[0], &g[1], &g[3]) // (G_12, G_21)
	framePair(&k.pair[1], &g[2], &g[6]) // (G_13, G_31)
	framePair(&k.pair[2], &g[5], &g[7]) // (G_23, G_32)
}

// framePair applies a pair's symmetric 2x2 block [[alpha, beta], [beta, gamma]] to
// (gij, gji).
func framePair(c *[3]float32, gij, gji *float64) {
	a, b := *gij, *gji
	*gij = float64(c[0])*a + float64(c[1])*b
	*gji = float64(c[1])*a + float64(c[2])*b
}

// apply returns the particle's part of the Hessian action, U M(U^T g U) U^T, for
// g = h grad du.
func (k *stiffness) apply(g *linalg.Mat3) linalg.Mat3 {
	u := k.rotation()
	m := rotateInto(&u, g)
	k.frame(&m)
	return rotateOut(&u, &m)
}

// rotateInto returns U^T g U, written out entry by entry: as loops this costs half as
// much again (the compiler does not unroll them).
func rotateInto(u, g *linalg.Mat3) linalg.Mat3 {
	t := linalg.Mat3{
		u[0]*g[0] + u[3]*g[3] + u[6]*g[6], u[0]*g[1] + u[3]*g[4] + u[6]*g[7], u[0]*g[2] + u[3]*g[5] + u[6]*g[8],
		u[1]*g[0] + u[4]*g[3] + u[7]*g[6], u[1]*g[1] + u[4]*g[4] + u[7]*g[7], u[1]*g[2] + u[4]*g[5] + u[7]*g[8],
		u[2]*g[0] + u[5]*g[3] + u[8]*g[6], u[2]*g[1] + u[5]*g[4] + u[8]*g[7], u[2]*g[2] + u[5]*g[5] + u[8]*g[8],
	}
	return linalg.Mat3{
		t[0]*u[0] + t[1]*u[3] + t[2]*u[6], t[0]*u[1] + t[1]*u[4] + t[2]*u[7], t[0]*u[2] + t[1]*u[5] + t[2]*u[8],
		t[3]*u[0] + t[4]*u[3] + t[5]*u[6], t[3]*u[1] + t[4]*u[4] + t[5]*u[7], t[3]*u[2] + t[4]*u[5] + t[5]*u[8],
		t[6]*u[0] + t[7]*u[3] + t[8]*u[6], t[6]*u[1] + t[7]*u[4] + t[8]*u[7], t[6]*u[2] + t[7]*u[5] + t[8]*u[8],
	}
}

// rotateOut returns U m U^T, written out as rotateInto is.
func rotateOut(u, m *linalg.Mat3) linalg.Mat3 {
	t := linalg.Mat3{
		u[0]*m[0] + u[1]*m[3] + u[2]*m[6], u[0]*m[1] + u[1]*m[4] + u[2]*m[7], u[0]*m[2] + u[1]*m[5] + u[2]*m[8],
		u[3]*m[0] + u[4]*m[3] + u[5]*m[6], u[3]*m[1] + u[4]*m[4] + u[5]*m[7], u[3]*m[2] + u[4]*m[5] + u[5]*m[8],
		u[6]*m[0] + u[7]*m[3] + u[8]*m[6], u[6]*m[1] + u[7]*m[4] + u[8]*m[7], u[6]*m[2] + u[7]*m[5] + u[8]*m[8],
	}
	return linalg.Mat3{
		t[0]*u[0] + t[1]*u[1] + t[2]*u[2], t[0]*u[3] + t[1]*u[4] + t[2]*u[5], t[0]*u[6] + t[1]*u[7] + t[2]*u[8],
		t[3]*u[0] + t[4]*u[1] + t[5]*u[2], t[3]*u[3] + t[4]*u[4] + t[5]*u[5], t[3]*u[6] + t[4]*u[7] + t[5]*u[8],
		t[6]*u[0] + t[7]*u[1] + t[8]*u[2], t[6]*u[3] + t[7]*u[4] + t[8]*u[5], t[6]*u[6] + t[7]*u[7] + t[8]*u[8],
	}
}

// diagonalBlocks returns, for each row a of g, the 3x3 block of the Hessian action that
// row a sees alone: Q^a_cd = (apply(e_a e_d^T))_ac, symmetric, as xx yy zz xy xz yz
// (the preconditioner's terms, see linearise). For g = e_a e_d^T, U^T g U = u_a u_d^T with u_r row r of U, and
// Q^a_cd = u_a^T M(u_a u_d^T) u_c.
func (k *stiffness) diagonalBlocks() [3][6]float64 {
	u := k.rotation()
	var q [3][6]float64
	for a := 0; a < 3; a++ {
		ua := (*[3]float64)(u[3*a:])
		var full [3][3]float64 // full[d][c] = Q^a_cd
		for d := 0; d < 3; d++ {
			ud := (*[3]float64)(u[3*d:])
			var m linalg.Mat3
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					m[3*i+j] = ua[i] * ud[j]
				}
			}
			k.frame(&m)
			// v = M^T u_a, then Q^a_cd = v . u_c.
			v := [3]float64{
				ua[0]*m[0] + ua[1]*m[3] + ua[2]*m[6],
				ua[0]*m[1] + ua[1]*m[4] + ua[2]*m[7],
				ua[0]*m[2] + ua[1]*m[5] + ua[2]*m[8],
			}
			for c := 0; c < 3; c++ {
				full[d][c] = v[0]*u[3*c] + v[1]*u[3*c+1] + v[2]*u[3*c+2]
			}
		}
		q[a] = [6]float64{full[0][0], full[1][1], full[2][2], full[1][0], full[2][0], full[2][1]}
	}
	return q
}
