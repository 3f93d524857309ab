package gltf

import "math"

// mat4 is a 4x4 matrix stored column-major as glTF stores it: m[4*col+row].
type mat4 [16]float64

var identity = mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// mul returns a x b.
func (a *mat4) mul(b *mat4) mat4 {
	var m mat4
	for c := 0; c < 4; c++ {
		b0, b1, b2, b3 := b[4*c], b[4*c+1], b[4*c+2], b[4*c+3]
		for r := 0; r < 4; r++ {
			m[4*c+r] = a[r]*b0 + a[4+r]*b1 + a[8+r]*b2 + a[12+r]*b3
		}
	}
	return m
}

// point returns the affine image m x (x, y, z, 1), dropping the fourth row: glTF
// node and inverse-bind matrices are affine.
func (m *mat4) point(x, y, z float64) (float64, float64, float64) {
	return m[0]*x + m[4]*y + m[8]*z + m[12],
		m[1]*x + m[5]*y + m[9]*z + m[13],
		m[2]*x + m[6]*y + m[10]*z + m[14]
}

// trs returns T x R x S for translation t, unit quaternion q = (x, y, z, w) and
// scale s: column j of the upper 3x3 is s_j times column j of the rotation
// matrix of q, and the fourth column is t.
func trs(t [3]float64, q [4]float64, s [3]float64) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	xx, yy, zz := x*x, y*y, z*z
	xy, xz, yz := x*y, x*z, y*z
	wx, wy, wz := w*x, w*y, w*z
	return mat4{
		(1 - 2*(yy+zz)) * s[0], 2 * (xy + wz) * s[0], 2 * (xz - wy) * s[0], 0,
		2 * (xy - wz) * s[1], (1 - 2*(xx+zz)) * s[1], 2 * (yz + wx) * s[1], 0,
		2 * (xz + wy) * s[2], 2 * (yz - wx) * s[2], (1 - 2*(xx+yy)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
}

// normalize returns q / |q|, or the identity rotation for a zero quaternion.
func normalize(q [4]float64) [4]float64 {
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
}

// slerp interpolates unit quaternions a and b by s in [0, 1] along the shorter arc:
// b is negated when a . b < 0, since q and -q are the same rotation. Nearly equal
// quaternions are lerped, where sin(theta) would lose all precision. The result is
// normalized.
func slerp(a, b [4]float64, s float64) [4]float64 {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	if d < 0 {
		d = -d
		b = [4]float64{-b[0], -b[1], -b[2], -b[3]}
	}
	wa, wb := 1-s, s
	if d < 0.9995 {
		theta := math.Acos(d)
		sin := math.Sin(theta)
		wa = math.Sin((1-s)*theta) / sin
		wb = math.Sin(s*theta) / sin
	}
	return normalize([4]float64{
		wa*a[0] + wb*b[0], wa*a[1] + wb*b[1], wa*a[2] + wb*b[2], wa*a[3] + wb*b[3],
	})
}
