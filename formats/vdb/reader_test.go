package vdb

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// smallFile is a file with one tiny grid of each type, for the error tests.
func smallFile(t testing.TB, comp Compression, half bool) []byte {
	ls := levelset.NewGrid(levelset.Transform{VoxelSize: 0.5}, float32(1.5))
	ls.Set(levelset.Coord{1, 2, 3}, 0.25)
	ls.SetValue(levelset.Coord{1, 2, 4}, -1.5, false)
	ls.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{-8, 0, 0}, Log2: levelset.LeafLog2, Value: -1.5})
	for n := range levelset.LeafVoxels { // a leaf that zip compresses
		ls.Set(levelset.LeafCoord(levelset.Coord{8, 8, 8}, n), 0.5)
	}
	v := levelset.NewGrid(levelset.Transform{VoxelSize: 0.5, Origin: geom.Vec3{1, 2, 3}}, levelset.Vec3f{})
	v.Set(levelset.Coord{-1, -2, -3}, levelset.Vec3f{1, 2, 3})
	f := &File{Meta: Metadata{"creator": "snowtools"}, Grids: []*Grid{{Name: "ls", Class: LevelSet, Float: ls, Half: half}, {Name: "v", Vec3: v, Half: half}}}
	return encode(t, f, comp)
}

// Every truncation of a valid file is an error that says where, never a panic:
// every length through the header and the first grid's descriptor, then a hundred
// lengths spread over the rest and the last few (the uncompressed files are too
// long to try each one).
func TestTruncatedFiles(t *testing.T) {
	for _, comp := range compressions {
		for _, half := range []bool{false, true} {
			data := smallFile(t, comp, half)
			var lengths []int
			for n := range min(600, len(data)) {
				lengths = append(lengths, n)
			}
			for k := range 100 {
				lengths = append(lengths, 600+k*(len(data)-600)/100, len(data)-1-k%8)
			}
			for _, n := range lengths {
				_, err := Read(bytes.NewReader(data[:n]))
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("%v half=%v: %d of %d bytes: error %v, want a *FormatError", comp, half, n, len(data), err)
				}
				if !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("%v: %d bytes: %v does not report the early end", comp, n, err)
				}
			}
			if _, err := Read(bytes.NewReader(data)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// patch returns a copy of data with b written at offset off.
func patch(data []byte, off int, b []byte) []byte {
	out := bytes.Clone(data)
	copy(out[off:], b)
	return out
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v int64) []byte  { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

func TestReadRejects(t *testing.T) {
	data := smallFile(t, ZIP|ActiveMask, false)
	// Offsets in the header: magic 0, version 8, library 12, offsets flag 20, UUID 21,
	// file metadata count 57 (with the "creator" entry), then the grid count.
	metaEnd := bytes.Index(data, []byte("snowtools")) + len("snowtools")
	gridName := metaEnd + 4
	at := func(s string) int { return bytes.Index(data, []byte(s)) }

	rootCounts := at("UniformScaleMap") + len("UniformScaleMap") + 5*24 + 4 + 4 // buffer count, background
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"bad magic", patch(data, 0, []byte("PK")), "not an OpenVDB file"},
		{"old version", patch(data, 8, le32(220)), "older than 222"},
		{"version 0xffffffff", patch(data, 8, le32(0xffffffff)), "byte 8: file version 4294967295 is newer than 224"},
		{"version 225", patch(data, 8, le32(225)), "file version 225 is newer than 224"},
		{"a billion grids", patch(data, metaEnd, le32(1e9)), "reading grid name"},
		{"a billion root tiles", patch(data, rootCounts, le32(1e9)), "root"},
		{"a billion upper nodes", patch(data, rootCounts+4, le32(1e9)), "upper node"},
		{"huge name", patch(data, gridName, le32(0xfffffff0)), "at most 65536"},
		{"huge metadata count", patch(data, 57, le32(0xffffffff)), "file metadata"},
		{"huge metadata value", patch(data, at("creator")+len("creator")+4+len("string"), le32(1<<30)), "at most"},
		{"unknown transform", bytes.Replace(data, []byte("UniformScaleMap"), []byte("FrustumScaleMap"), 1), "transform \"FrustumScaleMap\" is not supported"},
		{"non-cubic voxels", patch(data, at("UniformScaleMap")+len("UniformScaleMap")+8, le64(0x4000000000000000)), "differs between axes"},
		{"unknown compression", patch(data, gridPosOf(t, data, "ls"), le32(0x10)), "unknown compression flags"},
		{"zip read as blosc", patch(data, gridPosOf(t, data, "ls"), le32(uint32(Blosc|ActiveMask))), "bad Blosc frame: blosc: byte 0: format version 120"},
		{"grid position backwards", patch(data, gridPosOf(t, data, "ls")-24, le64(10)), "before the data already read"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// Blosc frames whose sizes lie are errors that say so, before anything is
// allocated for them: the block's int64 size, the frame's nbytes and cbytes, and
// a frame cut short.
func TestReadRejectsBadBlosc(t *testing.T) {
	data := smallFile(t, Blosc|ActiveMask, false)
	frame := bytes.Index(data, []byte{2, 1, 0x21, 4}) // version 2, codec version 1, lz4 + shuffle, type size 4
	if frame < 8 {
		t.Fatal("no Blosc frame in the file")
	}
	cbytes := int(binary.LittleEndian.Uint32(data[frame+12:]))
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"block size huge", patch(data, frame-8, le64(1<<40)), "Blosc block of 1099511627776 bytes"},
		{"nbytes huge", patch(data, frame+4, le32(1<<31-100)), "bad Blosc frame: blosc: byte 12: frame size"},
		{"nbytes off by 4", patch(data, frame+4, le32(binary.LittleEndian.Uint32(data[frame+4:])+4)), "holding"},
		{"cbytes short", patch(data, frame+12, le32(uint32(cbytes-1))), "Blosc frame of"},
		{"cbytes long", patch(data, frame+12, le32(uint32(cbytes+1))), "frame size"},
		{"split size", patch(data, frame+20, le32(1<<20)), "compressed bytes where"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data))
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want a *FormatError containing %q", c.name, err, c.want)
		}
	}
}

