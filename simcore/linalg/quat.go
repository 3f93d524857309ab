package linalg

import "math"

// Quaternions here are Hamilton's, w + x i + y j + z k, with the unit quaternion q
// rotating a vector v to q v q^*: q = (cos(theta/2), sin(theta/2) n) rotates by theta
// about the unit axis n, right-handed. q and -q are the same rotation.

// QuatMatrix returns the rotation matrix of the unit quaternion w + x i + y j + z k.
func QuatMatrix(w, x, y, z float64) Mat3 {
	return Mat3{
		1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y),
		2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x),
		2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y),
	}
}

// RotationQuat returns the unit quaternion of the rotation R (QuatMatrix inverted),
// the one of the pair q, -q with w >= 0: the rotation by the smaller angle,
// theta = 2 acos(w) in [0, pi]. A quaternion that follows a rotation in time is then
// continuous except where theta passes pi and it jumps to its opposite, the same
// rotation.
//
// The entries of R give 4w^2 = 1 + tr R, 4x^2 = 1 + R_00 - R_11 - R_22 (and y, z
// alike), and the sums and differences of mirrored off-diagonal entries give the
// products 4wx = R_21 - R_12, 4xy = R_01 + R_10 and so on (Shepperd 1978). The
// largest of the four squares is taken by a square root and the others follow from
// the products divided by it: at least 1/4, so the division loses nothing, where a
// square root of a small square would lose half the digits. The result is normalized,
// so a nearly orthogonal R (a polar factor in float32) gives a unit quaternion.
func RotationQuat(R Mat3) (w, x, y, z float64) {
	tr := R[0] + R[4] + R[8]
	switch {
	case tr >= R[0] && tr >= R[4] && tr >= R[8]:
		w = math.Sqrt(1+tr) / 2
		s := 1 / (4 * w)
		x, y, z = (R[7]-R[5])*s, (R[2]-R[6])*s, (R[3]-R[1])*s
	case R[0] >= R[4] && R[0] >= R[8]:
		x = math.Sqrt(1+R[0]-R[4]-R[8]) / 2
		s := 1 / (4 * x)
		w, y, z = (R[7]-R[5])*s, (R[1]+R[3])*s, (R[2]+R[6])*s
	case R[4] >= R[8]:
		y = math.Sqrt(1-R[0]+R[4]-R[8]) / 2
		s := 1 / (4 * y)
		w, x, z = (R[2]-R[6])*s, (R[1]+R[3])*s, (R[5]+R[7])*s
	default:
		z = math.Sqrt(1-R[0]-R[4]+R[8]) / 2
		s := 1 / (4 * z)
		w, x, y = (R[3]-R[1])*s, (R[2]+R[6])*s, (R[5]+R[7])*s
	}
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	if w < 0 {
		n = -n
	}
	return w / n, x / n, y / n, z / n
}
