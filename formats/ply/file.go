package ply

import (
	"errors"
	"io"
	"strconv"
)

// A File is a whole PLY file in memory: the header and, for each element,
// its records back to back in the packed layout (see Element).
type File struct {
	Header Header
	Data   [][]byte // Data[i] holds the records of Header.Elements[i]
}

// ReadAll reads a whole PLY file from r with a Reader. Each element's
// buffer grows as its records arrive, so a header that declares more
// records than the file holds fails with a *FormatError without first
// allocating for them.
func ReadAll(r io.Reader) (*File, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	f := &File{Header: rd.h, Data: make([][]byte, len(rd.plans))}
	for rd.cur < len(rd.plans) {
		i := rd.cur
		if f.Data[i], err = rd.ReadElement(nil); err != nil {
			return nil, err
		}
	}
	if _, err := rd.ReadElement(nil); err != io.EOF {
		return nil, err
	}
	return f, nil
}

// Element returns the element called name and its records, or ok false.
func (f *File) Element(name string) (e Element, data []byte, ok bool) {
	e, i := f.Header.Element(name)
	if i < 0 || i >= len(f.Data) {
		return e, nil, i >= 0
	}
	return e, f.Data[i], true
}

// WriteTo writes f to w in the format of f.Header. Each Data[i] must hold
// exactly the Count records of its element.
func (f *File) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	wr, err := NewWriter(cw, f.Header)
	if err != nil {
		return cw.n, err
	}
	for i, e := range f.Header.Elements {
		var d []byte
		if i < len(f.Data) {
			d = f.Data[i]
		}
		if err := wr.WriteRecords(d); err != nil {
			return cw.n, err
		}
		if at, n := wr.Pos(); at == i {
			return cw.n, errors.New("ply: File.WriteTo: the data of element " + e.Name + " holds " +
				strconv.FormatInt(n, 10) + " of its " + strconv.FormatInt(e.Count, 10) + " records")
		}
	}
	err = wr.Close()
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
