// Package hashrand turns integer lattice coordinates into random bits, so that random
// fields (seeding patterns, noise, terrain) depend only on their seed and the lattice
// point, never on the order points are visited in or the number of threads.
package hashrand

// Mix64 is the finalizer of SplitMix64 (Steele, Lea and Flood 2014): a bijection of
// uint64 whose output bits each depend on every input bit.
func Mix64(z uint64) uint64 {
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	return z ^ z>>31
}

// Lattice hashes a seed, a stream tag and integer lattice coordinates to 64 bits.
func Lattice(seed, tag uint64, i, j, k int) uint64 {
	z := Mix64(seed ^ tag)
	z = Mix64(z ^ uint64(int64(i)))
	z = Mix64(z ^ uint64(int64(j))*0x9e3779b97f4a7c15)
	return Mix64(z ^ uint64(int64(k))*0xc2b2ae3d27d4eb4f)
}
