package linalg

import (
	"math"

	"snowtools/levelset/geom"
)

// Mat3 is a 3x3 matrix in row-major order: m[3*r+c] is row r, column c.
type Mat3 [9]float64

// Identity3 is the 3x3 identity matrix.
var Identity3 = Mat3{1, 0, 0, 0, 1, 0, 0, 0, 1}

// Mul returns the matrix product a b.
func (a Mat3) Mul(b Mat3) Mat3 {
	var c Mat3
	for r := 0; r < 3; r++ {
		for k := 0; k < 3; k++ {
			c[3*r+k] = a[3*r]*b[k] + a[3*r+1]*b[3+k] + a[3*r+2]*b[6+k]
		}
	}
	return c
}

// MulVec returns a v.
func (a Mat3) MulVec(v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		a[0]*v[0] + a[1]*v[1] + a[2]*v[2],
		a[3]*v[0] + a[4]*v[1] + a[5]*v[2],
		a[6]*v[0] + a[7]*v[1] + a[8]*v[2],
	}
}

// T returns the transpose a^T.
func (a Mat3) T() Mat3 {
	return Mat3{a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]}
}

// Det returns det a.
func (a Mat3) Det() float64 {
	return a[0]*(a[4]*a[8]-a[5]*a[7]) - a[1]*(a[3]*a[8]-a[5]*a[6]) + a[2]*(a[3]*a[7]-a[4]*a[6])
}

// Add returns a + b.
func (a Mat3) Add(b Mat3) Mat3 {
	for i := range a {
		a[i] += b[i]
	}
	return a
}

// Sub returns a - b.
func (a Mat3) Sub(b Mat3) Mat3 {
	for i := range a {
		a[i] -= b[i]
	}
	return a
}

// Scale returns s a.
func (a Mat3) Scale(s float64) Mat3 {
	for i := range a {
		a[i] *= s
	}
	return a
}

// FrobeniusNorm returns ||a||_F = sqrt(sum of squared entries).
func (a Mat3) FrobeniusNorm() float64 {
	s := 0.0
	for _, x := range a {
		s += x * x
	}
	return math.Sqrt(s)
}

// Diag returns the diagonal matrix with d on its diagonal.
func Diag(d geom.Vec3) Mat3 { return Mat3{d[0], 0, 0, 0, d[1], 0, 0, 0, d[2]} }

// Outer returns the outer product a b^T.
func Outer(a, b geom.Vec3) Mat3 {
	return Mat3{
		a[0] * b[0], a[0] * b[1], a[0] * b[2],
		a[1] * b[0], a[1] * b[1], a[1] * b[2],
		a[2] * b[0], a[2] * b[1], a[2] * b[2],
	}
}
