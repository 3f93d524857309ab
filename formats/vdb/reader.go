package vdb

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"github.com/klauspost/compress/zlib"

	"snowtools/formats/input"
	"snowtools/formats/vdb/blosc"
	"snowtools/levelset"
)

// Read reads a whole .vdb file. Grids of value types other than float and vec3s are
// skipped and named in File.Skipped (possible when the file records grid offsets,
// as every OpenVDB file does). Errors in the file are *FormatError values.
func Read(r io.Reader) (*File, error) {
	d := newDecoder(r)
	f := d.file()
	if d.err != nil {
		return nil, d.err
	}
	return f, nil
}

// ReadFile reads the .vdb file at path (see Read).
func ReadFile(path string) (*File, error) {
	f, err := input.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(bufio.NewReaderSize(f, 1<<20))
}

// file reads the header and every grid.
func (d *decoder) file() *File {
	if m := d.i64("magic number"); d.err == nil && m != magic {
		d.fail(0, "not an OpenVDB file (magic number %#x)", m)
	}
	f := &File{}
	f.Version = d.u32("file version")
	if d.err == nil && f.Version < minFileVersion {
		d.fail(8, "file version %d is older than %d, the oldest this reader knows; "+
			"re-save it with a current OpenVDB (vdb_tool -read in.vdb -write out.vdb)", f.Version, minFileVersion)
	}
	if d.err == nil && f.Version > FileVersion {
		// A layout this reader does not know, or a damaged header (0xffffffff):
		// reading on would misread every field after it.
		d.fail(8, "file version %d is newer than %d, the newest OpenVDB writes and this reader knows", f.Version, FileVersion)
	}
	f.Library = [2]uint32{d.u32("library major version"), d.u32("library minor version")}
	hasOffsets := d.u8("grid offsets flag") != 0
	f.UUID = string(d.bytes(36, "UUID"))
	f.Meta = d.metadata("file metadata")
	count := d.u32("grid count")
	for i := uint32(0); i < count && d.err == nil; i++ {
		d.grid = ""
		d.readGrid(f, hasOffsets)
	}
	return f
}

// readGrid reads one grid descriptor and body and adds the grid to f.
func (d *decoder) readGrid(f *File, hasOffsets bool) {
	// The descriptor (io/GridDescriptor.cc). OpenVDB makes duplicate names unique
	// with a "\x1e" and a number; the name is what comes before it.
	name, _, _ := strings.Cut(d.str("grid name", maxNameLen), "\x1e")
	d.grid = name
	typeAt := d.off
	treeType := d.str("grid type", maxNameLen)
	parent := d.str("instance parent name", maxNameLen)
	var gridPos, blockPos, endPos int64
	if hasOffsets {
		gridPos, blockPos, endPos = d.i64("grid position"), d.i64("block position"), d.i64("end position")
		d.skipTo(gridPos, "grid position")
	}
	if d.err != nil {
		return
	}
	baseType, isHalf := strings.CutSuffix(treeType, "_HalfFloat")
	if baseType != "Tree_float_5_4_3" && baseType != "Tree_vec3s_5_4_3" {
		if !hasOffsets {
			d.fail(typeAt, "grid type %q is not supported, and this stream has no offsets to skip it by", treeType)
			return
		}
		f.Skipped = append(f.Skipped, name+" ("+treeType+")")
		d.skipTo(endPos, "end of grid")
		return
	}

	g := &Grid{Name: name, Half: isHalf}
	compAt := d.off
	comp := Compression(d.u32("compression flags"))
	if d.err == nil && comp&^(ZIP|ActiveMask|Blosc) != 0 {
		d.fail(compAt, "unknown compression flags %#x", uint32(comp))
	}
	g.Meta = d.metadata("grid metadata")
	g.takeStandardMetadata()
	t := d.transform()
	if d.err != nil {
		return
	}

	if parent != "" {
		// An instance shares the tree of a grid read before it, with its own transform.
		p := f.Grid(parent)
		if p == nil || (p.Float == nil) != (baseType == "Tree_float_5_4_3") {
			d.fail(typeAt, "instance of grid %q, which is not an earlier grid of the same type", parent)
			return
		}
		if p.Float != nil {
			g.Float = instanceOf(p.Float, t)
		} else {
			g.Vec3 = instanceOf(p.Vec3, t)
		}
	} else if baseType == "Tree_float_5_4_3" {
		g.Float = readTree[float32](d, t, comp, isHalf, blockPos, hasOffsets)
	} else {
		g.Vec3 = readTree[levelset.Vec3f](d, t, comp, isHalf, blockPos, hasOffsets)
	}
	if hasOffsets {
		d.skipTo(endPos, "end of grid")
	}
	if d.err == nil {
		f.Grids = append(f.Grids, g)
	}
}

