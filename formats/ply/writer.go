package ply

import (
	"bufio"
	"errors"
	"io"
	"strconv"
)

// A Writer writes a PLY file: NewWriter writes the header, WriteRecord
// and WriteRecords the records of each element in turn, and Close checks
// that every declared record was written.
//
// Records are handed over in the packed layout (see Element), whatever the
// file's format: the Writer copies them (binary_little_endian), reverses
// the byte order of each value (binary_big_endian) or prints them, one
// line per record with the values separated by single blanks (ascii).
// ASCII floats are the shortest text that reads back to the same float or
// double (nan, -nan, inf and -inf for the special values, as C's printf
// spells them), so an ASCII file holds exactly the values of the binary
// one.
//
// The count of every element is in the header, so the destination need
// not be seekable; a Writer buffers its output and does not close the
// underlying io.Writer.
type Writer struct {
	bw      *bufio.Writer
	format  Format
	plans   []plan
	cur     int    // the element being written: the first with records left, or len(plans)
	n       int64  // records of plans[cur] written
	scratch []byte // reused for byte swapping and ASCII lines
	err     error  // sticky write error; errClosed after Close

	closed   bool
	closeErr error
}

var errClosed = errors.New("ply: write to a closed Writer")

// scratchSize is how many bytes the Writer converts before handing them
// to its buffer.
const scratchSize = 32 << 10

// NewWriter validates h (see Header.Validate), writes its header to w and
// returns a Writer for exactly the records h declares. The header is
// written with the classic type names, the comments before the obj_info
// lines, and both before the elements.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	if _, err := w.Write(appendHeader(nil, h)); err != nil {
		return nil, err
	}
	wr := &Writer{
		bw:     bufio.NewWriterSize(w, 64<<10),
		format: h.Format,
		plans:  newPlans(h),
	}
	wr.advance()
	return wr, nil
}

// advance moves past the elements whose records are all written.
func (w *Writer) advance() {
	for w.cur < len(w.plans) && w.n == w.plans[w.cur].count {
		w.cur++
		w.n = 0
	}
}

// Pos returns the index in the header of the element the next record
// belongs to (len(Elements) once all are written) and the index of that
// record within the element.
func (w *Writer) Pos() (element int, record int64) { return w.cur, w.n }

// current returns the element the next record belongs to.
func (w *Writer) current(method string) (*plan, error) {
	if w.err != nil {
		return nil, w.err
	}
	if w.cur == len(w.plans) {
		return nil, errors.New("ply: " + method + ": all the records the header declares are written")
	}
	return &w.plans[w.cur], nil
}

// WriteRecord writes the next record, rec, in the packed layout of its
// element. For an element without lists len(rec) must be RecordSize; with
// lists, rec must be exactly one record (see Element.RecordLen). Records
// go to the elements in header order: Pos tells which element is next.
//
// An invalid record is an error that writes nothing, and the Writer stays
// usable; an error of the underlying writer is returned by every later call.
func (w *Writer) WriteRecord(rec []byte) error {
	p, err := w.current("WriteRecord")
	if err != nil {
		return err
	}
	if p.size >= 0 {
		if len(rec) != p.size {
			return errors.New("ply: WriteRecord: record of " + strconv.Itoa(len(rec)) + " bytes, element " +
				p.name + " has records of " + strconv.Itoa(p.size))
		}
	} else {
		n, msg := recordLen(p.props, rec)
		if msg == "" && n != len(rec) {
			msg = "record of " + strconv.Itoa(len(rec)) + " bytes holds one record of " + strconv.Itoa(n) + " bytes and more"
		}
		if msg != "" {
			return errors.New("ply: WriteRecord: element " + p.name + " record " + strconv.FormatInt(w.n, 10) + ": " + msg)
		}
	}
	if err := w.put(p, rec, 1); err != nil {
		return err
	}
	w.n++
	w.advance()
	return w.err
}

