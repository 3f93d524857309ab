package abc

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"
)

// The Ogawa container (Alembic 1.5 and later) is a tree of groups and data blocks,
// all little-endian:
//
//	byte 0   "Ogawa"             magic
//	byte 5   frozen              0xff once the writer closed the file cleanly, else 0
//	byte 6   version (2 bytes)   big-endian; 1 is the only version
//	byte 8   root (uint64)       byte offset of the root group
//
// A group at byte p is a uint64 count n followed by n uint64 child references. A
// reference with the top bit clear is the offset of a child group (0: the empty
// group); with the top bit set, the low 63 bits are the offset of a data block (0: the
// empty data block). A data block at byte p is a uint64 size s followed by s bytes.
// Writers append data and groups as they go, so children come before their parents
// and the root group last; the header's root offset and frozen byte are written at
// the end.
const (
	ogawaMagic   = "Ogawa"
	ogawaHeader  = 16      // bytes before the first block
	ogawaVersion = 1       // the header's version field
	dataBit      = 1 << 63 // a child reference to a data block
	frozenByte   = 0xff
)

// hdf5Magic starts an HDF5 file: Alembic archives written before Ogawa (1.5).
const hdf5Magic = "\x89HDF\r\n\x1a\n"

// container is an Ogawa file opened for random access: it reads only the groups and
// data blocks asked for, and checks every offset and size against the file's size.
type container struct {
	r    io.ReaderAt
	size int64
	root uint64 // offset of the root group
}

// group is an Ogawa group: its offset and its child references.
type group struct {
	pos      int64
	children []uint64
}

// block is a data block: the offset of its payload (just past its size field) and
// its size. The empty data block has size 0.
type block struct {
	pos, size int64
}

// openContainer checks the Ogawa header of r, a file of size bytes.
func openContainer(r io.ReaderAt, size int64) (*container, error) {
	var h [ogawaHeader]byte
	n, err := r.ReadAt(h[:], 0)
	if n >= 4 && string(h[:4]) == hdf5Magic[:4] {
		return nil, formatError(0, "", "HDF5 Alembic is not supported, re-export as Ogawa")
	}
	if n < ogawaHeader {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if n < len(ogawaMagic) || string(h[:len(ogawaMagic)]) != ogawaMagic {
			return nil, &FormatError{Offset: 0, Msg: "not an Alembic archive (no Ogawa header)", Err: err}
		}
		return nil, &FormatError{Offset: 0, Msg: "Ogawa header cut short", Err: err}
	}
	if string(h[:len(ogawaMagic)]) != ogawaMagic {
		return nil, formatError(0, "", "not an Alembic archive: it starts with "+strconv.Quote(string(h[:len(ogawaMagic)]))+", not \"Ogawa\"")
	}
	if h[5] != frozenByte {
		return nil, formatError(5, "", "Ogawa file not cleanly closed while being written (frozen byte 0x"+
			strconv.FormatUint(uint64(h[5]), 16)+", want 0xff)")
	}
	if v := binary.BigEndian.Uint16(h[6:]); v != ogawaVersion {
		return nil, formatError(6, "", "unsupported Ogawa version "+strconv.Itoa(int(v))+" (want 1)")
	}
	c := &container{r: r, size: size, root: binary.LittleEndian.Uint64(h[8:])}
	if c.root&dataBit != 0 || c.root == 0 {
		return nil, formatError(8, "", "the root is not a group")
	}
	return c, nil
}

// readAt fills p from byte off, which the caller has checked lies in the file.
func (c *container) readAt(p []byte, off int64, path string) error {
	n, err := c.r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	var fe *FormatError
	if errors.As(err, &fe) {
		return err
	}
	return &FormatError{Offset: off, Path: path, Msg: "reading " + strconv.Itoa(len(p)) + " bytes", Err: err}
}

// fits reports whether n bytes from byte off lie inside the file.
func (c *container) fits(off, n int64) bool {
	return off >= ogawaHeader && n >= 0 && off <= c.size && n <= c.size-off
}