// Versions 222 and 223 store float and vec3s grids as 224 does (224 changed only
// point grids), and read the same.
func TestReadsVersions222To224(t *testing.T) {
	data := smallFile(t, ZIP|ActiveMask, true)
	want, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []uint32{222, 223} {
		got, err := Read(bytes.NewReader(patch(data, 8, le32(v))))
		if err != nil {
			t.Fatalf("version %d: %v", v, err)
		}
		if got.Version != v {
			t.Errorf("version %d read as %d", v, got.Version)
		}
		expectSameGrid(t, fmt.Sprint("version ", v), want.Grids[0].Float, got.Grids[0].Float, false)
		expectSameGrid(t, fmt.Sprint("version ", v), want.Grids[1].Vec3, got.Grids[1].Vec3, false)
	}
}

// gridPosOf returns the grid position recorded in the descriptor of the named grid.
func gridPosOf(t *testing.T, data []byte, name string) int {
	t.Helper()
	i := bytes.Index(data, append(le32(uint32(len(name))), append([]byte(name), le32(16)...)...))
	if i < 0 {
		t.Fatalf("no descriptor for %q", name)
	}
	pos := i + 4 + len(name) + 4 + 16 + 4 // name, type "Tree_float_5_4_3", empty parent
	return int(binary.LittleEndian.Uint64(data[pos:]))
}

// Grids of other value types are skipped by their end position and named.
func TestSkipsOtherGridTypes(t *testing.T) {
	data := smallFile(t, ZIP|ActiveMask, false)
	data = bytes.Replace(data, []byte("Tree_vec3s_5_4_3"), []byte("Tree_vec3d_5_4_3"), 1)
	f, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Grids) != 1 || len(f.Skipped) != 1 || f.Skipped[0] != "v (Tree_vec3d_5_4_3)" {
		t.Errorf("grids %d, skipped %v", len(f.Grids), f.Skipped)
	}
}

func FuzzRead(f *testing.F) {
	// Small seeds fuzz fast: a file without grids, and one voxel and one tile of a
	// level set under one upper node, in each compression.
	f.Add(encode(f, &File{}, ZIP))
	for _, comp := range compressions {
		ls := levelset.NewGrid(levelset.Transform{VoxelSize: 0.5}, float32(1.5))
		ls.Set(levelset.Coord{1, 2, 3}, 0.25)
		ls.SetTile(levelset.Tile[float32]{Origin: levelset.Coord{8, 0, 0}, Log2: levelset.LeafLog2, Value: -1.5})
		f.Add(encode(f, &File{Grids: []*Grid{{Name: "ls", Class: LevelSet, Float: ls}}}, comp))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			return
		}
		// Whatever reads must write and read back to the same voxels.
		var buf bytes.Buffer
		if err := Write(&buf, file, nil); err != nil {
			return // e.g. two grids of one name, which Write refuses
		}
		again, err := Read(&buf)
		if err != nil {
			t.Fatalf("re-reading what we wrote: %v", err)
		}
		for i, g := range file.Grids {
			if g.Float != nil && again.Grids[i].Float.ActiveVoxelCount() != g.Float.ActiveVoxelCount() {
				t.Fatalf("grid %q: active count changed", g.Name)
			}
		}
	})
}
