package linalg

import (
	"math"

	"snowtools/levelset/geom"
)

// This file holds the 3x3 singular value and polar decompositions that the
// solver needs once per particle per step: plasticity clamps the singular
// values of F_E, and the elastic stress needs the rotation R_E of
// F_E = R_E S_E.
//
// Method: one-sided (Hestenes) Jacobi. Plane rotations J_k are applied to the
// columns of A = F until they are mutually orthogonal,
//
//	A_k = F V_k,  V_k = J_1 J_2 ... J_k,
//
// and then the columns are a_j = sigma_j u_j, so F = A V^T = U diag(sigma) V^T.
// Each rotation acts on one pair of columns and (nearly) zeroes their inner
// product; the cyclic sweep (0,1), (1,2), (2,0) converges quadratically, in
// about nine rotations over four or five sweeps for a random or a
// near-identity F.
//
// Why this method rather than the eigenvectors of F^T F (McAdams et al. 2011)
// or a closed-form cubic:
//
//   - F^T F is never formed. Its eigenvalues carry errors of eps sigma_1^2,
//     so any singular value below about 1e-8 sigma_1 is lost in them. Here a
//     rotation mixes two columns only, so its rounding error is small
//     relative to each column and to each row, and the singular values come
//     out accurate relative to themselves when F is graded by columns or
//     rows (F = B D or D B with B well conditioned; Demmel & Veselić 1992):
//     diag(1, 1e-8, 1e-12) times a random rotation on either side gives all
//     three to about 1e-15.
//   - V is a product of rotations, accumulated as a quaternion, so it is a
//     rotation whatever the rounding; U is orthogonal because convergence is
//     judged on freshly computed inner products of the actual columns.
//   - Repeated singular values (rotations, uniform scaling) need no special
//     case: the columns are already orthogonal and no rotation is applied.
//     A rank-deficient F just drives columns to (near) zero, and U is
//     completed with cross products.
//   - The rotation angles depend only on ratios of column inner products, so
//     the scale of F does not matter; F is rescaled by a power of two (exact)
//     only to keep squares away from overflow and underflow.
//
// Speed: the time is the latency of the chain of dependent rotations, so the
// exact Jacobi rotation (two square roots and a division in sequence) is
// replaced by a rational approximation of its angle that needs one division
// (jacobiCosSin), V is accumulated as an unnormalized quaternion (four
// numbers, normalized once at the end), the columns live in scalar variables
// rather than arrays, the three pair steps of a sweep are written out (they
// are the same code with the column indices permuted), and there is no
// function call on the common path inside the loop (a call spills all
// registers). This is about 10 times faster than gonum's general SVD.

// jacobiTol bounds the cosine between two columns that count as orthogonal.
// A few ulps: the computed inner product of two 3-vectors carries about
// 3 eps of relative error itself, so asking for less might never terminate.
const jacobiTol = 4 * 0x1p-52

// jacobiMaxSweeps caps the sweeps. The tests never need more than six; the
// cap only bounds the work when inner products underflow (columns more than
// ~1e-135 below the largest), and SVD3 then finishes on a careful path.
const jacobiMaxSweeps = 30

