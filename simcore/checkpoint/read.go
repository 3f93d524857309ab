package checkpoint

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"

	"github.com/klauspost/compress/zstd"

	"snowtools/simcore"
)

// readHeader reads and checks the header only: enough to tell whether a checkpoint
// belongs to a scene, and at which frame, without decompressing the state.
func readHeader(r io.Reader) (Header, error) {
	var head [headerSize]byte
	if n, err := io.ReadFull(r, head[:]); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Header{}, &FormatError{Header: true, Offset: int64(n), Field: "header", Msg: "truncated", Err: err}
	}
	herr := func(off int64, field, format string, args ...any) error {
		return &FormatError{Header: true, Offset: off, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if string(head[:8]) != magic {
		return Header{}, herr(0, "magic", "not a snowsim checkpoint (the file starts with %q)", head[:8])
	}
	if v := le.Uint32(head[8:]); v != version {
		return Header{}, herr(8, "version", "format version %d; this program reads version %d", v, version)
	}
	if c := le.Uint32(head[12:]); c != compression {
		return Header{}, herr(12, "compression", "unknown compression %d (1 is zstd)", c)
	}
	if got, want := crc32.Checksum(head[:56], castagnoli), le.Uint32(head[56:]); got != want {
		return Header{}, herr(56, "header checksum", "the header is damaged (CRC %08x, recorded %08x)", got, want)
	}
	var h Header
	h.Frame = int64(le.Uint64(head[16:]))
	if h.Frame < 0 {
		return Header{}, herr(16, "frame", "frame %d: must be >= 0", h.Frame)
	}
	copy(h.Scene[:], head[24:56])
	return h, nil
}

// DefaultMaxState is the most particle data, in bytes as the file stores it, that
// Read holds in memory: 4 GiB, 29 million particles of 148 bytes. Callers that know
// how much memory they may use pass it to ReadLimit.
const DefaultMaxState = 4 << 30

// Read reads a whole checkpoint, with at most DefaultMaxState bytes of particle
// data; see ReadLimit.
func Read(r io.Reader) (Header, simcore.State, error) {
	return ReadLimit(r, 0)
}

// ReadLimit reads a whole checkpoint. The particle count times the bytes per
// particle of the columns the flags announce is the state's declared size; when it
// exceeds maxBytes (0 means DefaultMaxState) ReadLimit fails with a *FormatError
// about the count before it decodes a column. Below the limit the columns grow as
// their bytes arrive, and decompression stops one byte past the declared size, so
// a few kilobytes of zstd that expand to gigabytes cost no more than the declared
// size, and a count larger than the data costs only the data.
func ReadLimit(r io.Reader, maxBytes int64) (Header, simcore.State, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxState
	}
	h, err := readHeader(r)
	if err != nil {
		return Header{}, simcore.State{}, err
	}
	// One decoder goroutine and a bounded window: a hostile file cannot make the
	// decoder allocate much more than the window. The decoder's own memory cap is
	// the limit too (it caps the window of a streaming decoder, so never below the
	// window Write uses).
	zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(2*windowSize),
		zstd.WithDecoderMaxMemory(uint64(max(maxBytes, 2*windowSize))), zstd.WithDecoderLowmem(true))
	if err != nil {
		return Header{}, simcore.State{}, err
	}
	defer zr.Close()
	d := &decoder{r: zr, buf: make([]byte, 64<<10), maxBytes: maxBytes}
	st, err := d.state()
	if err != nil {
		return Header{}, simcore.State{}, err
	}
	return h, st, nil
}

// decoder reads the decompressed state and knows where it is in it.
type decoder struct {
	r        io.Reader
	off      int64
	buf      []byte
	maxBytes int64 // the most bytes of particle columns the state may declare
}

