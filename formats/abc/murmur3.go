package abc

import (
	"encoding/binary"
	"math/bits"
)

// Digest is the 128-bit key Alembic files before every sample's bytes and uses to
// store each distinct sample once: MurmurHash3 x64 128 (Austin Appleby's public
// domain hash, seed 0) of the sample's little-endian bytes, its two 64-bit halves h1
// and h2 stored little-endian, h1 first.
type Digest [16]byte

// murmur3 constants, from the public description of MurmurHash3_x64_128.
const (
	murmurC1 = 0x87c37b91114253d5
	murmurC2 = 0x4cf5ad432745937f
)

// Sum128 returns the MurmurHash3 x64 128 digest of data with seed 0.
//
// The data is read as 16-byte blocks of two little-endian 64-bit words k1, k2; each
// block mixes k1 into h1 and k2 into h2 (multiply, rotate, multiply, then fold the
// other half in), and the last len%16 bytes are mixed the same way without the fold.
// Both halves are finally xored with the length and avalanched by fmix64.
func Sum128(data []byte) Digest {
	var h1, h2 uint64
	n := len(data)
	blocks := n / 16
	for i := 0; i < blocks; i++ {
		k1 := binary.LittleEndian.Uint64(data[16*i:])
		k2 := binary.LittleEndian.Uint64(data[16*i+8:])
		h1 ^= mixK1(k1)
		h1 = bits.RotateLeft64(h1, 27) + h2
		h1 = h1*5 + 0x52dce729
		h2 ^= mixK2(k2)
		h2 = bits.RotateLeft64(h2, 31) + h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := data[16*blocks:]
	var k1, k2 uint64
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= uint64(tail[i]) << (8 * (i - 8))
	}
	if len(tail) > 8 {
		h2 ^= mixK2(k2)
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= uint64(tail[i]) << (8 * i)
	}
	if len(tail) > 0 {
		h1 ^= mixK1(k1)
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	h1 += h2
	h2 += h1
	var d Digest
	binary.LittleEndian.PutUint64(d[:8], h1)
	binary.LittleEndian.PutUint64(d[8:], h2)
	return d
}

func mixK1(k uint64) uint64 {
	k *= murmurC1
	k = bits.RotateLeft64(k, 31)
	return k * murmurC2
}

func mixK2(k uint64) uint64 {
	k *= murmurC2
	k = bits.RotateLeft64(k, 33)
	return k * murmurC1
}

// fmix64 is MurmurHash3's finalizer: it makes every input bit affect every output
// bit.
func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