// SVD3 returns U, sigma, V with F = U diag(sigma) V^T, where U and V are
// rotations (det +1), sigma[0] >= sigma[1] >= |sigma[2]| >= 0 except that
// sigma[2] carries the sign of det F (an inverted F gives a negative smallest
// singular value).
//
// For every finite F (including zero, rank deficient, inverted and
// 1e-300..1e300 scaled matrices) ||U diag(sigma) V^T - F||_F is a few eps
// ||F||_F and U, V are orthogonal to a few eps. Small singular values are
// accurate relative to themselves, not only to ||F||, when F is graded by
// columns or rows (see the comment at the top of the file). The zero matrix
// gives U = V = I and sigma = 0; NaN in F gives NaN out. SVD3 does not
// allocate.
func SVD3(F Mat3) (U Mat3, sigma geom.Vec3, V Mat3) {
	// The largest |F_ij|, compared as bit patterns: for non-negative floats
	// the integer order is the numeric order, and integer max is branch free.
	var mb uint64
	for _, x := range F {
		mb = max(mb, math.Float64bits(x)&^(1<<63))
	}
	if mb == 0 {
		return Identity3, geom.Vec3{}, Identity3
	}
	// Rescale by an exact power of two when the largest entry is far from 1,
	// so that squared column norms and their products neither overflow nor
	// underflow. The solver's input (F near a rotation) never needs it.
	exp := 0
	if mb > math.Float64bits(0x1p32) || mb < math.Float64bits(0x1p-32) {
		_, exp = math.Frexp(math.Float64frombits(mb))
		for i := range F {
			F[i] = math.Ldexp(F[i], -exp)
		}
	}

	// The columns of A = F V, and the quaternion (qw, qx, qy, qz) of V.
	a0x, a0y, a0z := F[0], F[3], F[6]
	a1x, a1y, a1z := F[1], F[4], F[7]
	a2x, a2y, a2z := F[2], F[5], F[8]
	qw, qx, qy, qz := 1.0, 0.0, 0.0, 0.0

	// A pair step (p, q) tests the cosine between columns p and q; if it is
	// not negligible it takes (c, s) and w = tan(theta/2) from jacobiCosSin
	// (inlined) and applies
	//
	//	a_p' = c a_p - s a_q,  a_q' = s a_p + c a_q,  q' = q (1 - w e_k),
	//
	// where q (1 - w e_k) is the quaternion of V J, J being the rotation by
	// -theta about the third axis k and e_k its quaternion unit. The
	// quaternion is not normalized (|1 - w e_k|^2 = 1 + w^2 <= 1.18 per
	// rotation) until V is formed at the end.
	//
	// The three pair steps below differ only in their column indices. They are
	// written out rather than calling one function because a call in this loop
	// makes the compiler spill every register (measured: the SVD is the
	// solver's third-largest cost).
	//
	// quiet counts consecutive pairs found orthogonal; three in a row is
	// convergence. A pair just rotated does not count: if its columns were
	// nearly parallel (rank deficient F), the rotated column is mostly
	// cancellation error and needs another rotation.
	quiet := 0
	converged := false
	for sweep := 0; sweep < jacobiMaxSweeps; sweep++ {
		{ // pair (0, 1), rotation about z
			alpha := a0x*a0x + a0y*a0y + a0z*a0z
			beta := a1x*a1x + a1y*a1y + a1z*a1z
			gamma := a0x*a1x + a0y*a1y + a0z*a1z
			if gamma*gamma > (jacobiTol*jacobiTol)*alpha*beta {
				d, g := beta-alpha, 2*gamma
				pd, ag := math.Abs(d), math.Abs(g)
				n := pd*pd + cayleyK1*(pd*ag) + cayleyK2*(ag*ag)
				m := pd*n + (5.0/16)*(ag*ag)*(pd+cayleyK1*ag)
				n *= 0.25 * g
				n2, m2 := n*n, m*m
				var c, s, w float64
				if sum := n2 + m2; sum > 0x1p-1000 {
					r := 1 / sum
					c, s = (m2-n2)*r, n*m*r*math.Copysign(2, d)
					w = s / (1 + c)
				} else {
					c, s, w = jacobiCosSinScaled(d, g)
				}
				a0x, a0y, a0z, a1x, a1y, a1z = c*a0x-s*a1x, c*a0y-s*a1y, c*a0z-s*a1z, s*a0x+c*a1x, s*a0y+c*a1y, s*a0z+c*a1z
				qw, qx, qy, qz = qw+w*qz, qx-w*qy, qy+w*qx, qz-w*qw
				quiet = 0
			} else if quiet++; quiet == 3 {
				converged = true
				break
			}
		}
		{ // pair (1, 2), rotation about x
			alpha := a1x*a1x + a1y*a1y + a1z*a1z
			beta := a2x*a2x + a2y*a2y + a2z*a2z
			gamma := a1x*a2x + a1y*a2y + a1z*a2z
			if gamma*gamma > (jacobiTol*jacobiTol)*alpha*beta {
				d, g := beta-alpha, 2*gamma
				pd, ag := math.Abs(d), math.Abs(g)
				n := pd*pd + cayleyK1*(pd*ag) + cayleyK2*(ag*ag)
				m := pd*n + (5.0/16)*(ag*ag)*(pd+cayleyK1*ag)
				n *= 0.25 * g
				n2, m2 := n*n, m*m
				var c, s, w float64
				if sum := n2 + m2; sum > 0x1p-1000 {
					r := 1 / sum
					c, s = (m2-n2)*r, n*m*r*math.Copysign(2, d)
					w = s / (1 + c)
				} else {
					c, s, w = jacobiCosSinScaled(d, g)
				}
				a1x, a1y, a1z, a2x, a2y, a2z = c*a1x-s*a2x, c*a1y-s*a2y, c*a1z-s*a2z, s*a1x+c*a2x, s*a1y+c*a2y, s*a1z+c*a2z
				qw, qx, qy, qz = qw+w*qx, qx-w*qw, qy-w*qz, qz+w*qy
				quiet = 0
			} else if quiet++; quiet == 3 {
				converged = true
				break
			}
		}
		{ // pair (2, 0), rotation about y
			alpha := a2x*a2x + a2y*a2y + a2z*a2z
			beta := a0x*a0x + a0y*a0y + a0z*a0z
			gamma := a2x*a0x + a2y*a0y + a2z*a0z
			if gamma*gamma > (jacobiTol*jacobiTol)*alpha*beta {
				d, g := beta-alpha, 2*gamma
				pd, ag := math.Abs(d), math.Abs(g)
				n := pd*pd + cayleyK1*(pd*ag) + cayleyK2*(ag*ag)
				m := pd*n + (5.0/16)*(ag*ag)*(pd+cayleyK1*ag)
				n *= 0.25 * g
				n2, m2 := n*n, m*m
				var c, s, w float64
				if sum := n2 + m2; sum > 0x1p-1000 {
					r := 1 / sum
					c, s = (m2-n2)*r, n*m*r*math.Copysign(2, d)
					w = s / (1 + c)
				} else {
					c, s, w = jacobiCosSinScaled(d, g)
				}
				a2x, a2y, a2z, a0x, a0y, a0z = c*a2x-s*a0x, c*a2y-s*a0y, c*a2z-s*a0z, s*a2x+c*a0x, s*a2y+c*a0y, s*a2z+c*a0z
				qw, qx, qy, qz = qw+w*qy, qx+w*qz, qy-w*qw, qz-w*qx
				quiet = 0
			} else if quiet++; quiet == 3 {
				converged = true
				break
			}
		}
	}
	p0, p1, p2, q0, q1, q2, r0, r1, r2 := a0x, a0y, a0z, a1x, a1y, a1z, a2x, a2y, a2z

	// V from the quaternion: R(q) = (1/|q|^2) [[w^2+x^2-y^2-z^2, 2(xy-wz),
	// 2(xz+wy)], [2(xy+wz), w^2-x^2+y^2-z^2, 2(yz-wx)], [2(xz-wy), 2(yz+wx),
	// w^2-x^2-y^2+z^2]] is a rotation for any q != 0, orthogonal to rounding.
	iq := 1 / (qw*qw + qx*qx + qy*qy + qz*qz)
	ww, xx, yy, zz := qw*qw*iq, qx*qx*iq, qy*qy*iq, qz*qz*iq
	tw, tx, ty := 2*qw*iq, 2*qx*iq, 2*qy*iq
	xy, xz, yz, wx, wy, wz := tx*qy, tx*qz, ty*qz, tw*qx, tw*qy, tw*qz
	v00, v10, v20 := ww+xx-yy-zz, xy+wz, xz-wy
	v01, v11, v21 := xy-wz, ww-xx+yy-zz, yz+wx
	v02, v12, v22 := xz+wy, yz-wx, ww-xx-yy+zz

	// Sort the columns by decreasing norm. Each exchange also negates one of
	// the two columns (of A and V alike, so F V = A still holds): a swap with
	// a sign flip is a rotation by 90 degrees, which keeps det V = +1.
	np := p0*p0 + p1*p1 + p2*p2
	nq := q0*q0 + q1*q1 + q2*q2
	nr := r0*r0 + r1*r1 + r2*r2
	if nq > np {
		p0, p1, p2, q0, q1, q2 = q0, q1, q2, -p0, -p1, -p2
		v00, v10, v20, v01, v11, v21 = v01, v11, v21, -v00, -v10, -v20
		np, nq = nq, np
	}
	if nr > nq {
		q0, q1, q2, r0, r1, r2 = r0, r1, r2, -q0, -q1, -q2
		v01, v11, v21, v02, v12, v22 = v02, v12, v22, -v01, -v11, -v21
		nq, nr = nr, nq
	}
	if nq > np {
		p0, p1, p2, q0, q1, q2 = q0, q1, q2, -p0, -p1, -p2
		v00, v10, v20, v01, v11, v21 = v01, v11, v21, -v00, -v10, -v20
		np, nq = nq, np
	}

	// U: the first column is never tiny after the rescale
	// (np >= max|F_ij|^2 > 2^-66). The second is used as it is only when
	// Jacobi confirmed it orthogonal to the first with inner products clear
	// of underflow; otherwise (rank <= 1, columns below ~1e-135 of the
	// largest, or no convergence) secondAxis rebuilds it. The third is
	// u0 x u1, so det U = +1; it is formed as (p x q)/(|p||q|) in parallel
	// with the square roots, and the sign of det A = (p x q) . r, which is
	// the sign of det F, goes to sigma_2.
	s0, s1, s2 := math.Sqrt(np), math.Sqrt(nq), math.Sqrt(nr)
	cx, cy, cz := p1*q2-p2*q1, p2*q0-p0*q2, p0*q1-p1*q0
	i0, i1 := 1/s0, 1/s1
	u00, u10, u20 := p0*i0, p1*i0, p2*i0
	var u01, u11, u21, u02, u12, u22 float64
	if converged && nq > 0x1p-900 {
		u01, u11, u21 = q0*i1, q1*i1, q2*i1
		i01 := i0 * i1
		u02, u12, u22 = cx*i01, cy*i01, cz*i01
	} else {
		u01, u11, u21 = secondAxis(u00, u10, u20, q0, q1, q2)
		u02, u12, u22 = u10*u21-u20*u11, u20*u01-u00*u21, u00*u11-u10*u01
		cx, cy, cz = u02, u12, u22
	}
	s2 = math.Copysign(s2, cx*r0+cy*r1+cz*r2)

	sigma = geom.Vec3{s0, s1, s2}
	if exp != 0 {
		for i := range sigma {
			sigma[i] = math.Ldexp(sigma[i], exp)
		}
	}
	U = Mat3{u00, u01, u02, u10, u11, u12, u20, u21, u22}
	V = Mat3{v00, v01, v02, v10, v11, v12, v20, v21, v22}
	return U, sigma, V
}