// group reads the group that ref points to (ref must be a group reference; 0 is the
// empty group); at is the offset of the reference itself, which errors name. The
// group's child count is checked against the bytes the file has before the children
// are read.
func (c *container) group(ref uint64, at int64, path string) (*group, error) {
	if ref&dataBit != 0 {
		return nil, formatError(at, path, "a data block where a group belongs")
	}
	if ref == 0 {
		return &group{}, nil
	}
	pos := int64(ref)
	if ref > uint64(c.size) || !c.fits(pos, 8) {
		return nil, formatError(at, path, "group at byte "+strconv.FormatUint(ref, 10)+" is not within the file's blocks, bytes 16 to "+
			strconv.FormatInt(c.size, 10))
	}
	var b [8]byte
	if err := c.readAt(b[:], pos, path); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(b[:])
	if n > uint64(c.size-pos-8)/8 {
		return nil, formatError(pos, path, "group of "+strconv.FormatUint(n, 10)+" children overruns the file")
	}
	raw := make([]byte, 8*n)
	if err := c.readAt(raw, pos+8, path); err != nil {
		return nil, err
	}
	g := &group{pos: pos, children: make([]uint64, n)}
	for i := range g.children {
		g.children[i] = binary.LittleEndian.Uint64(raw[8*i:])
	}
	return g, nil
}

// len returns the number of children.
func (g *group) len() int { return len(g.children) }

// isData reports whether child i is a data block.
func (g *group) isData(i int) bool { return g.children[i]&dataBit != 0 }

// childOffset returns the offset of child i's reference, for error messages.
func (g *group) childOffset(i int) int64 { return g.pos + 8 + 8*int64(i) }

// subgroup reads child i, which must be a group.
func (c *container) subgroup(g *group, i int, path string) (*group, error) {
	if i < 0 || i >= g.len() {
		return nil, formatError(g.pos, path, "group has "+strconv.Itoa(g.len())+" children, child "+strconv.Itoa(i)+" missing")
	}
	return c.group(g.children[i], g.childOffset(i), path)
}

// data returns the data block that child i of g points to, with its size checked
// against the file.
func (c *container) data(g *group, i int, path string) (block, error) {
	if i < 0 || i >= g.len() {
		return block{}, formatError(g.pos, path, "group has "+strconv.Itoa(g.len())+" children, child "+strconv.Itoa(i)+" missing")
	}
	ref := g.children[i]
	if ref&dataBit == 0 {
		return block{}, formatError(g.childOffset(i), path, "a group where a data block belongs")
	}
	pos := int64(ref &^ dataBit)
	if pos == 0 {
		return block{}, nil
	}
	if uint64(pos) > uint64(c.size) || !c.fits(pos, 8) {
		return block{}, formatError(g.childOffset(i), path, "data block at byte "+strconv.FormatInt(pos, 10)+
			" is not within the file's blocks, bytes 16 to "+strconv.FormatInt(c.size, 10))
	}
	var b [8]byte
	if err := c.readAt(b[:], pos, path); err != nil {
		return block{}, err
	}
	n := binary.LittleEndian.Uint64(b[:])
	if n > uint64(c.size-pos-8) {
		return block{}, formatError(pos, path, "data block of "+strconv.FormatUint(n, 10)+" bytes overruns the file")
	}
	return block{pos: pos + 8, size: int64(n)}, nil
}

// read returns the bytes of d from offset off within it, n of them, into buf when it
// is large enough.
func (c *container) read(d block, off, n int64, buf []byte, path string) ([]byte, error) {
	if off < 0 || n < 0 || off > d.size || n > d.size-off {
		return nil, formatError(d.pos-8, path, "reading past the end of a data block of "+strconv.FormatInt(d.size, 10)+" bytes")
	}
	if int64(cap(buf)) >= n {
		buf = buf[:n]
	} else {
		buf = make([]byte, n)
	}
	if n == 0 {
		return buf, nil
	}
	return buf, c.readAt(buf, d.pos+off, path)
}

// readAll returns all the bytes of d.
func (c *container) readAll(d block, path string) ([]byte, error) {
	return c.read(d, 0, d.size, nil, path)
}
