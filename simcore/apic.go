package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/simcore/linalg"
)

// Transfer chooses how velocities go between particles and the grid (stages 1 and 8).
type Transfer int

const (
	// PICFLIP is the paper's transfer: stage 1 moves v_p, stage 8 blends the PIC and
	// FLIP velocities with FlipAlpha.
	PICFLIP Transfer = iota
	// APIC is the affine particle-in-cell transfer of Jiang et al. 2015 ("The affine
	// particle-in-cell method", SIGGRAPH 2015): each particle also carries an affine
	// velocity C_p, so that a particle hands the grid the velocity field
	// v_p + C_p (x - x_p) around it rather than a constant. Rigid rotation and every
	// other affine motion then survive the round trip exactly, and angular momentum is
	// conserved, where PIC's share of stage 8 damps them every step.
	APIC
)

func (t Transfer) String() string {
	if t == APIC {
		return "apic"
	}
	return "pic-flip"
}

// The second moment of the cubic B-spline, D_p = sum_i w_ip (x_i - x_p)(x_i - x_p)^T, is
// h^2/3 I wherever the particle's whole stencil is on the grid (Jiang et al. 2015,
// section 5.3), so APIC's C_p = B_p D_p^-1 is B_p times 3/h^2 with no per-particle
// inverse.
const cubicMoment = 1.0 / 3

// moments returns APIC's per-axis weights of the offsets from the particle at x
// (position times invH = X) to the nodes of its stencil: E[k][a] = W[k][a] d[k][a] with
// d = (x_i - x_p)/h = a - 1 - f, f being the particle's fraction of its cell (see
// stencil1D). sum_i w_ip (x_i - x_p)/h is then (Ex Wy Wz, Wx Ey Wz, Wx Wy Ez) summed
// over the stencil: the form of h grad w_ip with the slopes D replaced by E, which lets
// the gradient's tensor-product sums serve APIC as well. The cubic B-spline's first
// moment is zero, sum_a W[k][a] d[k][a] = 0, which is what makes the affine part carry
// no net momentum; the weights are rounded to float32, so the second node's E is
// derived from the others (as kernelAt derives its weight) to keep the sum zero.
func (k *kernel) moments(x geom.Vec3, invH float64) (E [3][4]float64) {
	for ax := range E {
		X := x[ax] * invH
		f := X - math.Floor(X)
		E[ax][0] = k.W[ax][0] * (-1 - f)
		E[ax][2] = k.W[ax][2] * (1 - f)
		E[ax][3] = k.W[ax][3] * (2 - f)
		E[ax][1] = -(E[ax][0] + E[ax][2] + E[ax][3])
	}
	return E
}

// scatterAffineMomentum adds APIC's affine part to stage 1 for a particle of mass m
// whose affine velocity is C (1/s): momentum_i += m w_ip C (x_i - x_p), E being the
// kernel's moments. With it the grid receives m w_ip (v_p + C (x_i - x_p)), equation (7)
// of Jiang et al. 2015 with B_p D_p^-1 = C.
func scatterAffineMomentum(win *window[node], ker *kernel, E *[3][4]float64, ox, oy, oz int, m float64, C *Mat3f, h float64) {
	// As the force in scatterParticle: m h C (Ex Wy Wz, Wx Ey Wz, Wx Wy Ez) = Wz P + Ez Q
	// with P = m h C (Ex Wy, Wx Ey, 0) and Q = m h C (0, 0, Wx Wy), fixed along z.
	mh := m * h
	c00, c01, c02 := mh*float64(C[0]), mh*float64(C[1]), mh*float64(C[2])
	c10, c11, c12 := mh*float64(C[3]), mh*float64(C[4]), mh*float64(C[5])
	c20, c21, c22 := mh*float64(C[6]), mh*float64(C[7]), mh*float64(C[8])
	w0, w1, w2, w3 := ker.W[2][0], ker.W[2][1], ker.W[2][2], ker.W[2][3]
	e0, e1, e2, e3 := E[2][0], E[2][1], E[2][2], E[2][3]
	for a := 0; a < 4; a++ {
		wa, ea := ker.W[0][a], E[0][a]
		for b := 0; b < 4; b++ {
			eab, aeb, wab := ea*ker.W[1][b], wa*E[1][b], wa*ker.W[1][b]
			px, py, pz := c00*eab+c01*aeb, c10*eab+c11*aeb, c20*eab+c21*aeb
			qx, qy, qz := c02*wab, c12*wab, c22*wab
			row := &win[ox+a][oy+b]
			n0, n1, n2, n3 := &row[oz], &row[oz+1], &row[oz+2], &row[oz+3]
			n0.momentum[0] += px*w0 + qx*e0
			n1.momentum[0] += px*w1 + qx*e1
			n2.momentum[0] += px*w2 + qx*e2
			n3.momentum[0] += px*w3 + qx*e3
			n0.momentum[1] += py*w0 + qy*e0
			n1.momentum[1] += py*w1 + qy*e1
			n2.momentum[1] += py*w2 + qy*e2
			n3.momentum[1] += py*w3 + qy*e3
			n0.momentum[2] += pz*w0 + qz*e0
			n1.momentum[2] += pz*w1 + qz*e1
			n2.momentum[2] += pz*w2 + qz*e2
			n3.momentum[2] += pz*w3 + qz*e3
		}
	}
}

// gatherAffine returns APIC's new affine velocity of a particle (stage 8),
// C_p = B_p D_p^-1 with B_p = sum_i w_ip v_i^{n+1} (x_i - x_p)^T and D_p = (h^2/3) I, so
// C_p = 3/h sum_i w_ip v_i^{n+1} ((x_i - x_p)/h)^T: interpolate's h grad v with the
// kernel's moments E in place of its slopes.
func gatherAffine(nodes *window[nodeVelocity], ker *kernel, E *[3][4]float64, ox, oy, oz int, invH float64) linalg.Mat3 {
	moment := kernel{W: ker.W, D: *E}
	_, _, B := interpolate(nodes, &moment, ox, oy, oz) // sum_i w_ip v_i d_i^T
	return B.Scale(invH / cubicMoment)
}
