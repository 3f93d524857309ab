package vdb

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"fmt"
	"io"
	"sync"

	"github.com/klauspost/compress/zlib"

	"snowtools/formats/vdb/blosc"
	"snowtools/levelset"
)

// Write writes f to w as a .vdb file of version 224. A nil opts means
// DefaultOptions. The output depends only on f and opts: the file's UUID is derived
// from its content, so the same grids give the same bytes. It is Encode, then
// WriteTo.
func Write(w io.Writer, f *File, opts *Options) error {
	e, err := Encode(f, opts)
	if err != nil {
		return err
	}
	_, err = e.WriteTo(w)
	return err
}

// Encoded is a file encoded and compressed, ready to be written: it holds bytes,
// not the grids, so that a caller can let the grids go (or change them) while the
// bytes are written.
type Encoded struct {
	head   []byte // from the magic number through the grid count
	bodies []gridBody
}

// Encode encodes f as Write writes it (a nil opts means DefaultOptions).
func Encode(f *File, opts *Options) (*Encoded, error) {
	o := DefaultOptions
	if opts != nil {
		o = *opts
	}
	if o.Compression&^(ZIP|ActiveMask|Blosc) != 0 || o.Compression&(ZIP|Blosc) == ZIP|Blosc {
		return nil, fmt.Errorf("vdb: compression %#x: only ActiveMask and one of ZIP and Blosc can be written", uint32(o.Compression))
	}
	if o.Compression&Blosc != 0 && o.BloscCodec != blosc.LZ4 && o.BloscCodec != blosc.BloscLZ && o.BloscCodec != blosc.Zlib {
		return nil, fmt.Errorf("vdb: Blosc codec %v cannot be written: use lz4, blosclz or zlib", o.BloscCodec)
	}
	fileMeta := Metadata{}
	for k, v := range f.Meta {
		fileMeta[k] = v
	}
	if _, set := fileMeta["creator"]; !set && o.Creator != "" {
		fileMeta["creator"] = o.Creator
	}
	if err := checkMetadata("file", fileMeta); err != nil {
		return nil, err
	}
	bodies, err := encodeGrids(f.Grids, o, max(o.Threads, 1))
	if err != nil {
		return nil, err
	}

	var head enc
	head.i64(magic)
	head.u32(FileVersion)
	head.u32(10) // library version 10.0: the OpenVDB whose reader the tests use
	head.u32(0)
	head.u8(1) // grid offsets follow each descriptor
	head.bytes([]byte(contentUUID(bodies)))
	head.metadata(fileMeta)
	head.u32(uint32(len(bodies)))
	return &Encoded{head: head.b, bodies: bodies}, nil
}

// WriteTo writes the file to w and returns the bytes written.
func (e *Encoded) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.Write(e.head); err != nil {
		return 0, err
	}
	n, err := writeGrids(bw, int64(len(e.head)), e.bodies)
	if err != nil {
		return 0, err
	}
	return n, bw.Flush()
}

// encodeGrids checks the grids (valid, named apart, storable metadata) and encodes
// each one's topology and buffers, the buffers on the given number of goroutines.
// With more than one, the grids are encoded at the same time too, so that the
// parts of one that run alone (its statistics, its topology) overlap the others.
func encodeGrids(grids []*Grid, o Options, threads int) ([]gridBody, error) {
	names := map[string]bool{}
	for _, g := range grids {
		if err := g.validate(); err != nil {
			return nil, err
		}
		if names[g.Name] {
			return nil, fmt.Errorf("vdb: two grids are named %q; names must differ", g.Name)
		}
		names[g.Name] = true
		if err := checkMetadata(fmt.Sprintf("grid %q", g.Name), g.Meta); err != nil {
			return nil, err
		}
	}
	bodies := make([]gridBody, len(grids))
	leaves := make([]leafChunks, len(grids))
	encode := func(i int) {
		if g := grids[i]; g.Float != nil {
			bodies[i], leaves[i] = encodeGrid(g, g.Float, "Tree_float_5_4_3", o)
		} else {
			bodies[i], leaves[i] = encodeGrid(g, g.Vec3, "Tree_vec3s_5_4_3", o)
		}
	}
	if threads <= 1 {
		for i := range grids {
			encode(i)
		}
	} else {
		// A tree sorts and caches its leaves on first use: done here, one grid at a
		// time, since two of the file's grids may share one tree.
		for _, g := range grids {
			if g.Float != nil {
				g.Float.Leaves()
			} else {
				g.Vec3.Leaves()
			}
		}
		var wg sync.WaitGroup
		for i := range grids {
			wg.Go(func() { encode(i) })
		}
		wg.Wait()
	}
	for i, buffers := range encodeLeafChunks(leaves, threads) {
		bodies[i].buffers = buffers
	}
	return bodies, nil
}

