package checkpoint

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/klauspost/compress/zstd"

	"snowtools/simcore"
)

const (
	magic       = "SNOWSTAT"
	version     = 4 // the format version this package writes and reads
	compression = 1 // zstd
	headerSize  = 60
	stateHead   = 40 // the scalars before the particle columns

	// maxParticles is the most particles a checkpoint holds: particle IDs are int32.
	maxParticles = math.MaxInt32
	// windowSize is the zstd window: large enough for the repeats within a column,
	// small enough that a reader of a hostile file allocates little.
	windowSize = 4 << 20
)

var (
	le         = binary.LittleEndian
	castagnoli = crc32.MakeTable(crc32.Castagnoli)
)

// Header is what a checkpoint records besides the state.
type Header struct {
	Frame int64    // the frame at whose end the state was taken
	Scene [32]byte // identifies the input that produced the state; opaque here
}

// Write writes st as a checkpoint. st is only read.
func Write(w io.Writer, h Header, st *simcore.State) error {
	p := &st.Particles
	n := p.Len()
	if err := p.CheckLengths(); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if n > maxParticles {
		return fmt.Errorf("checkpoint: %d particles: at most %d fit", n, maxParticles)
	}
	if h.Frame < 0 {
		return fmt.Errorf("checkpoint: frame %d: must be >= 0", h.Frame)
	}

	head := encodeHeader(h)
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	// One encoder goroutine: the output is then the same bytes every time.
	zw, err := zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(windowSize), zstd.WithEncoderCRC(true))
	if err != nil {
		return err
	}
	e := &encoder{w: zw, buf: make([]byte, 0, 64<<10)}
	e.state(st)
	e.flush()
	if e.err != nil {
		zw.Close()
		return e.err
	}
	return zw.Close()
}

// encodeHeader returns the header of a file: magic, version, compression, h and the
// header's checksum.
func encodeHeader(h Header) [headerSize]byte {
	var head [headerSize]byte
	copy(head[:], magic)
	le.PutUint32(head[8:], version)
	le.PutUint32(head[12:], compression)
	le.PutUint64(head[16:], uint64(h.Frame))
	copy(head[24:56], h.Scene[:])
	le.PutUint32(head[56:], crc32.Checksum(head[:56], castagnoli))
	return head
}

// encoder hands out room for values in a buffer and writes it when full, so that
// the compressor sees large writes.
type encoder struct {
	w   io.Writer
	buf []byte
	err error
}

// state writes the state's scalars, then its particle columns.
func (e *encoder) state(st *simcore.State) {
	flags := stateFlags(st)
	b := e.next(stateHead)
	le.PutUint64(b[0:], math.Float64bits(st.Time))
	le.PutUint64(b[8:], uint64(st.Steps))
	le.PutUint64(b[16:], math.Float64bits(st.MaxSpeed))
	le.PutUint64(b[24:], math.Float64bits(st.MaxWaveSpeed))
	le.PutUint32(b[32:], flags)
	le.PutUint32(b[36:], uint32(st.Particles.Len()))
	for _, c := range columns {
		if c.in(flags) {
			e.column(c, &st.Particles)
		}
	}
}

// column writes the values of column c, as many at a time as the buffer has room for.
func (e *encoder) column(c column, p *simcore.Particles) {
	n, size := p.Len(), c.Size()
	for i := 0; i < n && e.err == nil; {
		k := min(e.room(size), n-i)
		c.Encode(p, i, e.next(k*size))
		i += k
	}
}

// room returns how many values of size bytes fit in the buffer, writing it first
// if none does (size <= cap(buf)).
func (e *encoder) room(size int) int {
	if len(e.buf)+size > cap(e.buf) {
		e.flush()
	}
	return (cap(e.buf) - len(e.buf)) / size
}

// next returns n bytes to fill (n <= cap(buf)).
func (e *encoder) next(n int) []byte {
	if len(e.buf)+n > cap(e.buf) {
		e.flush()
	}
	l := len(e.buf)
	e.buf = e.buf[:l+n]
	return e.buf[l:]
}

func (e *encoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}
