package blosc

// The shuffles see a block of len(src) bytes as n = len(src)/typesize elements of
// typesize bytes, and any bytes after the last whole element as a tail they copy
// unchanged.

// shuffleBytes writes the byte planes of src to dst: byte j of element i goes to
// dst[j*n + i].
func shuffleBytes(dst, src []byte, typesize int) {
	n := len(src) / typesize
	for j := range typesize {
		plane := dst[j*n : (j+1)*n]
		for i := range plane {
			plane[i] = src[i*typesize+j]
		}
	}
	copy(dst[n*typesize:], src[n*typesize:])
}

// unshuffleBytes inverts shuffleBytes.
func unshuffleBytes(dst, src []byte, typesize int) {
	n := len(src) / typesize
	for j := range typesize {
		plane := src[j*n : (j+1)*n]
		for i, b := range plane {
			dst[i*typesize+j] = b
		}
	}
	copy(dst[n*typesize:], src[n*typesize:])
}

// The bit shuffle is applied only when the element count n is a multiple of 8;
// other blocks are stored as they are (c-blosc 1.x). It writes 8*typesize bit
// planes of n bits each, n/8 bytes: plane 8j+k holds bit k of byte j of every
// element, element i at bit i%8 of byte i/8.

// shuffleBits writes the bit planes of src to dst.
func shuffleBits(dst, src []byte, typesize int) {
	n := len(src) / typesize
	if n%8 != 0 {
		copy(dst, src)
		return
	}
	rows := n / 8
	for j := range typesize {
		for g := range rows {
			// Byte j of elements 8g to 8g+7: an 8x8 bit matrix, transposed.
			var col [8]byte
			for m := range 8 {
				b := src[(8*g+m)*typesize+j]
				for k := range 8 {
					col[k] |= (b >> k & 1) << m
				}
			}
			for k := range 8 {
				dst[(8*j+k)*rows+g] = col[k]
			}
		}
	}
	copy(dst[n*typesize:], src[n*typesize:])
}

// unshuffleBits inverts shuffleBits.
func unshuffleBits(dst, src []byte, typesize int) {
	n := len(src) / typesize
	if n%8 != 0 {
		copy(dst, src)
		return
	}
	rows := n / 8
	for j := range typesize {
		for g := range rows {
			var elem [8]byte
			for k := range 8 {
				c := src[(8*j+k)*rows+g]
				for m := range 8 {
					elem[m] |= (c >> m & 1) << k
				}
			}
			for m := range 8 {
				dst[(8*g+m)*typesize+j] = elem[m]
			}
		}
	}
	copy(dst[n*typesize:], src[n*typesize:])
}