// writeGrids writes each grid's descriptor (with the file offsets of its parts, the
// first at offset) and then its topology and buffers, and returns the file's size.
func writeGrids(bw *bufio.Writer, offset int64, bodies []gridBody) (int64, error) {
	for _, b := range bodies {
		var d enc
		d.str(b.name)
		d.str(b.treeType)
		d.str("") // no instance parent
		gridPos := offset + int64(len(d.b)) + 3*8
		blockPos := gridPos + int64(len(b.topology))
		endPos := blockPos + b.buffersLen()
		d.i64(gridPos)
		d.i64(blockPos)
		d.i64(endPos)
		for _, p := range append([][]byte{d.b, b.topology}, b.buffers...) {
			if _, err := bw.Write(p); err != nil {
				return 0, err
			}
		}
		offset = endPos
	}
	return offset, nil
}

// checkMetadata reports a value whose type the format cannot store.
func checkMetadata(where string, m Metadata) error {
	for _, name := range m.sortedNames() {
		if _, _, ok := encodeMeta(m[name]); !ok {
			return fmt.Errorf("vdb: %s metadata %q: type %T cannot be stored", where, name, m[name])
		}
	}
	return nil
}

// contentUUID derives the file's UUID from the grids it holds, so that writing the
// same grids twice gives the same bytes. Readers only keep it as an identifier.
func contentUUID(bodies []gridBody) string {
	h := sha1.New()
	for _, b := range bodies {
		h.Write([]byte(b.name))
		h.Write(b.topology)
		for _, p := range b.buffers {
			h.Write(p)
		}
	}
	s := h.Sum(nil)
	return fmt.Sprintf("%x-%x-%x-%x-%x", s[0:4], s[4:6], s[6:8], s[8:10], s[10:16])
}

// gridBody is one encoded grid: from the compression flags through the topology,
// and the leaf buffers after it, in pieces to be written one after the other.
type gridBody struct {
	name, treeType string
	topology       []byte
	buffers        [][]byte
}

// buffersLen returns the bytes of the leaf buffers.
func (b *gridBody) buffersLen() int64 {
	n := 0
	for _, p := range b.buffers {
		n += len(p)
	}
	return int64(n)
}

// encodeGrid encodes g, whose voxels are in tree, with o's compression: its
// topology, and its leaves as chunks for encodeLeafChunks.
func encodeGrid[T levelset.Value](g *Grid, tree *levelset.Grid[T], treeType string, o Options) (gridBody, leafChunks) {
	comp := o.Compression
	if g.Half {
		treeType += "_HalfFloat"
	}
	newWriter := func(z *packer) *treeWriter[T] {
		return &treeWriter[T]{comp: comp, codec: o.BloscCodec, half: g.Half, bg: tree.Background, pack: z}
	}
	z := packers.Get().(*packer)
	defer packers.Put(z)
	var top enc
	top.u32(uint32(comp))
	top.metadata(gridMetadata(g, tree, comp))
	top.transform(tree.Transform)
	top.i32(1) // one value buffer per leaf
	arranged := arrange(tree)
	newWriter(z).writeTopology(&top, arranged)
	return gridBody{name: g.Name, treeType: treeType, topology: top.b}, newLeafChunks(arranged.leaves(), newWriter)
}

