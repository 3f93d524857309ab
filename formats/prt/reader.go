package prt

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/zlib"
)

// A Reader reads a PRT file: NewReader parses and checks the header, and
// Read or ReadParticle return the decompressed particle records.
//
// The particle data must hold exactly Header().Count records: a stream
// that ends early, is corrupt, or holds more records yields a *FormatError
// naming the particle at fault. Bytes after the end of the zlib stream are
// ignored, as the reference readers do.
type Reader struct {
	h       Header
	version int
	size    int64 // bytes per particle
	total   int64 // Count * size
	n       int64 // particle bytes returned so far
	zr      io.ReadCloser
	zEOF    bool  // zr has returned io.EOF (and verified its checksum)
	err     error // sticky
}

// NewReader reads and validates the header of a PRT file (version 1 or 2,
// that is PRT 1.0 or 1.1) from r. The returned Reader is positioned at the
// first particle. Errors in the file are *FormatError values.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	d := &decoder{r: br}
	rd := &Reader{}
	if err := d.header(rd); err != nil {
		return nil, err
	}
	if err := rd.startData(br, d.off); err != nil {
		return nil, err
	}
	return rd, nil
}

// Header returns a copy of the file's header.
func (r *Reader) Header() Header { return r.h.Clone() }

// Version returns the header's version field: 1 (PRT 1.0) or 2 (PRT 1.1).
func (r *Reader) Version() int { return r.version }

// startData sets up decompression of the particle data at byte off.
func (r *Reader) startData(br *bufio.Reader, off int64) error {
	if _, err := br.Peek(1); err == io.EOF {
		if r.h.Count == 0 {
			// No zlib stream at all: tolerated for an empty file.
			r.zEOF = true
			return nil
		}
		return &FormatError{Offset: off, Particle: -1, Err: io.ErrUnexpectedEOF,
			Msg: "no particle data: the file ends after the header but declares " +
				strconv.FormatInt(r.h.Count, 10) + " particles"}
	} else if err != nil {
		return fmt.Errorf("prt: reading particle data at byte %d: %w", off, err)
	}
	zr, err := zlib.NewReader(br)
	if errors.Is(err, zlib.ErrHeader) || errors.Is(err, zlib.ErrDictionary) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &FormatError{Offset: off, Particle: -1, Msg: "particle data is not a zlib stream", Err: err}
	} else if err != nil {
		return fmt.Errorf("prt: reading particle data at byte %d: %w", off, err)
	}
	r.zr = zr
	return nil
}

// Read reads decompressed particle bytes into p: the records back to back,
// Count*ParticleSize bytes in all, then io.EOF once the end of the zlib
// stream has been seen and checked. A record may be split across calls.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.n == r.total {
		r.err = r.checkEnd()
		if r.err == nil {
			r.err = io.EOF
		}
		return 0, r.err
	}
	if rem := r.total - r.n; int64(len(p)) > rem {
		p = p[:rem]
	}
	if len(p) == 0 {
		return 0, nil
	}
	n, err := r.zr.Read(p)
	r.n += int64(n)
	switch {
	case err == io.EOF:
		r.zEOF = true
		if r.n < r.total {
			i := r.n / r.size
			msg := "the zlib stream holds only " + strconv.FormatInt(i, 10) + " of the " +
				strconv.FormatInt(r.h.Count, 10) + " particles the header declares"
			if r.n%r.size != 0 {
				msg = "the zlib stream ends inside particle " + strconv.FormatInt(i, 10) + " of the " +
					strconv.FormatInt(r.h.Count, 10) + " the header declares"
			}
			r.err = particleError(i, msg, nil)
			return n, r.err
		}
		err = nil
	case err != nil:
		r.err = r.dataError(err)
		return n, r.err
	}
	return n, nil
}

