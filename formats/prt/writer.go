package prt

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/klauspost/compress/zlib"
)

// A Writer writes a PRT 1.1 file: NewWriter writes the header, Write and
// WriteParticle the particle records, and Close ends the compressed
// stream. The count is known up front, so the file never holds the -1
// placeholder and the destination need not be seekable. A Writer does not
// close the underlying io.Writer.
type Writer struct {
	size  int64 // bytes per particle
	count int64 // particles announced in the header
	n     int64 // particle bytes written so far
	buf   *bufio.Writer
	zw    *zlib.Writer
	err   error // sticky error of Write; errClosed after Close

	closed   bool
	closeErr error // the result of the first Close
}

var errClosed = errors.New("prt: write to a closed Writer")

// NewWriter validates h (see Header.Validate), writes the PRT header to w
// and returns a Writer for exactly h.Count particles laid out as
// h.Channels describe.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	hdr, err := appendHeader(nil, h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(hdr); err != nil {
		return nil, err
	}
	zw, err := zlib.NewWriterLevel(w, zlib.DefaultCompression)
	if err != nil {
		return nil, err
	}
	return &Writer{
		size:  int64(h.ParticleSize()),
		count: h.Count,
		buf:   bufio.NewWriterSize(zw, 64<<10),
		zw:    zw,
	}, nil
}

// appendHeader appends the encoded header of h, which has been validated,
// to b: the fixed 56 bytes, the Meta and Stop chunks, and the channel table.
func appendHeader(b []byte, h Header) ([]byte, error) {
	le := binary.LittleEndian
	chunks := 8 // Stop
	for _, m := range h.Meta {
		chunks += 8 + m.payloadSize()
	}
	if chunks > math.MaxInt32-fixedSize {
		return nil, errors.New("prt: metadata of " + strconv.Itoa(chunks) + " bytes is too large for the header")
	}
	b = append(b, magic...)
	b = le.AppendUint32(b, uint32(fixedSize+chunks))
	b = appendPadded(b, signature)
	b = le.AppendUint32(b, version)
	b = le.AppendUint64(b, uint64(h.Count))
	for _, m := range h.Meta {
		b = append(b, chunkMeta...)
		b = le.AppendUint32(b, uint32(m.payloadSize()))
		b = append(b, m.Channel...)
		b = append(b, 0)
		b = append(b, m.Name...)
		b = append(b, 0)
		b = le.AppendUint32(b, uint32(m.Type))
		b = append(b, m.Data...)
		if m.Type == String {
			b = append(b, 0)
		}
	}
	b = append(b, chunkStop...)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint32(b, reservedVal)
	b = le.AppendUint32(b, uint32(len(h.Channels)))
	b = le.AppendUint32(b, entrySize)
	for _, c := range h.Channels {
		b = appendPadded(b, c.Name)
		b = le.AppendUint32(b, uint32(c.Type))
		b = le.AppendUint32(b, uint32(c.Arity))
		b = le.AppendUint32(b, uint32(c.Offset))
	}
	return b, nil
}

// appendPadded appends s NUL-padded to a 32-byte name field (len(s) < 32).
func appendPadded(b []byte, s string) []byte {
	b = append(b, s...)
	for range nameSize - len(s) {
		b = append(b, 0)
	}
	return b
}

// Write writes particle bytes: whole records back to back, each laid out by
// the header's channels. A record may be split across calls. Writing more
// than Count particles is an error and writes nothing.
func (w *Writer) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if int64(len(p)) > w.count*w.size-w.n {
		return 0, errors.New("prt: writing more than the " + strconv.FormatInt(w.count, 10) + " particles declared in the header")
	}
	n, err := w.buf.Write(p)
	w.n += int64(n)
	if err != nil {
		w.err = err
	}
	return n, err
}

// WriteParticle writes one particle record of exactly ParticleSize bytes.
func (w *Writer) WriteParticle(rec []byte) error {
	if int64(len(rec)) != w.size {
		return errors.New("prt: WriteParticle: record of " + strconv.Itoa(len(rec)) +
			" bytes, the particle size is " + strconv.FormatInt(w.size, 10))
	}
	_, err := w.Write(rec)
	return err
}

// Written returns the number of whole particles written so far.
func (w *Writer) Written() int64 { return w.n / w.size }

// Close ends the compressed particle stream. It returns an error if the
// number of particles written differs from the header's Count (the file is
// then invalid and should be discarded) or if a write failed. It does not
// close the underlying writer. Closing twice returns the first result.
func (w *Writer) Close() error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	err := w.err
	if err == nil {
		err = w.buf.Flush()
		if cerr := w.zw.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && w.n != w.count*w.size {
		err = errors.New("prt: wrote " + countString(w.n, w.size) + ", but the header declares " +
			strconv.FormatInt(w.count, 10))
	}
	w.closeErr = err
	w.err = errClosed
	return err
}

// countString describes n bytes of particles of size bytes each.
func countString(n, size int64) string {
	s := strconv.FormatInt(n/size, 10) + " particles"
	if r := n % size; r != 0 {
		s += " and " + strconv.FormatInt(r, 10) + " bytes"
	}
	return s
}
