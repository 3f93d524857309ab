package levelset

import "math/bits"

// Mask512 is one bit per voxel of a leaf, bit n for the voxel at LeafOffset n,
// stored as OpenVDB stores a leaf's node mask: eight 64-bit words, least
// significant bit first.
type Mask512 [LeafVoxels / 64]uint64

// IsOn reports whether bit n is set.
func (m *Mask512) IsOn(n int) bool { return m[n>>6]&(1<<(n&63)) != 0 }

// Set sets bit n to on.
func (m *Mask512) Set(n int, on bool) {
	if on {
		m[n>>6] |= 1 << (n & 63)
	} else {
		m[n>>6] &^= 1 << (n & 63)
	}
}

// SetAll sets every bit to on.
func (m *Mask512) SetAll(on bool) {
	var w uint64
	if on {
		w = ^uint64(0)
	}
	for i := range m {
		m[i] = w
	}
}

// Count returns the number of bits that are on.
func (m *Mask512) Count() int {
	n := 0
	for _, w := range m {
		n += bits.OnesCount64(w)
	}
	return n
}

// IsEmpty reports whether no bit is on.
func (m *Mask512) IsEmpty() bool { return *m == Mask512{} }

// ForEachOn calls fn with every bit that is on, in increasing order.
func (m *Mask512) ForEachOn(fn func(n int)) {
	for i, w := range m {
		for w != 0 {
			fn(i<<6 | bits.TrailingZeros64(w))
			w &= w - 1
		}
	}
}

// And returns the voxels in both m and o.
func (m *Mask512) And(o *Mask512) Mask512 {
	var r Mask512
	for i := range m {
		r[i] = m[i] & o[i]
	}
	return r
}

// AndNot returns the voxels in m but not in o.
func (m *Mask512) AndNot(o *Mask512) Mask512 {
	var r Mask512
	for i := range m {
		r[i] = m[i] &^ o[i]
	}
	return r
}

// First returns the lowest voxel offset in m, or -1 if m is empty.
func (m *Mask512) First() int {
	for i, w := range m {
		if w != 0 {
			return i<<6 | bits.TrailingZeros64(w)
		}
	}
	return -1
}

// Or returns the voxels in m or o.
func (m *Mask512) Or(o *Mask512) Mask512 {
	var r Mask512
	for i := range m {
		r[i] = m[i] | o[i]
	}
	return r
}

// Bounds returns the smallest box [lo, hi] of offsets within the leaf (0 to 7 on
// each axis, LeafCoord's) that holds every bit that is on; ok is false when none
// is. A word is one x (LeafOffset is x-major), a byte of it one y, a bit of that
// byte one z, so the box comes from the words and the bytes of their union.
func (m *Mask512) Bounds() (lo, hi Coord, ok bool) {
	var all uint64
	lo[0] = -1
	for x, w := range m {
		if w != 0 {
			if lo[0] < 0 {
				lo[0] = int32(x)
			}
			hi[0] = int32(x)
			all |= w
		}
	}
	if all == 0 {
		return Coord{}, Coord{}, false
	}
	var ys, zs uint8
	for y := range LeafDim {
		if b := uint8(all >> (LeafDim * y)); b != 0 {
			ys |= 1 << y
			zs |= b
		}
	}
	lo[1], hi[1] = int32(bits.TrailingZeros8(ys)), int32(7-bits.LeadingZeros8(ys))
	lo[2], hi[2] = int32(bits.TrailingZeros8(zs)), int32(7-bits.LeadingZeros8(zs))
	return lo, hi, true
}
