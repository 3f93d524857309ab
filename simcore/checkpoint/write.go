package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/klauspost/compress/zstd"

	"snowtools/levelset/geom"
	"snowtools/simcore"
)

const (
	magic       = "SNOWSTAT"
	Version     = 1 // the format version this package writes and reads
	compression = 1 // zstd
	headerSize  = 60
	stateHead   = 40  // the scalars before the particle columns
	recordSize  = 144 // bytes per particle, all columns together (without sintering)

	flagVolumesKnown = 1 // state flags: stage 2 has run
	flagSintering    = 2 // a Sinter column follows the others
	// MaxParticles is the most particles a checkpoint holds: particle IDs are int32.
	MaxParticles = math.MaxInt32
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
	n := len(p.X)
	for _, l := range []int{len(p.ID), len(p.V), len(p.Mass), len(p.Vol0), len(p.FE), len(p.JP), len(p.Mat), len(st.Stress)} {
		if l != n {
			return errors.New("checkpoint: the state's particle fields have different lengths")
		}
	}
	if p.Sinter != nil && len(p.Sinter) != n {
		return errors.New("checkpoint: the state's particle fields have different lengths")
	}
	if n > MaxParticles {
		return fmt.Errorf("checkpoint: %d particles: at most %d fit", n, MaxParticles)
	}
	if h.Frame < 0 {
		return fmt.Errorf("checkpoint: frame %d: must be >= 0", h.Frame)
	}

	var head [headerSize]byte
	copy(head[:], magic)
	le.PutUint32(head[8:], Version)
	le.PutUint32(head[12:], compression)
	le.PutUint64(head[16:], uint64(h.Frame))
	copy(head[24:56], h.Scene[:])
	le.PutUint32(head[56:], crc32.Checksum(head[:56], castagnoli))
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
	var flags uint32
	if st.VolumesKnown {
		flags |= flagVolumesKnown
	}
	if p.Sinter != nil {
		flags |= flagSintering
	}
	b := e.next(stateHead)
	le.PutUint64(b[0:], math.Float64bits(st.Time))
	le.PutUint64(b[8:], uint64(st.Steps))
	le.PutUint64(b[16:], math.Float64bits(st.MaxSpeed))
	le.PutUint64(b[24:], math.Float64bits(st.MaxWaveSpeed))
	le.PutUint32(b[32:], flags)
	le.PutUint32(b[36:], uint32(n))
	for _, c := range fileColumns(flags) {
		for i := 0; i < n && e.err == nil; i++ {
			c.put(e.next(c.size), st, i)
		}
	}
	e.flush()
	if e.err != nil {
		zw.Close()
		return e.err
	}
	return zw.Close()
}

// encoder hands out room for values in a buffer and writes it when full, so that
// the compressor sees large writes.
type encoder struct {
	w   io.Writer
	buf []byte
	err error
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

func putFloat32s(b []byte, xs ...float32) {
	for k, x := range xs {
		le.PutUint32(b[4*k:], math.Float32bits(x))
	}
}

func putVec3(b []byte, v geom.Vec3) {
	for k, x := range v {
		le.PutUint64(b[8*k:], math.Float64bits(x))
	}
}