// secondAxis returns the unit vector along the part of q orthogonal to the
// unit vector u, or, if that part is lost in rounding, any unit vector
// orthogonal to u. It is the careful path for tiny or unconverged columns:
// q is first scaled by a power of two so its squares cannot underflow, and
// the projection is applied twice because one Gram-Schmidt step leaves an
// error in proportion to how parallel q is to u.
func secondAxis(ux, uy, uz, qx, qy, qz float64) (x, y, z float64) {
	if m := max(math.Abs(qx), math.Abs(qy), math.Abs(qz)); m > 0 && !math.IsInf(m, 0) {
		_, e := math.Frexp(m)
		qx, qy, qz = math.Ldexp(qx, -e), math.Ldexp(qy, -e), math.Ldexp(qz, -e)
		for range 2 {
			k := ux*qx + uy*qy + uz*qz
			qx, qy, qz = qx-k*ux, qy-k*uy, qz-k*uz
		}
		// Below 2^-40 of its original length the orthogonal part is mostly
		// rounding error, and a direction taken from it would not be
		// orthogonal enough to u.
		if n := qx*qx + qy*qy + qz*qz; n > 0x1p-80 {
			i := 1 / math.Sqrt(n)
			return qx * i, qy * i, qz * i
		}
	}
	// u crossed with the coordinate axis it is least aligned with has length
	// at least sqrt(2/3).
	ax, ay, az := math.Abs(ux), math.Abs(uy), math.Abs(uz)
	switch {
	case ax <= ay && ax <= az: // e_x
		x, y, z = 0, uz, -uy
	case ay <= az: // e_y
		x, y, z = -uz, 0, ux
	default: // e_z
		x, y, z = uy, -ux, 0
	}
	i := 1 / math.Sqrt(x*x+y*y+z*z)
	return x * i, y * i, z * i
}

