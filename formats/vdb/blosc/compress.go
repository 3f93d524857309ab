package blosc

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/zlib"
	"github.com/pierrec/lz4/v4"
)

// Compress appends src as a frame to dst and returns the extended slice.
func Compress(dst, src []byte, o Options) ([]byte, error) {
	var e Encoder
	return e.Compress(dst, src, o)
}

// An Encoder compresses buffers into frames, keeping its compressors and scratch
// buffers from one frame to the next. The zero value is ready to use; it is not
// safe for concurrent use.
type Encoder struct {
	shuffled []byte
	lz4      lz4.Compressor
	blz      blzEncoder
	zbuf     bytes.Buffer
	zw       *zlib.Writer
}

// Compress is the package's Compress, with e's compressors.
//
// Its frames are ones every c-blosc 1.x reads: blocks are split by the rule of
// the versions before the don't-split flag (one split per byte plane when the
// type size is at most 16 and a full block holds at least 128 elements), and
// the flag is set whenever no block is split, for the versions after. A split
// that does not compress is stored as it is; when the frame would not be smaller
// than the data, the data is stored after the header instead (memcpyed).
func (e *Encoder) Compress(dst, src []byte, o Options) ([]byte, error) {
	if !o.Codec.supported() {
		return dst, fmt.Errorf("blosc: cannot compress with %v", o.Codec)
	}
	if o.TypeSize < 1 || o.TypeSize > 255 {
		return dst, fmt.Errorf("blosc: type size %d is not between 1 and 255", o.TypeSize)
	}
	if o.Shuffle > BitShuffle {
		return dst, fmt.Errorf("blosc: unknown shuffle %d", o.Shuffle)
	}
	if len(src) > maxBuffer {
		return dst, fmt.Errorf("blosc: %d bytes are more than a frame holds (%d)", len(src), maxBuffer)
	}
	h := Header{Version: formatVersion, CodecVersion: codecVersion, TypeSize: o.TypeSize,
		NBytes: len(src), BlockSize: blockSize(len(src), o)}
	h.Flags = formatCode[o.Codec] << codecShift
	switch {
	case o.Shuffle == ByteShuffle && o.TypeSize > 1:
		h.Flags |= flagByteShuffle
	case o.Shuffle == BitShuffle:
		h.Flags |= flagBitShuffle
	}
	if h.splits(h.BlockSize, false) == 1 {
		h.Flags |= flagDontSplit
	}

	start := len(dst)
	dst = appendHeader(dst, h)
	tableAt := len(dst)
	dst = append(dst, make([]byte, 4*h.blocks())...)
	limit := start + HeaderSize + h.NBytes // beyond this, store the data as it is
	for b := range h.blocks() {
		binary.LittleEndian.PutUint32(dst[tableAt+4*b:], uint32(len(dst)-start))
		from := b * h.BlockSize
		last := b == h.blocks()-1 && h.NBytes%h.BlockSize != 0
		dst = e.block(dst, h, o.Codec, src[from:min(from+h.BlockSize, h.NBytes)], last)
		if len(dst) >= limit {
			dst = dst[:start]
			h.Flags = h.Flags&^(flagByteShuffle|flagBitShuffle) | flagMemcpyed
			h.CBytes = HeaderSize + h.NBytes
			return append(appendHeader(dst, h), src...), nil
		}
	}
	binary.LittleEndian.PutUint32(dst[start+12:], uint32(len(dst)-start))
	return dst, nil
}

// blockSize returns the block size of a frame of n bytes: the option's, at most
// n and rounded down to whole elements, or n for one block.
func blockSize(n int, o Options) int {
	size := n
	if o.BlockSize > 0 && o.BlockSize < n {
		size = o.BlockSize
	}
	if size > o.TypeSize {
		size -= size % o.TypeSize
	}
	return max(size, 1)
}

// block appends one block, shuffled and compressed split by split, to dst.
func (e *Encoder) block(dst []byte, h Header, codec Codec, block []byte, last bool) []byte {
	filtered := block
	if h.Flags&(flagByteShuffle|flagBitShuffle) != 0 {
		if cap(e.shuffled) < len(block) {
			e.shuffled = make([]byte, len(block))
		}
		filtered = e.shuffled[:len(block)]
		if h.Flags&flagByteShuffle != 0 {
			shuffleBytes(filtered, block, h.TypeSize)
		} else {
			shuffleBits(filtered, block, h.TypeSize)
		}
	}
	nsplits := h.splits(len(block), last)
	size := len(block) / nsplits
	for s := range nsplits {
		part := filtered[s*size : (s+1)*size]
		sizeAt := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		compressed := e.encode(codec, dst, part)
		if compressed == nil {
			dst = append(dst, part...) // stored as it is: its size says so
		} else {
			dst = compressed
		}
		binary.LittleEndian.PutUint32(dst[sizeAt:], uint32(len(dst)-sizeAt-4))
	}
	return dst
}

// encode appends src compressed with codec to dst, or returns nil if that would
// not be shorter than src: a split as long as its data is read as stored.
func (e *Encoder) encode(codec Codec, dst, src []byte) []byte {
	switch codec {
	case BloscLZ:
		return e.blz.encode(dst, src, len(src))
	case LZ4:
		at := len(dst)
		dst = grow(dst, lz4.CompressBlockBound(len(src)))
		n, err := e.lz4.CompressBlock(src, dst[at:])
		if err != nil || n == 0 || n >= len(src) {
			return nil
		}
		return dst[:at+n]
	default: // Zlib
		e.zbuf.Reset()
		if e.zw == nil {
			e.zw = zlib.NewWriter(&e.zbuf)
		} else {
			e.zw.Reset(&e.zbuf)
		}
		e.zw.Write(src) // writes to a bytes.Buffer cannot fail
		e.zw.Close()
		if e.zbuf.Len() >= len(src) {
			return nil
		}
		return append(dst, e.zbuf.Bytes()...)
	}
}