// dataError turns an error of the zlib reader into a FormatError about the
// particle being read, or wraps an I/O error of the source.
func (r *Reader) dataError(err error) error {
	i := r.n / r.size
	of := " (of " + strconv.FormatInt(r.h.Count, 10) + " expected)"
	var corrupt flate.CorruptInputError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return particleError(i, "truncated particle data: the file ends inside particle "+
			strconv.FormatInt(i, 10)+of, err)
	case errors.As(err, &corrupt), errors.Is(err, zlib.ErrChecksum), errors.Is(err, zlib.ErrDictionary):
		return particleError(i, "corrupt particle data"+of, err)
	}
	return fmt.Errorf("prt: reading particle %d: %w", i, err)
}

// checkEnd verifies, after the last declared particle, that the zlib
// stream ends there (which also checks its Adler-32 checksum).
func (r *Reader) checkEnd() error {
	if r.zEOF {
		return nil
	}
	var b [1]byte
	for {
		n, err := r.zr.Read(b[:])
		if n > 0 {
			return particleError(r.h.Count, "trailing data: the zlib stream holds more than the "+
				strconv.FormatInt(r.h.Count, 10)+" particles the header declares", nil)
		}
		if err == io.EOF {
			r.zEOF = true
			return nil
		}
		if err != nil {
			return r.dataError(err)
		}
	}
}

// ReadParticle reads the next particle record into rec, which must hold at
// least ParticleSize bytes. It returns io.EOF after exactly Count particles
// once the end of the data has been checked.
func (r *Reader) ReadParticle(rec []byte) error {
	if int64(len(rec)) < r.size {
		return errors.New("prt: ReadParticle: record of " + strconv.Itoa(len(rec)) +
			" bytes, the particle size is " + strconv.FormatInt(r.size, 10))
	}
	_, err := io.ReadFull(r, rec[:r.size])
	return err
}

// decoder reads header fields and keeps track of the byte offset.
type decoder struct {
	r   *bufio.Reader
	off int64
	buf [entrySize]byte
}

// read reads the next n (<= entrySize) bytes of the header, which hold
// what. A short file is a FormatError "truncated header".
func (d *decoder) read(n int, what string) ([]byte, error) {
	b := d.buf[:n]
	m, err := io.ReadFull(d.r, b)
	if err != nil {
		return nil, d.ioError(int64(m), what, err)
	}
	d.off += int64(n)
	return b, nil
}

func (d *decoder) ioError(m int64, what string, err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return &FormatError{Offset: d.off + m, Particle: -1, Err: io.ErrUnexpectedEOF,
			Msg: "truncated header: the file ends in " + what}
	}
	return fmt.Errorf("prt: reading %s at byte %d: %w", what, d.off+m, err)
}

func (d *decoder) int32(what string) (int32, error) {
	b, err := d.read(4, what)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b)), nil
}

// skip discards n bytes of the header.
func (d *decoder) skip(n int64, what string) error {
	m, err := io.CopyN(io.Discard, d.r, n)
	if err != nil {
		return d.ioError(m, what, err)
	}
	d.off += n
	return nil
}