// Coefficients of the rational approximation in jacobiCosSin.
const (
	cayleyK1 = 0.86
	cayleyK2 = 0.76 - 5.0/16
)

// jacobiCosSin returns the rotation (c, s) that (very nearly) makes two
// columns orthogonal under a_p' = c a_p - s a_q, a_q' = s a_p + c a_q, given
// d = |a_q|^2 - |a_p|^2 and g = 2 a_p . a_q, and w = tan(theta/2) for the
// quaternion of V. SVD3 inlines its body; this copy serves the rescaled path
// and the tests.
//
// The exact Jacobi angle, cot(2 theta) = d/g with |theta| <= pi/4, needs two
// square roots and a division in sequence, and that chain, nine times over,
// is most of an SVD's time. Instead tan(theta/2) is approximated by a
// rational function, with P = |d|, G = |g|,
//
//	w = sign(d) (g/4) N / M,  N = P^2 + k1 P G + k2 G^2,
//	                          M = P N + (5/16) G^2 (P + k1 G),
//
// and the rotation taken from the Cayley form c = (1 - w^2)/(1 + w^2),
// s = 2w/(1 + w^2), which is orthogonal for every w, so the approximation
// costs convergence speed, never accuracy. The constraints built into N and
// M make w agree with tan(atan(tau)/4) = tau/4 - 5 tau^3/64 + ... through
// tau^4 (tau = g/d), and k1 = 0.86, k2 = 0.76 - 5/16 were fitted so that the
// angle is within 0.5% of theta for all d, g: a rotation leaves 0.5% of the
// inner product it should remove early on and O(tau^5) near convergence,
// where Jacobi's own convergence is O(tau^2). On random input this takes 9.2
// rotations instead of 9.0, each with one division instead of two square
// roots and a division.
func jacobiCosSin(d, g float64) (c, s, w float64) {
	pd, ag := math.Abs(d), math.Abs(g)
	n := pd*pd + cayleyK1*(pd*ag) + cayleyK2*(ag*ag)
	m := pd*n + (5.0/16)*(ag*ag)*(pd+cayleyK1*ag)
	n *= 0.25 * g
	n2, m2 := n*n, m*m
	sum := n2 + m2
	if !(sum > 0x1p-1000) {
		return jacobiCosSinScaled(d, g)
	}
	r := 1 / sum
	c, s = (m2-n2)*r, n*m*r*math.Copysign(2, d)
	return c, s, s / (1 + c)
}

