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

// stencilOffsets returns, per axis, the offsets (x_i - x_p)/h of the particle at x
// (position times invH) from its four stencil nodes: node a of the stencil is at
// a - 1 - f, f being the particle's fraction of its cell (see stencil1D).
func stencilOffsets(x geom.Vec3, invH float64) (d [3][4]float64) {
	for k := range d {
		X := x[k] * invH
		f := X - math.Floor(X)
		for a := range d[k] {
			d[k][a] = float64(a) - 1 - f
		}
	}
	return d
}

// scatterAffineMomentum adds APIC's affine part to stage 1 for a particle of mass m
// whose affine velocity is C (1/s): momentum_i += m w_ip C (x_i - x_p), d being the
// stencil's offsets (x_i - x_p)/h. With it, the grid receives m w_ip (v_p + C (x_i - x_p)),
// equation (7) of Jiang et al. 2015 with B_p D_p^-1 = C.
func scatterAffineMomentum(win *window[node], ker *kernel, ox, oy, oz int, m float64, C *Mat3f, h float64, d *[3][4]float64) {
	// m h C, by columns: the momentum change per cell of offset along each axis.
	var col [3]geom.Vec3
	for r := 0; r < 3; r++ {
		for c := 0; c < 3; c++ {
			col[c][r] = m * h * float64(C[3*r+c])
		}
	}
	for a := 0; a < 4; a++ {
		ua := col[0].Scale(d[0][a])
		for b := 0; b < 4; b++ {
			ub := ua.Add(col[1].Scale(d[1][b]))
			wab := ker.W[0][a] * ker.W[1][b]
			row := &win[ox+a][oy+b]
			for c := 0; c < 4; c++ {
				w := wab * ker.W[2][c]
				n := &row[oz+c]
				for r := 0; r < 3; r++ {
					n.momentum[r] += w * (ub[r] + col[2][r]*d[2][c])
				}
			}
		}
	}
}

// gatherAffine returns APIC's new affine velocity of a particle (stage 8),
// C_p = B_p D_p^-1 with B_p = sum_i w_ip v_i^{n+1} (x_i - x_p)^T and D_p = (h^2/3) I:
// C_p = 3/h sum_i w_ip v_i^{n+1} d_i^T, d_i = (x_i - x_p)/h being the offsets d.
func gatherAffine(nodes *window[nodeVelocity], ker *kernel, ox, oy, oz int, invH float64, d *[3][4]float64) linalg.Mat3 {
	const m = blockWidth - 1
	ox, oy, oz = ox&m, oy&m, oz&m // no-ops that let the compiler drop the bounds checks
	var B linalg.Mat3             // sum_i w_ip v_i d_i^T
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			wab := ker.W[0][a] * ker.W[1][b]
			row := &nodes[ox+a][oy+b]
			// Along z: sum_c Wz v and sum_c Wz dz v.
			var s, sz geom.Vec3
			for c := 0; c < 4; c++ {
				v := &row[oz+c].v
				wc, wdc := ker.W[2][c], ker.W[2][c]*d[2][c]
				for r := 0; r < 3; r++ {
					s[r] += wc * v[r]
					sz[r] += wdc * v[r]
				}
			}
			da, db := wab*d[0][a], wab*d[1][b]
			for r := 0; r < 3; r++ {
				B[3*r] += da * s[r]
				B[3*r+1] += db * s[r]
				B[3*r+2] += wab * sz[r]
			}
		}
	}
	return B.Scale(invH / cubicMoment)
}