// takeStandardMetadata moves the keys OpenVDB gives meaning to into the Grid's
// fields and drops the statistics OpenVDB's writer adds, which Write recomputes.
func (g *Grid) takeStandardMetadata() {
	g.Class = UnknownClass
	if c, ok := g.Meta["class"].(string); ok {
		g.Class = Class(c)
	}
	if v, ok := g.Meta["vector_type"].(string); ok {
		g.VectorType = v
	}
	for _, k := range []string{"class", "name", "vector_type", "is_saved_as_half_float",
		"file_bbox_min", "file_bbox_max", "file_compression", "file_delayed_load",
		"file_mem_bytes", "file_voxel_count"} {
		delete(g.Meta, k)
	}
}

// instanceOf returns a grid that shares p's voxels under another transform.
func instanceOf[T levelset.Value](p *levelset.Grid[T], t levelset.Transform) *levelset.Grid[T] {
	g := *p
	g.Transform = t
	return &g
}

// treeReader rebuilds a levelset.Grid from a tree's topology and leaf buffers.
type treeReader[T levelset.Value] struct {
	*decoder
	out    *levelset.Grid[T]
	comp   Compression
	half   bool
	leaves []*levelset.Leaf[T] // in file order, waiting for their buffers

	upperVals, lowerVals, active []T
	inflated                     []byte
	zr                           io.ReadCloser
	unbloscer                    blosc.Decoder
}

// readTree reads the topology (Tree::readTopology) and the leaf buffers
// (Tree::readBuffers) of one grid.
func readTree[T levelset.Value](d *decoder, t levelset.Transform, comp Compression, isHalf bool,
	blockPos int64, hasOffsets bool) *levelset.Grid[T] {
	r := &treeReader[T]{decoder: d, comp: comp, half: isHalf,
		upperVals: make([]T, upperSlots), lowerVals: make([]T, lowerSlots)}
	at := d.off
	if n := d.i32("buffer count"); d.err == nil && n != 1 {
		d.fail(at, "%d value buffers per leaf; OpenVDB grids have 1", n)
	}
	r.out = levelset.NewGrid(t, r.value("background"))
	r.readRoot()
	if hasOffsets {
		d.skipTo(blockPos, "leaf buffers")
	}
	for _, leaf := range r.leaves {
		if d.err != nil {
			break
		}
		d.mask(leaf.Active[:], "leaf active mask")
		r.readValues(leaf.Values[:], leaf.Active[:], "leaf values")
	}
	return r.out
}

// readRoot reads the root table: its tiles, then each upper node.
func (r *treeReader[T]) readRoot() {
	numTiles := r.u32("root tile count")
	numChildren := r.u32("root child count")
	seen := map[levelset.Coord]bool{}
	checkOrigin := func(at int64, origin levelset.Coord) {
		if r.err == nil && (origin != origin.AlignDown(upperLog2) || seen[origin]) {
			r.fail(at, "root entry origin %v is repeated or not a multiple of 4096", origin)
		}
		seen[origin] = true
	}
	for i := uint32(0); i < numTiles && r.err == nil; i++ {
		at := r.off
		origin := r.coord("root tile origin")
		v := r.value("root tile value")
		active := r.u8("root tile active flag") != 0
		checkOrigin(at, origin)
		r.addTile(origin, upperLog2, v, active)
	}
	for i := uint32(0); i < numChildren && r.err == nil; i++ {
		at := r.off
		origin := r.coord("upper node origin")
		checkOrigin(at, origin)
		r.readUpper(origin)
	}
}