// jacobiCosSinScaled is jacobiCosSin for d and g so small (below ~1e-50) that
// the sixth powers in it underflow: the angle only depends on d/g, so they
// are scaled up by a power of two first. Degenerate input (both zero, which
// SVD3 never passes, or non-finite) gives no rotation.
//
//go:noinline
func jacobiCosSinScaled(d, g float64) (c, s, w float64) {
	m := max(math.Abs(d), math.Abs(g))
	if !(m > 0) || math.IsInf(m, 0) {
		return 1, 0, 0
	}
	_, e := math.Frexp(m)
	return jacobiCosSin(math.Ldexp(d, -e), math.Ldexp(g, -e))
}

// Polar3 returns the rotation R = U V^T and the symmetric S = V diag(sigma) V^T
// with F = R S (R det +1), from the SVD3 of F.
//
// Because SVD3 keeps det U = det V = +1, R is a proper rotation also for an
// inverted F, and the reflection lives in S, whose smallest eigenvalue
// sigma[2] is then negative. For det F > 0, S is positive semidefinite and R
// is the rotation closest to F. S is built from V, so it is exactly
// symmetric.
func Polar3(F Mat3) (R, S Mat3) {
	U, sig, V := SVD3(F)
	// Written out entry by entry: as loops or with geom.Vec3 this costs half as
	// much again as the products themselves.
	R[0] = U[0]*V[0] + U[1]*V[1] + U[2]*V[2]
	R[1] = U[0]*V[3] + U[1]*V[4] + U[2]*V[5]
	R[2] = U[0]*V[6] + U[1]*V[7] + U[2]*V[8]
	R[3] = U[3]*V[0] + U[4]*V[1] + U[5]*V[2]
	R[4] = U[3]*V[3] + U[4]*V[4] + U[5]*V[5]
	R[5] = U[3]*V[6] + U[4]*V[7] + U[5]*V[8]
	R[6] = U[6]*V[0] + U[7]*V[1] + U[8]*V[2]
	R[7] = U[6]*V[3] + U[7]*V[4] + U[8]*V[5]
	R[8] = U[6]*V[6] + U[7]*V[7] + U[8]*V[8]
	// S_ij = sum_k sigma_k V_ik V_jk, upper triangle mirrored.
	a0, a1, a2 := sig[0]*V[0], sig[1]*V[1], sig[2]*V[2]
	b0, b1, b2 := sig[0]*V[3], sig[1]*V[4], sig[2]*V[5]
	S[0] = a0*V[0] + a1*V[1] + a2*V[2]
	S[1] = a0*V[3] + a1*V[4] + a2*V[5]
	S[2] = a0*V[6] + a1*V[7] + a2*V[8]
	S[4] = b0*V[3] + b1*V[4] + b2*V[5]
	S[5] = b0*V[6] + b1*V[7] + b2*V[8]
	S[8] = sig[0]*V[6]*V[6] + sig[1]*V[7]*V[7] + sig[2]*V[8]*V[8]
	S[3], S[6], S[7] = S[1], S[2], S[5]
	return R, S
}