// read reads n bytes (n <= len(buf)) of the field that starts at byte start (for a
// column, the value of particle (off - start)/size is the one cut short).
func (d *decoder) read(n int, field string, start int64, size int) ([]byte, error) {
	b := d.buf[:n]
	got, err := io.ReadFull(d.r, b)
	d.off += int64(got)
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		msg := "truncated"
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "damaged compressed data"
		}
		if size > 0 {
			field = fmt.Sprintf("%s of particle %d", field, (d.off-start)/int64(size))
		}
		return nil, &FormatError{Offset: d.off, Field: field, Msg: msg, Err: err}
	}
	return b, nil
}

// state reads the decompressed state: its scalars, the particle columns and the end.
func (d *decoder) state() (simcore.State, error) {
	var st simcore.State
	flags, n, err := d.scalars(&st)
	if err != nil {
		return st, err
	}
	for _, c := range columns {
		if c.in(flags) {
			if err := d.column(c, &st.Particles, n); err != nil {
				return st, err
			}
		}
	}
	// The stream must end here; reading to its end also checks zstd's checksum of
	// everything above.
	var one [1]byte
	switch got, err := io.ReadFull(d.r, one[:]); {
	case got > 0:
		return st, &FormatError{Offset: d.off, Field: "end", Msg: "data after the last particle"}
	case !errors.Is(err, io.EOF):
		return st, &FormatError{Offset: -1, Field: "compressed state", Msg: "damaged", Err: err}
	}
	return st, nil
}

// scalars reads the state's scalars into st and returns its flags and particle count.
func (d *decoder) scalars(st *simcore.State) (flags uint32, n int, err error) {
	b, err := d.read(stateHead, "state header", 0, 0)
	if err != nil {
		return 0, 0, err
	}
	bad := func(off int64, field, format string, args ...any) error {
		return &FormatError{Offset: off, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	st.Time = math.Float64frombits(le.Uint64(b[0:]))
	st.Steps = int64(le.Uint64(b[8:]))
	st.MaxSpeed = math.Float64frombits(le.Uint64(b[16:]))
	st.MaxWaveSpeed = math.Float64frombits(le.Uint64(b[24:]))
	flags = le.Uint32(b[32:])
	count := le.Uint32(b[36:])
	switch {
	case !(st.Time >= 0) || math.IsInf(st.Time, 1):
		return 0, 0, bad(0, "time", "%g s: must be finite and >= 0", st.Time)
	case st.Steps < 0:
		return 0, 0, bad(8, "steps", "%d: must be >= 0", st.Steps)
	case !(st.MaxSpeed >= 0) || math.IsInf(st.MaxSpeed, 1):
		return 0, 0, bad(16, "fastest particle", "%g m/s: must be finite and >= 0", st.MaxSpeed)
	case !(st.MaxWaveSpeed >= 0) || math.IsInf(st.MaxWaveSpeed, 1):
		return 0, 0, bad(24, "fastest wave", "%g m/s: must be finite and >= 0", st.MaxWaveSpeed)
	case flags&^knownFlags != 0:
		return 0, 0, bad(32, "flags", "unknown flags %#x", flags)
	case count > maxParticles:
		return 0, 0, bad(36, "particle count", "%d: at most %d", count, maxParticles)
	}
	perParticle := int64(0)
	for _, c := range columns {
		if c.in(flags) {
			perParticle += int64(c.Size())
		}
	}
	if size := int64(count) * perParticle; size > d.maxBytes {
		return 0, 0, bad(36, "particle count", "%d particles of %d bytes are %d bytes, more than the limit of %d",
			count, perParticle, size, d.maxBytes)
	}
	st.VolumesKnown = flags&flagVolumesKnown != 0
	return flags, int(count), nil
}

// column reads the n values of column c into p, a buffer at a time: the column grows
// as its bytes arrive, never by what the count claims.
func (d *decoder) column(c column, p *simcore.Particles, n int) error {
	start, size := d.off, c.Size()
	per := len(d.buf) / size // values per read
	for done := 0; done < n; {
		k := min(n-done, per)
		b, err := d.read(k*size, c.Name, start, size)
		if err != nil {
			return err
		}
		c.Grow(p, k, n)
		c.Decode(p, done, b)
		done += k
	}
	return nil
}