// readUpper reads an upper internal node's masks and tile values, then its children.
func (r *treeReader[T]) readUpper(origin levelset.Coord) {
	childMask := r.internalNode(r.upperVals, origin, upperSlotOrigin, lowerLog2, "upper node")
	for n := range upperSlots {
		if childMask.isOn(n) && r.err == nil {
			r.readLower(upperSlotOrigin(origin, n))
		}
	}
}

// readLower reads a lower internal node's masks and tile values, then the active
// mask of each leaf; the leaves' values come later, with the buffers.
func (r *treeReader[T]) readLower(origin levelset.Coord) {
	childMask := r.internalNode(r.lowerVals, origin, lowerSlotOrigin, levelset.LeafLog2, "lower node")
	for n := range lowerSlots {
		if childMask.isOn(n) && r.err == nil {
			leaf := &levelset.Leaf[T]{Origin: lowerSlotOrigin(origin, n)}
			r.mask(leaf.Active[:], "leaf topology mask")
			r.leaves = append(r.leaves, leaf)
			r.out.AddLeaf(leaf)
		}
	}
}

// internalNode reads an internal node's child mask, value mask and values, adds
// its tiles (slots without a child) of size 2^tileLog2, and returns the child mask.
// vals is scratch of the node's size.
func (r *treeReader[T]) internalNode(vals []T, origin levelset.Coord,
	slotOrigin func(levelset.Coord, int) levelset.Coord, tileLog2 uint8, what string) nodeMask {
	childMask, valueMask := make(nodeMask, len(vals)/64), make(nodeMask, len(vals)/64)
	r.mask(childMask, what+" child mask")
	r.mask(valueMask, what+" value mask")
	r.readValues(vals, valueMask, what+" values")
	for n, v := range vals {
		if !childMask.isOn(n) {
			r.addTile(slotOrigin(origin, n), tileLog2, v, valueMask.isOn(n))
		}
	}
	return childMask
}

// addTile records a tile unless it is what an empty region reads as anyway. The
// slots of a node are disjoint, and readRoot refuses repeated origins, so the
// region is empty and AddTile need not clear it.
func (r *treeReader[T]) addTile(origin levelset.Coord, log2 uint8, v T, active bool) {
	if r.err == nil && (active || v != r.out.Background) {
		r.out.AddTile(levelset.Tile[T]{Origin: origin, Log2: log2, Value: v, Active: active})
	}
}

// value reads one full-size value.
func (r *treeReader[T]) value(what string) T {
	var v [1]T
	if b := r.bytes(valueSize[T](), what); b != nil {
		decodeValues(v[:], b, false)
	}
	return v[0]
}

// readValues reads a node's values as io::readCompressedValues does: the byte
// saying how inactive values are stored, the inactive values and selection mask,
// then the stored values, which under ActiveMask are only the active ones.
func (r *treeReader[T]) readValues(dst []T, valueMask nodeMask, what string) {
	at := r.off
	code := r.u8(what + " compression code")
	if r.err != nil {
		return
	}
	if code > allValuesStored {
		r.fail(at, "%s: unknown compression code %d", what, code)
		return
	}
	bg := r.out.Background
	inactive := [2]T{negative(bg), bg}
	if code == inactiveAreBackground {
		inactive[0] = bg
	}
	switch code {
	case inactiveAreOneValue, inactiveAreBgAndOneValue:
		inactive[0] = r.value(what + " inactive value")
	case inactiveAreTwoValues:
		inactive[0] = r.value(what + " inactive value")
		inactive[1] = r.value(what + " inactive value")
	}
	var selection nodeMask
	if code >= inactiveArePlusMinusBg && code < allValuesStored {
		selection = make(nodeMask, len(valueMask))
		r.mask(selection, what+" selection mask")
	}
	if r.comp&ActiveMask == 0 || code == allValuesStored {
		r.payload(dst, what)
		return
	}
	count := valueMask.count()
	if cap(r.active) < count {
		r.active = make([]T, count)
	}
	stored := r.active[:count]
	r.payload(stored, what)
	for i, j := 0, 0; i < len(dst); i++ {
		switch {
		case valueMask.isOn(i):
			dst[i] = stored[j]
			j++
		case selection != nil && selection.isOn(i):
			dst[i] = inactive[1]
		default:
			dst[i] = inactive[0]
		}
	}
}