// header parses everything up to the particle data into rd.
func (d *decoder) header(rd *Reader) error {
	b, err := d.read(8, "the magic number")
	if err != nil {
		return err
	}
	if string(b) != magic {
		return headerError(0, fmt.Sprintf("not a PRT file: magic number % x, want % x", b, magic))
	}
	hlen, err := d.int32("the header length")
	if err != nil {
		return err
	}
	if hlen < fixedSize {
		return headerError(offHeaderLen, "header length "+strconv.Itoa(int(hlen))+" is less than "+strconv.Itoa(fixedSize))
	}
	if b, err = d.read(nameSize, "the signature"); err != nil {
		return err
	}
	if sig, _, _ := bytes.Cut(b, []byte{0}); string(sig) != signature {
		return headerError(offSignature, "not a PRT file: signature "+strconv.Quote(string(sig))+", want "+strconv.Quote(signature))
	}
	v, err := d.int32("the version")
	if err != nil {
		return err
	}
	if v != 1 && v != 2 {
		return headerError(offVersion, "unsupported version "+strconv.Itoa(int(v))+" (want 1 or 2)")
	}
	rd.version = int(v)
	if b, err = d.read(8, "the particle count"); err != nil {
		return err
	}
	count := int64(binary.LittleEndian.Uint64(b))
	if count < 0 {
		return headerError(offCount, "particle count "+strconv.FormatInt(count, 10)+": the file was not closed correctly")
	}
	rd.h.Count = count

	if v >= 2 {
		if err := d.chunks(&rd.h, int64(hlen)); err != nil {
			return err
		}
	}
	if d.off < int64(hlen) {
		// Version 1 header extensions, or unused space after the Stop chunk.
		if err := d.skip(int64(hlen)-d.off, "the header (length "+strconv.Itoa(int(hlen))+")"); err != nil {
			return err
		}
	}
	if err := d.channels(&rd.h); err != nil {
		return err
	}
	rd.size = int64(rd.h.ParticleSize())
	if rd.h.Count > math.MaxInt64/rd.size {
		return headerError(offCount, "particle count "+strconv.FormatInt(rd.h.Count, 10)+" times particle size "+
			strconv.FormatInt(rd.size, 10)+" overflows")
	}
	rd.total = rd.h.Count * rd.size
	return nil
}

// chunks reads the chunk list of a version 2 header up to and including
// the Stop chunk. Every chunk must lie within the header length hlen.
func (d *decoder) chunks(h *Header, hlen int64) error {
	for {
		start := d.off
		if start+8 > hlen {
			return headerError(start, "chunk list runs past the header length "+strconv.FormatInt(hlen, 10)+
				" without a Stop chunk")
		}
		b, err := d.read(4, "a chunk type")
		if err != nil {
			return err
		}
		typ := string(b)
		n, err := d.int32("the length of chunk " + strconv.Quote(typ))
		if err != nil {
			return err
		}
		length := int64(n)
		switch {
		case length < 0:
			return headerError(start+4, "chunk "+strconv.Quote(typ)+" has negative length "+strconv.FormatInt(length, 10))
		case start+8+length > hlen:
			return headerError(start+4, "chunk "+strconv.Quote(typ)+" of "+strconv.FormatInt(length, 10)+
				" bytes runs past the header length "+strconv.FormatInt(hlen, 10))
		}
		switch typ {
		case chunkStop:
			return d.skip(length, "the Stop chunk")
		case chunkMeta:
			if length > MaxMetaChunk {
				return headerError(start+4, "Meta chunk of "+strconv.FormatInt(length, 10)+
					" bytes exceeds the limit of "+strconv.Itoa(MaxMetaChunk))
			}
			// The buffer grows with the bytes actually read, not with
			// the length the file claims.
			p, err := io.ReadAll(io.LimitReader(d.r, length))
			if err != nil {
				return d.ioError(int64(len(p)), "a Meta chunk", err)
			}
			if int64(len(p)) < length {
				return d.ioError(int64(len(p)), "a Meta chunk", io.ErrUnexpectedEOF)
			}
			d.off += length
			m, skip, problem := parseMeta(p)
			if problem != "" {
				return headerError(start+8, problem)
			}
			if !skip {
				h.Meta = append(h.Meta, m)
			}
		default:
			if err := d.skip(length, "chunk "+strconv.Quote(typ)); err != nil {
				return err
			}
		}
	}
}

