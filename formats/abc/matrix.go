package abc

import (
	"math"

	"snowtools/levelset/geom"
)

// Matrix is a 4x4 affine transform in Imath's layout, which Alembic uses: row-major
// m[4*row+col], acting on row vectors, p' = p M, so the translation is m[12..14]. The
// product a.Mul(b) applies a first, then b: a child's world matrix is
// local.Mul(parentWorld).
type Matrix [16]float64

// Identity is the identity transform.
var Identity = Matrix{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// Mul returns the matrix product a b: the transform that applies a, then b.
func (a Matrix) Mul(b Matrix) Matrix {
	var m Matrix
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			m[4*r+c] = a[4*r]*b[c] + a[4*r+1]*b[4+c] + a[4*r+2]*b[8+c] + a[4*r+3]*b[12+c]
		}
	}
	return m
}

// Point returns the image of point p: (p, 1) M without its fourth column, which an
// affine transform leaves (0, 0, 0, 1).
func (m Matrix) Point(p geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		p[0]*m[0] + p[1]*m[4] + p[2]*m[8] + m[12],
		p[0]*m[1] + p[1]*m[5] + p[2]*m[9] + m[13],
		p[0]*m[2] + p[1]*m[6] + p[2]*m[10] + m[14],
	}
}

// Vector returns the image of direction v (a velocity), which the translation leaves
// alone: (v, 0) M.
func (m Matrix) Vector(v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		v[0]*m[0] + v[1]*m[4] + v[2]*m[8],
		v[0]*m[1] + v[1]*m[5] + v[2]*m[9],
		v[0]*m[2] + v[1]*m[6] + v[2]*m[10],
	}
}

// Determinant3 returns the determinant of the upper-left 3x3 block: negative when m
// mirrors, which turns a mesh's faces inside out.
func (m Matrix) Determinant3() float64 {
	return m[0]*(m[5]*m[10]-m[6]*m[9]) - m[1]*(m[4]*m[10]-m[6]*m[8]) + m[2]*(m[4]*m[9]-m[5]*m[8])
}

func translation(t geom.Vec3) Matrix {
	m := Identity
	m[12], m[13], m[14] = t[0], t[1], t[2]
	return m
}

func scaling(s geom.Vec3) Matrix {
	m := Identity
	m[0], m[5], m[10] = s[0], s[1], s[2]
	return m
}

// rotation returns the right-handed rotation by degrees about axis (normalized
// here): Rodrigues' R = cos I + sin [a]x + (1 - cos) a a^T, transposed for row
// vectors. A zero axis gives the identity, as Imath's normalize does.
func rotation(axis geom.Vec3, degrees float64) Matrix {
	a := axis.Unit()
	if a == (geom.Vec3{}) {
		return Identity
	}
	s, c := math.Sincos(degrees * math.Pi / 180)
	t := 1 - c
	x, y, z := a[0], a[1], a[2]
	return Matrix{
		x*x*t + c, x*y*t + z*s, x*z*t - y*s, 0,
		x*y*t - z*s, y*y*t + c, y*z*t + x*s, 0,
		x*z*t + y*s, y*z*t - x*s, z*z*t + c, 0,
		0, 0, 0, 1,
	}
}
