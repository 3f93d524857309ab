package linalg

import (
	"math"
	"math/rand/v2"
)

// RandomRotation returns a uniformly distributed rotation: a random unit
// quaternion (four normal deviates, normalized) turned into a matrix.
func RandomRotation(rng *rand.Rand) Mat3 {
	w, x, y, z := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	w, x, y, z = w/n, x/n, y/n, z/n
	return QuatMatrix(w, x, y, z)
}
