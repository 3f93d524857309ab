package bspline

import (
	"math"
	"testing"
)

// Slope is the derivative of N, and N has the values of section 4 at the nodes.
func TestSlopeIsDerivative(t *testing.T) {
	for x := -2.5; x <= 2.5; x += 0.01 {
		const e = 1e-6
		fd := (N(x+e) - N(x-e)) / (2 * e)
		if math.Abs(fd-Slope(x)) > 1e-6 {
			t.Fatalf("N'(%g) = %g, finite difference %g", x, Slope(x), fd)
		}
	}
	if math.Abs(N(0)-2.0/3) > 1e-15 || math.Abs(N(1)-1.0/6) > 1e-15 || N(2) != 0 {
		t.Fatalf("N(0), N(1), N(2) = %g, %g, %g; want 2/3, 1/6, 0", N(0), N(1), N(2))
	}
}