// payload reads len(dst) values, raw or in the int64-framed zip or Blosc blocks
// that io::readData expects (Blosc first when both flags are set, as there).
func (r *treeReader[T]) payload(dst []T, what string) {
	if r.err != nil || (r.half && len(dst) == 0) {
		return
	}
	size := valueSize[T]()
	if r.half {
		size /= 2
	}
	n := len(dst) * size
	if r.comp&(ZIP|Blosc) == 0 {
		if b := r.bytes(n, what); b != nil {
			decodeValues(dst, b, r.half)
		}
		return
	}
	at := r.off
	stored := r.i64(what + " block size")
	switch {
	case r.err != nil:
		return
	case stored <= 0: // stored raw
		if -stored != int64(n) {
			r.fail(at, "%s: raw block of %d bytes where %d values take %d", what, -stored, len(dst), n)
			return
		}
		if b := r.bytes(n, what); b != nil {
			decodeValues(dst, b, r.half)
		}
	case r.comp&Blosc != 0 && stored > int64(n)+blosc.HeaderSize: // c-blosc's bound
		r.fail(at, "%s: Blosc block of %d bytes for %d bytes of values", what, stored, n)
	case r.comp&Blosc != 0:
		r.unblosc(dst, int(stored), n, at, what)
	case stored > int64(n)+int64(n/64)+64: // beyond what zlib could need for n bytes
		r.fail(at, "%s: zip block of %d bytes for %d bytes of values", what, stored, n)
	default:
		r.inflate(dst, int(stored), n, at, what)
	}
}

// unblosc reads a Blosc frame of the given size that must hold exactly n bytes.
// The frame's header is checked against n before anything is decompressed.
func (r *treeReader[T]) unblosc(dst []T, stored, n int, at int64, what string) {
	frame := r.bytes(stored, what)
	if frame == nil {
		return
	}
	h, err := blosc.ReadHeader(frame)
	if err == nil && (h.NBytes != n || h.CBytes != stored) {
		r.fail(at+8, "%s: Blosc frame of %d bytes holding %d where the block has %d bytes for %d bytes of values",
			what, h.CBytes, h.NBytes, stored, n)
		return
	}
	if err == nil {
		r.inflated, err = r.unbloscer.Decompress(r.inflated[:0], frame)
	}
	if err != nil {
		r.err = &FormatError{Offset: at + 8, Grid: r.grid, Msg: what + ": bad Blosc frame", Err: err}
		return
	}
	decodeValues(dst, r.inflated, r.half)
}

// inflate reads a zlib block of the given size that must expand to exactly n bytes.
func (r *treeReader[T]) inflate(dst []T, stored, n int, at int64, what string) {
	compressed := r.bytes(stored, what)
	if compressed == nil {
		return
	}
	src := bytes.NewReader(compressed)
	var err error
	if r.zr == nil {
		r.zr, err = zlib.NewReader(src)
	} else {
		err = r.zr.(zlib.Resetter).Reset(src, nil)
	}
	if cap(r.inflated) < n {
		r.inflated = make([]byte, n)
	}
	raw := r.inflated[:n]
	if err == nil {
		_, err = io.ReadFull(r.zr, raw)
	}
	if err != nil {
		r.err = &FormatError{Offset: at, Grid: r.grid, Msg: what + ": bad zip block", Err: err}
		return
	}
	decodeValues(dst, raw, r.half)
}
