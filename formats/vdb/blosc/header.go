package blosc

import (
	"encoding/binary"
	"math"
)

// HeaderSize is the size of a frame's header, and the most a frame adds to the
// bytes it holds when they do not compress (BLOSC_MAX_OVERHEAD).
const HeaderSize = 16

// maxBuffer is the largest buffer a frame may hold: nbytes and cbytes are int32
// in c-blosc (BLOSC_MAX_BUFFERSIZE).
const maxBuffer = math.MaxInt32 - HeaderSize

// The versions a frame's first two bytes hold. c-blosc 1.x writes format 2 and
// codec format 1 for every codec; format 1 frames are laid out the same way.
// Format 3 and later are Blosc2 chunks, which extend the header.
const (
	formatVersion = 2
	codecVersion  = 1
)

// The bits of the header's flags byte; the top three hold the codec's format code.
const (
	flagByteShuffle = 0x01
	flagMemcpyed    = 0x02 // the data follows the header uncompressed
	flagBitShuffle  = 0x04
	flagReserved    = 0x08
	flagDontSplit   = 0x10 // blocks were compressed whole (c-blosc 1.14 and later)
	codecShift      = 5
)

// Header is a frame's 16-byte header.
type Header struct {
	Version, CodecVersion byte
	Flags                 byte
	TypeSize              int
	NBytes                int // uncompressed size of the data
	BlockSize             int // size of each block; the last may be shorter
	CBytes                int // size of the frame, header included
}

// Codec returns the codec the flags name; ok is false for the unassigned codes.
func (h Header) Codec() (c Codec, ok bool) { return codecOfFormat(h.Flags >> codecShift) }

// Shuffle returns the filter the flags name.
func (h Header) Shuffle() Shuffle {
	switch {
	case h.Flags&flagByteShuffle != 0:
		return ByteShuffle
	case h.Flags&flagBitShuffle != 0:
		return BitShuffle
	}
	return NoShuffle
}

// Memcpyed tells whether the data follows the header uncompressed.
func (h Header) Memcpyed() bool { return h.Flags&flagMemcpyed != 0 }

// blocks returns how many blocks the data is cut into.
func (h Header) blocks() int {
	if h.NBytes == 0 {
		return 0
	}
	return (h.NBytes + h.BlockSize - 1) / h.BlockSize
}

// splits returns how many splits a block of size bytes was compressed in:
// typesize splits (one per byte plane, after a byte shuffle), unless the frame
// says blocks are whole, the block is the shorter last one, or its elements are
// too large or too few (c-blosc's MAX_SPLITS 16 and MIN_BUFFERSIZE 128). Writers
// older than c-blosc 1.14 split by that rule alone, so frames without the
// don't-split flag are read by it.
func (h Header) splits(size int, last bool) int {
	if h.Flags&flagDontSplit == 0 && !last && h.TypeSize <= 16 && size/h.TypeSize >= 128 {
		return h.TypeSize
	}
	return 1
}

// ReadHeader reads and checks the header of frame: the versions and flags are
// ones c-blosc 1.x writes, and the sizes agree with each other and with the
// len(frame) bytes that exist (bytes after cbytes are not part of the frame).
func ReadHeader(frame []byte) (Header, error) {
	if len(frame) < HeaderSize {
		return Header{}, errorf(len(frame), "a frame has a %d-byte header; only %d bytes", HeaderSize, len(frame))
	}
	le := binary.LittleEndian
	h := Header{
		Version: frame[0], CodecVersion: frame[1], Flags: frame[2], TypeSize: int(frame[3]),
		NBytes: int(le.Uint32(frame[4:])), BlockSize: int(le.Uint32(frame[8:])), CBytes: int(le.Uint32(frame[12:])),
	}
	switch {
	case h.Version == 0 || h.Version > formatVersion:
		return h, errorf(0, "format version %d; this reader knows c-blosc 1.x frames (versions 1 and 2), not Blosc2 chunks", h.Version)
	case h.Flags&flagReserved != 0:
		return h, errorf(2, "flags %#x set the reserved bit 3", h.Flags)
	case h.Flags&flagByteShuffle != 0 && h.Flags&flagBitShuffle != 0:
		return h, errorf(2, "flags %#x ask for both byte and bit shuffle", h.Flags)
	case h.TypeSize == 0:
		return h, errorf(3, "type size 0")
	case h.CBytes < HeaderSize || h.CBytes > len(frame):
		return h, errorf(12, "frame size %d where %d bytes are there (at least %d)", h.CBytes, len(frame), HeaderSize)
	case h.NBytes > maxBuffer:
		return h, errorf(4, "uncompressed size %d is larger than Blosc allows (%d)", h.NBytes, maxBuffer)
	case h.Memcpyed() && h.CBytes != HeaderSize+h.NBytes:
		return h, errorf(12, "frame size %d for %d bytes stored uncompressed", h.CBytes, h.NBytes)
	case h.NBytes > 0 && h.BlockSize == 0:
		return h, errorf(8, "block size 0 for %d bytes", h.NBytes)
	case !h.Memcpyed() && HeaderSize+4*h.blocks() > h.CBytes:
		return h, errorf(12, "frame size %d is too small for the start table of %d blocks", h.CBytes, h.blocks())
	}
	if _, ok := h.Codec(); !ok {
		return h, errorf(2, "flags %#x name codec %d, which Blosc does not define", h.Flags, h.Flags>>codecShift)
	}
	return h, nil
}

// appendHeader appends h's 16 bytes to b.
func appendHeader(b []byte, h Header) []byte {
	b = append(b, h.Version, h.CodecVersion, h.Flags, byte(h.TypeSize))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.NBytes))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.BlockSize))
	return binary.LittleEndian.AppendUint32(b, uint32(h.CBytes))
}
