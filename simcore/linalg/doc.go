// Package linalg is the 3x3 linear algebra of the solver: a row-major Mat3, and the
// singular value and polar decompositions that plasticity (section 7) and the stress
// (equation 1) need every step, in closed form with Jacobi sweeps rather than a
// general-purpose SVD.
package linalg