// gridMetadata returns the metadata OpenVDB keeps for a grid: its own plus the
// standard keys (class, name, vector type, half flag) and the statistics
// OpenVDB's own writer adds (bounding box and voxel count) for tools like vdb_print.
func gridMetadata[T levelset.Value](g *Grid, tree *levelset.Grid[T], comp Compression) Metadata {
	m := Metadata{}
	for k, v := range g.Meta {
		m[k] = v
	}
	class := g.Class
	if class == "" {
		class = UnknownClass
	}
	m["class"] = string(class)
	m["name"] = g.Name
	if g.VectorType != "" {
		m["vector_type"] = g.VectorType
	}
	m["is_saved_as_half_float"] = g.Half
	m["file_compression"] = comp.String()
	m["file_voxel_count"] = tree.ActiveVoxelCount()
	if lo, hi, ok := tree.ActiveBounds(); ok {
		m["file_bbox_min"] = [3]int32(lo)
		m["file_bbox_max"] = [3]int32(hi)
	}
	return m
}

// treeWriter encodes the nodes of one grid.
type treeWriter[T levelset.Value] struct {
	comp  Compression
	codec blosc.Codec // inside Blosc frames
	half  bool
	bg    T // full precision: OpenVDB classifies inactive values against it before rounding

	active []T     // scratch: a node's active values
	pack   *packer // scratch and compressors
}

// packer holds the compressors (zlib, Blosc) with their buffers. Making a zlib
// writer allocates about a megabyte, so packers are kept in a pool; the
// compressors are reset between streams, which makes their output what new
// ones' would be.
type packer struct {
	chunk []byte // a chunk of leaf buffers being encoded
	raw   []byte // encoded values before compression
	zbuf  bytes.Buffer
	zw    *zlib.Writer
	blosc blosc.Encoder
	frame []byte // a Blosc frame
}

var packers = sync.Pool{New: func() any { return new(packer) }}

// writeTopology writes the root table and the internal nodes, down to each leaf's
// active mask (RootNode, InternalNode and LeafNode writeTopology).
func (w *treeWriter[T]) writeTopology(e *enc, t *vdbTree[T]) {
	w.value(e, w.bg)
	e.u32(uint32(len(t.rootTiles)))
	e.u32(uint32(len(t.upper)))
	for _, tile := range t.rootTiles {
		e.coord(tile.Origin)
		w.value(e, tile.Value)
		if tile.Active {
			e.u8(1)
		} else {
			e.u8(0)
		}
	}
	upperVals := make([]T, upperSlots)
	lowerVals := make([]T, lowerSlots)
	for _, u := range t.upper {
		e.coord(u.origin)
		children := make([]levelset.Coord, len(u.lower))
		for i, l := range u.lower {
			children[i] = l.origin
		}
		w.internalNode(e, upperVals, upperSlot, children, u.tiles)
		for _, l := range u.lower {
			children = children[:0]
			for _, leaf := range l.leaves {
				children = append(children, leaf.Origin)
			}
			w.internalNode(e, lowerVals, lowerSlot, children, l.tiles)
			for _, leaf := range l.leaves {
				e.mask(leaf.Active[:])
			}
		}
	}
}

// internalNode writes an internal node's child mask, value mask and values: zero in
// child slots (as OpenVDB writes), the tile values, and the background elsewhere.
// vals is scratch of the node's size.
func (w *treeWriter[T]) internalNode(e *enc, vals []T, slot func(levelset.Coord) int,
	children []levelset.Coord, tiles []levelset.Tile[T]) {
	childMask, valueMask := make(nodeMask, len(vals)/64), make(nodeMask, len(vals)/64)
	fill(vals, w.bg)
	for _, o := range children {
		n := slot(o)
		childMask.set(n)
		vals[n] = *new(T)
	}
	for _, tile := range tiles {
		n := slot(tile.Origin)
		vals[n] = tile.Value
		if tile.Active {
			valueMask.set(n)
		}
	}
	e.mask(childMask)
	e.mask(valueMask)
	w.values(e, vals, valueMask, childMask)
}