// parseMeta decodes a Meta chunk payload. It reports skip for values of an
// unknown type, which are ignored as Krakatoa does, and a problem for
// malformed chunks.
func parseMeta(p []byte) (m Meta, skip bool, problem string) {
	ch, p, ok := bytes.Cut(p, []byte{0})
	if !ok || len(ch) > maxNameLen {
		return m, false, "Meta chunk: channel name is not NUL-terminated within 32 bytes"
	}
	name, p, ok := bytes.Cut(p, []byte{0})
	if !ok || len(name) > maxNameLen {
		return m, false, "Meta chunk: value name is not NUL-terminated within 32 bytes"
	}
	if len(p) < 4 {
		return m, false, "Meta chunk " + strconv.Quote(string(name)) + ": too short for the value type"
	}
	m.Channel, m.Name = string(ch), string(name)
	m.Type = DataType(int32(binary.LittleEndian.Uint32(p)))
	p = p[4:]
	if c, n, dot := strings.Cut(m.Name, "."); m.Channel == "" && dot {
		// Sequoia wrote channel metadata as file metadata "Channel.Name".
		m.Channel, m.Name = c, n
	}
	if m.Channel != "" && !validName(m.Channel) {
		return m, false, "Meta chunk " + strconv.Quote(m.Name) + ": bad channel " + nameProblem(m.Channel)
	}
	if !validName(m.Name) {
		return m, false, "Meta chunk: bad metadata " + nameProblem(m.Name)
	}
	switch {
	case m.Type == String:
		s, _, _ := bytes.Cut(p, []byte{0}) // NUL-terminated; tolerate a missing NUL
		m.Data = s
	case !m.Type.Valid():
		return m, true, ""
	case len(p) == 0 || len(p)%m.Type.Size() != 0:
		return m, false, "Meta chunk " + m.Name + ": " + strconv.Itoa(len(p)) +
			" value bytes is not a positive multiple of the size of " + m.Type.String()
	default:
		m.Data = p
	}
	return m, false, ""
}

// channels reads the reserved field and the channel table.
func (d *decoder) channels(h *Header) error {
	start := d.off
	reserved, err := d.int32("the reserved field")
	if err != nil {
		return err
	}
	if reserved != reservedVal {
		return headerError(start, "reserved field is "+strconv.Itoa(int(reserved))+", want 4")
	}
	n, err := d.int32("the channel count")
	if err != nil {
		return err
	}
	switch {
	case n <= 0:
		return headerError(start+4, "channel count "+strconv.Itoa(int(n))+" is not positive")
	case n > MaxChannels:
		return headerError(start+4, "channel count "+strconv.Itoa(int(n))+" exceeds the limit of "+strconv.Itoa(MaxChannels))
	}
	size, err := d.int32("the channel entry size")
	if err != nil {
		return err
	}
	if size < entrySize {
		return headerError(start+8, "channel entry size "+strconv.Itoa(int(size))+" is less than "+strconv.Itoa(entrySize))
	}
	entryOffs := make([]int64, 0, min(n, 64))
	for i := range int(n) {
		off := d.off
		what := "channel table entry " + strconv.Itoa(i) + " of " + strconv.Itoa(int(n))
		b, err := d.read(entrySize, what)
		if err != nil {
			return err
		}
		name, _, ok := bytes.Cut(b[:nameSize], []byte{0})
		if !ok {
			return headerError(off, "channel "+strconv.Itoa(i)+": name is not NUL-terminated within 32 bytes")
		}
		le := binary.LittleEndian
		typ := int64(int32(le.Uint32(b[32:])))
		arity := int64(int32(le.Uint32(b[36:])))
		offset := int64(int32(le.Uint32(b[40:])))
		if p := channelProblem(string(name), typ, arity, offset); p != "" {
			return headerError(off, "channel "+strconv.Itoa(i)+": "+p)
		}
		h.Channels = append(h.Channels, Channel{Name: string(name), Type: DataType(typ), Arity: int(arity), Offset: int(offset)})
		entryOffs = append(entryOffs, off)
		if size > entrySize {
			if err := d.skip(int64(size-entrySize), what); err != nil {
				return err
			}
		}
	}
	if i, p := layoutProblem(h.Channels); p != "" {
		return headerError(entryOffs[i], "channel "+strconv.Itoa(i)+": "+p)
	}
	return nil
}
