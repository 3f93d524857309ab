// Package bspline is the interpolation kernel of section 4 of Stomakhin et al. 2013,
// shared by the solver's transfers and the density volumes of particle frames.
package bspline

import "math"

// The interpolation functions of section 4: N_i(x_p) = N(x_p/h - i) N(y_p/h - j) N(z_p/h - k)
// with the cubic B-spline
//
//	N(x) = |x|^3/2 - x^2 + 2/3          for 0 <= |x| < 1
//	N(x) = -|x|^3/6 + x^2 - 2|x| + 4/3  for 1 <= |x| < 2
//	N(x) = 0                            otherwise.
//
// Grid node (i, j, k) sits at (i h, j h, k h). A particle at X = x/h (in cells) touches the
// four nodes base..base+3 on each axis, base = floor(X) - 1.

// N returns the cubic B-spline N(x) of section 4.
func N(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < 1:
		return x*x*x/2 - x*x + 2.0/3
	case x < 2:
		return -x*x*x/6 + x*x - 2*x + 4.0/3
	}
	return 0
}

// Slope returns dN/dx.
func Slope(x float64) float64 {
	a := math.Abs(x)
	var d float64
	switch {
	case a < 1:
		d = 1.5*a*a - 2*a
	case a < 2:
		d = -0.5*a*a + 2*a - 2
	default:
		return 0
	}
	if x < 0 {
		return -d
	}
	return d
}
