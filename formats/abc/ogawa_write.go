package abc

import (
	"bufio"
	"encoding/binary"
	"io"
)

// Output is where a Writer puts an archive: written front to back, then the header's
// root offset and frozen byte patched in place at the end. An *os.File is one.
type Output interface {
	io.Writer
	io.WriterAt
}

// ogawaWriter appends Ogawa data blocks and groups to an Output. Children are always
// written before the group that lists them; finish writes the root offset and sets
// the frozen byte, so that a reader never sees a half-written archive as whole.
type ogawaWriter struct {
	out Output
	w   *bufio.Writer
	pos int64 // bytes written so far
	err error // sticky
}

func newOgawaWriter(out Output) *ogawaWriter {
	o := &ogawaWriter{out: out, w: bufio.NewWriterSize(out, 1<<20)}
	var h [ogawaHeader]byte
	copy(h[:], ogawaMagic)
	h[5] = 0 // frozen: set by finish
	binary.BigEndian.PutUint16(h[6:], ogawaVersion)
	o.write(h[:]) // root offset 0 until finish
	return o
}

func (o *ogawaWriter) write(p []byte) {
	if o.err != nil {
		return
	}
	_, o.err = o.w.Write(p)
	o.pos += int64(len(p))
}

func (o *ogawaWriter) uint64(v uint64) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	o.write(b[:])
}

// data appends one data block holding the parts back to back and returns its child
// reference; an empty block is not written (its reference is dataBit alone).
func (o *ogawaWriter) data(parts ...[]byte) uint64 {
	var n int
	for _, p := range parts {
		n += len(p)
	}
	if n == 0 {
		return dataBit
	}
	pos := o.pos
	o.uint64(uint64(n))
	for _, p := range parts {
		o.write(p)
	}
	return uint64(pos) | dataBit
}

// group appends a group listing children and returns its reference; a group without
// children is not written (its reference is 0).
func (o *ogawaWriter) group(children []uint64) uint64 {
	if len(children) == 0 {
		return 0
	}
	pos := o.pos
	o.uint64(uint64(len(children)))
	buf := make([]byte, 8*len(children))
	for i, c := range children {
		binary.LittleEndian.PutUint64(buf[8*i:], c)
	}
	o.write(buf)
	return uint64(pos)
}

// finish flushes the file, then writes the root group's offset and the frozen byte.
func (o *ogawaWriter) finish(root uint64) error {
	if o.err != nil {
		return o.err
	}
	if err := o.w.Flush(); err != nil {
		return err
	}
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], root)
	if _, err := o.out.WriteAt(b[:], 8); err != nil {
		return err
	}
	_, err := o.out.WriteAt([]byte{frozenByte}, 5)
	return err
}