// value writes one full-size value: the root's background and tiles, and the
// inactive values of mask compression, which stay full size (rounded through half)
// even in half-float grids.
func (w *treeWriter[T]) value(e *enc, v T) {
	if w.half {
		v = roundedToHalf(v)
	}
	e.b = appendValues(e.b, []T{v}, false)
}

// values writes a node's values as io::writeCompressedValues does: a byte saying
// how inactive values are stored, the inactive values and selection mask that
// rebuild them, then the values themselves (only the active ones under ActiveMask),
// zipped if ZIP is on.
func (w *treeWriter[T]) values(e *enc, vals []T, valueMask, childMask nodeMask) {
	if w.comp&ActiveMask == 0 {
		e.u8(allValuesStored)
		w.payload(e, vals)
		return
	}
	code, inactive := classifyInactive(vals, valueMask, childMask, w.bg)
	e.u8(code)
	switch code {
	case inactiveAreOneValue, inactiveAreBgAndOneValue:
		w.value(e, inactive[0])
	case inactiveAreTwoValues:
		w.value(e, inactive[0])
		w.value(e, inactive[1])
	case allValuesStored:
		w.payload(e, vals)
		return
	}
	if code >= inactiveArePlusMinusBg {
		selection := make(nodeMask, len(valueMask))
		for i, v := range vals {
			if !valueMask.isOn(i) && v == inactive[1] {
				selection.set(i)
			}
		}
		e.mask(selection)
	}
	w.active = w.active[:0]
	for i, v := range vals {
		if valueMask.isOn(i) {
			w.active = append(w.active, v)
		}
	}
	w.payload(e, w.active)
}

// payload writes values as float32 or half, raw, zipped or in a Blosc frame. A
// compressed block is an int64 byte count and the zlib stream or Blosc frame, or
// minus the count and the raw bytes when compressing would not make it smaller
// (io::zipToStream, io::bloscToStream). Half-float blocks with no values are
// left out entirely, as OpenVDB's HalfWriter does.
func (w *treeWriter[T]) payload(e *enc, vals []T) {
	if w.half && len(vals) == 0 {
		return
	}
	z := w.pack
	z.raw = appendValues(z.raw[:0], vals, w.half)
	var packed []byte
	switch {
	case w.comp&Blosc != 0:
		packed = z.bloscFrame(z.raw, w.codec, w.half)
	case w.comp&ZIP != 0:
		packed = z.deflate(z.raw)
	default:
		e.bytes(z.raw)
		return
	}
	if len(packed) < len(z.raw) {
		e.i64(int64(len(packed)))
		e.bytes(packed)
		return
	}
	e.i64(-int64(len(z.raw)))
	e.bytes(z.raw)
}

// deflate returns raw as a zlib stream, in a buffer the next call reuses.
func (z *packer) deflate(raw []byte) []byte {
	z.zbuf.Reset()
	if z.zw == nil {
		z.zw = zlib.NewWriter(&z.zbuf)
	} else {
		z.zw.Reset(&z.zbuf)
	}
	z.zw.Write(raw) // writes to a bytes.Buffer cannot fail
	z.zw.Close()
	return z.zbuf.Bytes()
}

// bloscFrame returns raw as a Blosc frame, in a buffer the next call reuses:
// byte-shuffled float by float (2 bytes a value for half floats, 4 otherwise;
// a vec3s is three floats), in one block, as OpenVDB compresses.
func (z *packer) bloscFrame(raw []byte, codec blosc.Codec, half bool) []byte {
	o := blosc.Options{Codec: codec, Shuffle: blosc.ByteShuffle, TypeSize: 4}
	if half {
		o.TypeSize = 2
	}
	z.frame, _ = z.blosc.Compress(z.frame[:0], raw, o) // Encode checked the codec; nodes are far below 2 GB
	return z.frame
}

func fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}