// WriteRecords writes records of the current element (see Pos) back to
// back in recs, in their packed layout: a whole number of records, no more
// than the element has left. It is the fast way to write a block. The next
// element's records need another call. If recs is not valid nothing is
// written, except for a list too long for an ASCII line (see
// MaxLineLength), which stops the writing at its record.
func (w *Writer) WriteRecords(recs []byte) error {
	if len(recs) == 0 {
		return w.err
	}
	p, err := w.current("WriteRecords")
	if err != nil {
		return err
	}
	left := p.count - w.n
	tooMany := func(k int64) error {
		return errors.New("ply: WriteRecords: " + strconv.FormatInt(k, 10) + " records, but element " + p.name +
			" has " + strconv.FormatInt(left, 10) + " left")
	}
	if p.size >= 0 {
		if len(recs)%p.size != 0 {
			return errors.New("ply: WriteRecords: " + strconv.Itoa(len(recs)) + " bytes are not a whole number of " +
				strconv.Itoa(p.size) + "-byte records of element " + p.name)
		}
		k := int64(len(recs) / p.size)
		if k > left {
			return tooMany(k)
		}
		if err := w.put(p, recs, k); err != nil {
			return err
		}
		w.n += k
		w.advance()
		return w.err
	}
	// Check every record before writing any.
	var k int64
	for b := recs; len(b) > 0; k++ {
		n, msg := recordLen(p.props, b)
		if msg != "" {
			return errors.New("ply: WriteRecords: element " + p.name + " record " + strconv.FormatInt(w.n+k, 10) + ": " + msg)
		}
		b = b[n:]
	}
	if k > left {
		return tooMany(k)
	}
	for b := recs; len(b) > 0; {
		n, _ := recordLen(p.props, b)
		if err := w.put(p, b[:n], 1); err != nil {
			w.advance()
			return err
		}
		w.n++
		b = b[n:]
	}
	w.advance()
	return w.err
}

// put writes k valid records of p, back to back in recs, in the file's
// format. With lists, k is 1. It returns an error, without writing, if a
// list is too long for an ASCII line; errors of the underlying writer go
// to w.err.
func (w *Writer) put(p *plan, recs []byte, k int64) error {
	if w.err != nil {
		return nil
	}
	switch w.format {
	case BinaryLittleEndian:
		w.write(recs)
	case BinaryBigEndian:
		if p.size < 0 {
			w.scratch = append(w.scratch[:0], recs...)
			swapListRecord(p.props, w.scratch)
			w.write(w.scratch)
			return nil
		}
		chunk := max(scratchSize/p.size, 1) * p.size
		for len(recs) > 0 {
			n := min(chunk, len(recs))
			w.scratch = append(w.scratch[:0], recs[:n]...)
			p.swapRecords(w.scratch)
			w.write(w.scratch)
			recs = recs[n:]
		}
	case ASCII:
		if p.size < 0 {
			w.scratch = appendASCII(w.scratch[:0], p.props, recs)
			if n := len(w.scratch) - 1; n > MaxLineLength {
				return errors.New("ply: element " + p.name + " record " + strconv.FormatInt(w.n, 10) + ": line of " +
					strconv.Itoa(n) + " bytes is longer than an ASCII line may be (MaxLineLength)")
			}
			w.write(w.scratch)
			return nil
		}
		w.scratch = w.scratch[:0]
		for len(recs) > 0 {
			w.scratch = appendASCII(w.scratch, p.props, recs[:p.size])
			recs = recs[p.size:]
			if len(w.scratch) >= scratchSize {
				w.write(w.scratch)
				w.scratch = w.scratch[:0]
			}
		}
		w.write(w.scratch)
	}
	return nil
}

func (w *Writer) write(b []byte) {
	if w.err == nil && len(b) > 0 {
		_, w.err = w.bw.Write(b)
	}
}

// swapListRecord reverses the byte order of every value, counts included,
// of the little-endian record rec of an element with lists, in place.
func swapListRecord(props []Property, rec []byte) {
	off := 0
	for _, q := range props {
		if q.IsList {
			cs := q.CountType.Size()
			count := int(q.CountType.Int64(rec[off:]))
			swapValues(rec[off:off+cs], cs)
			off += cs
			end := off + count*q.Type.Size()
			swapValues(rec[off:end], q.Type.Size())
			off = end
			continue
		}
		sz := q.Type.Size()
		swapValues(rec[off:off+sz], sz)
		off += sz
	}
}

// Close flushes the buffered output. It returns an error if a write failed
// or if fewer records were written than the header declares (the file is
// then invalid and should be discarded), naming the elements short of
// records. It does not close the underlying writer. Closing twice returns
// the first result.
func (w *Writer) Close() error {
	if w.closed {
		return w.closeErr
	}
	w.closed = true
	err := w.err
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil && w.cur < len(w.plans) {
		s := "ply: Close: records missing:"
		for i := w.cur; i < len(w.plans); i++ {
			p := w.plans[i]
			n := int64(0)
			if i == w.cur {
				n = w.n
			}
			if p.count == n {
				continue
			}
			if i > w.cur {
				s += ";"
			}
			s += " element " + p.name + " has " + strconv.FormatInt(n, 10) + " of " + strconv.FormatInt(p.count, 10)
		}
		err = errors.New(s)
	}
	w.closeErr = err
	w.err = errClosed
	return err
}
