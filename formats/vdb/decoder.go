package vdb

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// Limits on what a header may claim before the bytes behind it are read: a name or
// type longer than this, or a metadata value larger, is an error, not an allocation.
const (
	maxNameLen   = 1 << 16
	maxMetaValue = 1 << 24
)

// decoder reads the primitives of the format and remembers the first error, with
// the offset and the field it happened at, so that the parsing code reads as the
// layout it parses. After an error every read returns zero values.
type decoder struct {
	r    *bufio.Reader
	off  int64 // bytes consumed so far
	err  error
	grid string // the grid being read, for error messages

	scratch []byte
}

func newDecoder(r io.Reader) *decoder {
	return &decoder{r: bufio.NewReaderSize(r, 1<<16)}
}

// fail records a format error at byte offset off.
func (d *decoder) fail(off int64, format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{Offset: off, Grid: d.grid, Msg: fmt.Sprintf(format, args...)}
	}
}

// bytes reads n bytes into a scratch buffer that the next call reuses. Callers
// bound n by what the format allows before calling.
func (d *decoder) bytes(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if cap(d.scratch) < n {
		d.scratch = make([]byte, n)
	}
	b := d.scratch[:n]
	if got, err := io.ReadFull(d.r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		d.err = &FormatError{Offset: d.off + int64(got), Grid: d.grid,
			Msg: "reading " + what, Err: err}
		return nil
	}
	d.off += int64(n)
	return b
}

func (d *decoder) u8(what string) byte {
	if b := d.bytes(1, what); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u32(what string) uint32 {
	if b := d.bytes(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) i32(what string) int32 { return int32(d.u32(what)) }

func (d *decoder) i64(what string) int64 {
	if b := d.bytes(8, what); b != nil {
		return int64(binary.LittleEndian.Uint64(b))
	}
	return 0
}

func (d *decoder) vec3d(what string) geom.Vec3 {
	var v geom.Vec3
	if b := d.bytes(24, what); b != nil {
		for k := range v {
			v[k] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
		}
	}
	return v
}

func (d *decoder) coord(what string) levelset.Coord {
	var c levelset.Coord
	if b := d.bytes(12, what); b != nil {
		for k := range c {
			c[k] = int32(binary.LittleEndian.Uint32(b[4*k:]))
		}
	}
	return c
}

// mask reads a node mask of the given number of 64-bit words into m.
func (d *decoder) mask(m nodeMask, what string) {
	if b := d.bytes(8*len(m), what); b != nil {
		for i := range m {
			m[i] = binary.LittleEndian.Uint64(b[8*i:])
		}
	}
}

// str reads a uint32 length and that many bytes, refusing lengths above max.
func (d *decoder) str(what string, max int) string {
	at := d.off
	n := d.u32(what + " length")
	if d.err != nil {
		return ""
	}
	if n > uint32(max) {
		d.fail(at, "%s is %d bytes long; at most %d are allowed", what, n, max)
		return ""
	}
	return string(d.bytes(int(n), what))
}

// blob reads n bytes, n at most max, into a buffer that grows only as the bytes
// arrive, so that a header claiming a huge size costs nothing until the data is
// really there.
func (d *decoder) blob(n uint32, max int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > uint32(max) {
		d.fail(d.off, "%s is %d bytes; at most %d are allowed", what, n, max)
		return nil
	}
	var buf bytes.Buffer
	got, err := io.CopyN(&buf, d.r, int64(n))
	d.off += got
	if err != nil {
		d.err = &FormatError{Offset: d.off, Grid: d.grid, Msg: "reading " + what, Err: io.ErrUnexpectedEOF}
		return nil
	}
	return buf.Bytes()
}

// skipTo discards bytes up to offset pos; a pos behind the current offset is an
// error, since the file's offsets must point forward.
func (d *decoder) skipTo(pos int64, what string) {
	if d.err != nil {
		return
	}
	if pos < d.off {
		d.fail(d.off, "%s at byte %d lies before the data already read", what, pos)
		return
	}
	got, err := io.CopyN(io.Discard, d.r, pos-d.off)
	d.off += got
	if err != nil {
		d.err = &FormatError{Offset: d.off, Grid: d.grid, Msg: "skipping to " + what, Err: io.ErrUnexpectedEOF}
	}
}

// metadata reads a MetaMap.
func (d *decoder) metadata(what string) Metadata {
	m := Metadata{}
	n := d.u32(what + " count")
	for i := uint32(0); i < n && d.err == nil; i++ {
		name := d.str(what+" name", maxNameLen)
		typeName := d.str(what+" type", maxNameLen)
		size := d.u32(what + " size")
		data := d.blob(size, maxMetaValue, fmt.Sprintf("%s %q", what, name))
		if d.err == nil {
			m[name] = decodeMeta(typeName, data)
		}
	}
	return m
}

// transform reads a grid's map. Only maps with one voxel size on all axes and no
// rotation have a levelset.Transform; others are an error naming the map.
func (d *decoder) transform() levelset.Transform {
	at := d.off
	mapType := d.str("transform map type", maxNameLen)
	var scale, origin geom.Vec3
	switch mapType {
	case "UniformScaleMap", "ScaleMap":
		scale = d.vec3d("transform scale")
		d.bytes(4*24, "transform derived values")
	case "UniformScaleTranslateMap", "ScaleTranslateMap":
		origin = d.vec3d("transform translation")
		scale = d.vec3d("transform scale")
		d.bytes(4*24, "transform derived values")
	case "TranslationMap":
		origin = d.vec3d("transform translation")
		scale = geom.Vec3{1, 1, 1}
	default:
		if d.err == nil {
			d.fail(at, "transform %q is not supported: only uniform scale and scale-translate maps "+
				"(axis-aligned voxels of one size) are; resample the grid to such a transform", mapType)
		}
		return levelset.Transform{}
	}
	if d.err != nil {
		return levelset.Transform{}
	}
	h := scale[0]
	if math.Abs(scale[1]-h) > 1e-9*math.Abs(h) || math.Abs(scale[2]-h) > 1e-9*math.Abs(h) {
		d.fail(at, "voxel size %v differs between axes; only cubic voxels are supported", scale)
	}
	t := levelset.Transform{VoxelSize: h, Origin: origin}
	if err := t.Validate(); err != nil {
		d.fail(at, "transform: %v", err)
	}
	return t
}
