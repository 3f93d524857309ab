// Package blosc reads and writes Blosc frames: the chunk format of c-blosc 1.x
// (format version 2), in which OpenVDB compresses the values of each tree node
// when a grid is saved with Blosc, as Houdini and OpenVDB's own tools do by
// default.
//
// A frame is a 16-byte header (version, codec version, flags, type size,
// uncompressed size nbytes, block size, frame size cbytes), a table of where each
// block starts, and the blocks. Each block of blocksize bytes (the last may be
// shorter) is shuffled as a whole, then cut into "splits" that are compressed one
// by one, each behind its int32 size; a split whose size equals its uncompressed
// size is stored as it is. A frame whose "memcpyed" flag is set holds the nbytes
// bytes right after the header instead.
//
// Shuffling regroups the bytes of the block's elements (typesize bytes each) so
// that the first bytes of all elements come first, then all second bytes and so
// on (byte shuffle), or regroups their bits likewise (bit shuffle). For floats of
// one field the sign and exponent bytes then sit together and repeat, which the
// compressors find.
//
// Codecs: BloscLZ (Blosc's own LZ77, written here), LZ4 (github.com/pierrec/lz4)
// and Zlib (github.com/klauspost/compress) in both directions. Snappy and Zstd
// frames are refused with an error that names them.
//
// Every size the header claims is checked against the bytes that exist before it
// sizes an allocation; malformed frames yield an *Error.
package blosc

import (
	"fmt"
	"strconv"
)

// Codec is the compressor of a frame's splits. The zero value is LZ4, which
// OpenVDB uses.
type Codec uint8

const (
	LZ4     Codec = iota // LZ4 block format (lz4 and lz4hc frames)
	BloscLZ              // Blosc's own LZ77 variant of FastLZ
	Zlib                 // zlib streams (RFC 1950)
	Snappy               // read and written by c-blosc; refused here
	Zstd                 // read and written by c-blosc; refused here
)

// formatCode is the number a codec has in the top three bits of the header's flags.
var formatCode = [...]byte{LZ4: 1, BloscLZ: 0, Zlib: 3, Snappy: 2, Zstd: 4}

// codecOfFormat inverts formatCode; codes 5 to 7 are unassigned.
func codecOfFormat(code byte) (Codec, bool) {
	for c, f := range formatCode {
		if f == code {
			return Codec(c), true
		}
	}
	return 0, false
}

func (c Codec) String() string {
	switch c {
	case LZ4:
		return "lz4"
	case BloscLZ:
		return "blosclz"
	case Zlib:
		return "zlib"
	case Snappy:
		return "snappy"
	case Zstd:
		return "zstd"
	}
	return "codec " + strconv.Itoa(int(c))
}

// supported tells whether this package compresses and decompresses with c.
func (c Codec) supported() bool { return c == LZ4 || c == BloscLZ || c == Zlib }

// maxExpansion is the most bytes one byte of a split compressed with c can
// decompress to, rounded up: a run in LZ4 or BloscLZ costs one length byte per
// 255 bytes of output, and deflate's longest match (258 bytes) can be coded in
// two bits, 1032 bytes of output per input byte. It bounds what a header may
// claim before its output is allocated.
func (c Codec) maxExpansion() int {
	if c == Zlib {
		return 1032
	}
	return 256
}

// Shuffle is the filter applied to each block before it is compressed.
type Shuffle uint8

const (
	NoShuffle   Shuffle = iota
	ByteShuffle         // the byte planes of the elements, one after the other
	BitShuffle          // the bit planes of the elements, one after the other
)

// Options choose how Compress encodes a buffer.
type Options struct {
	Codec   Codec
	Shuffle Shuffle
	// TypeSize is the size in bytes of the elements that Shuffle regroups, 1 to
	// 255: 4 for float32 values (and for vec3s, whose components are float32).
	TypeSize int
	// BlockSize is the size of the blocks the buffer is cut into, rounded down to
	// a multiple of TypeSize; 0 makes the whole buffer one block, as OpenVDB does.
	BlockSize int
}

// An Error reports a malformed frame and the byte offset, from the start of the
// frame, of the field at fault. Err is the codec's error, if any.
type Error struct {
	Offset int
	Msg    string
	Err    error
}

func (e *Error) Error() string {
	s := "blosc: byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

func errorf(offset int, format string, args ...any) *Error {
	return &Error{Offset: offset, Msg: fmt.Sprintf(format, args...)}
}
