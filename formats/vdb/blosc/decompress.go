package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/klauspost/compress/zlib"
	"github.com/pierrec/lz4/v4"
)

// Decompress appends the data of frame to dst and returns the extended slice.
// The frame's header is checked first (ReadHeader), and the output is allocated
// only if the compressed bytes could expand to it.
func Decompress(dst, frame []byte) ([]byte, error) {
	var d Decoder
	return d.Decompress(dst, frame)
}

// A Decoder decompresses frames, keeping its scratch buffers and zlib state from
// one frame to the next. The zero value is ready to use; it is not safe for
// concurrent use.
type Decoder struct {
	shuffled []byte // a block before it is unshuffled
	zr       io.ReadCloser
	zsrc     bytes.Reader
}

// Decompress is the package's Decompress, with d's buffers.
func (d *Decoder) Decompress(dst, frame []byte) ([]byte, error) {
	h, err := ReadHeader(frame)
	if err != nil {
		return dst, err
	}
	frame = frame[:h.CBytes]
	if h.Memcpyed() {
		return append(dst, frame[HeaderSize:]...), nil
	}
	codec, _ := h.Codec()
	if !codec.supported() {
		return dst, errorf(2, "codec %v is not supported (only lz4, blosclz and zlib)", codec)
	}
	if limit := codec.maxExpansion() * (h.CBytes - HeaderSize); h.NBytes > limit {
		return dst, errorf(4, "uncompressed size %d from %d bytes: more than %v can expand to", h.NBytes, h.CBytes, codec)
	}
	start := len(dst)
	dst = grow(dst, h.NBytes)
	out := dst[start:]
	for b := range h.blocks() {
		from := b * h.BlockSize
		block := out[from:min(from+h.BlockSize, h.NBytes)]
		if err := d.block(h, codec, frame, b, block); err != nil {
			return dst[:start], err
		}
	}
	return dst, nil
}

// grow returns b extended by n bytes.
func grow(b []byte, n int) []byte {
	return slices.Grow(b, n)[:len(b)+n]
}

// block decompresses block b of frame into out, which has the block's size.
func (d *Decoder) block(h Header, codec Codec, frame []byte, b int, out []byte) error {
	entry := HeaderSize + 4*b
	at := int(binary.LittleEndian.Uint32(frame[entry:]))
	if tableEnd := HeaderSize + 4*h.blocks(); at < tableEnd || at >= len(frame) {
		return errorf(entry, "block %d starts at byte %d, outside the frame's data (bytes %d to %d)", b, at, tableEnd, len(frame))
	}
	last := b == h.blocks()-1 && h.NBytes%h.BlockSize != 0
	nsplits := h.splits(len(out), last)
	if len(out)%nsplits != 0 {
		return errorf(8, "block size %d is not a multiple of the type size %d", len(out), nsplits)
	}
	filter := h.Shuffle()
	if filter == ByteShuffle && h.TypeSize == 1 {
		filter = NoShuffle // one byte plane: the shuffle does nothing
	}
	unfiltered := out
	if filter != NoShuffle {
		if cap(d.shuffled) < len(out) {
			d.shuffled = make([]byte, len(out))
		}
		unfiltered = d.shuffled[:len(out)]
	}
	size := len(out) / nsplits
	for s := range nsplits {
		if at+4 > len(frame) {
			return errorf(at, "split %d of block %d: the frame ends before its size", s, b)
		}
		n := int(int32(binary.LittleEndian.Uint32(frame[at:])))
		at += 4
		if n < 0 || n > len(frame)-at {
			return errorf(at-4, "split %d of block %d: %d compressed bytes where %d remain", s, b, n, len(frame)-at)
		}
		part := unfiltered[s*size : (s+1)*size]
		if n == size {
			copy(part, frame[at:at+n]) // stored as it is
		} else if err := d.decode(codec, part, frame[at:at+n]); err != nil {
			return &Error{Offset: at, Msg: fmt.Sprintf("split %d of block %d: bad %v data", s, b, codec), Err: err}
		}
		at += n
	}
	switch filter {
	case ByteShuffle:
		unshuffleBytes(out, unfiltered, h.TypeSize)
	case BitShuffle:
		unshuffleBits(out, unfiltered, h.TypeSize)
	}
	return nil
}

var errShortOutput = errors.New("the data does not decode to the split's size")

// decode decompresses src with codec into dst, which it must fill exactly.
func (d *Decoder) decode(codec Codec, dst, src []byte) error {
	switch codec {
	case BloscLZ:
		return decodeBloscLZ(dst, src)
	case LZ4:
		n, err := lz4.UncompressBlock(src, dst)
		if err == nil && n != len(dst) {
			err = errShortOutput
		}
		return err
	default: // Zlib
		d.zsrc.Reset(src)
		var err error
		if d.zr == nil {
			d.zr, err = zlib.NewReader(&d.zsrc)
		} else {
			err = d.zr.(zlib.Resetter).Reset(&d.zsrc, nil)
		}
		if err == nil {
			_, err = io.ReadFull(d.zr, dst)
		}
		if err == nil {
			// The stream must end here, and its checksum agree.
			var one [1]byte
			if n, rerr := d.zr.Read(one[:]); n != 0 {
				err = errors.New("the zlib stream holds more than the split's size")
			} else if rerr != io.EOF {
				err = rerr
			}
		}
		return err
	}
}
