// Package vdb reads and writes OpenVDB .vdb files holding float and vec3s grids:
// the level sets, velocities and normals that voxelize writes for snowsim, and the
// density volumes that export writes for renderers and DCCs.
//
// A file holds several grids. Each grid's voxels live in a levelset.Grid (the leaf
// and tile layers of a VDB tree); this package builds and reads the internal nodes
// of the 5-4-3 tree that the file format stores around them.
//
// Write produces file version 224, which OpenVDB 4 to 12, Houdini, Blender 2.83+ and
// the common renderers read, compressed with active-mask and zip by default, or with
// Blosc (LZ4, BloscLZ or zlib inside; package blosc). Read accepts versions 222 to
// 224 as OpenVDB writes them: uncompressed, zip, Blosc, active-mask and half-float
// values, root and internal tiles, and uniform scale or scale-translate transforms.
// Grids of other value types are skipped and listed in File.Skipped. Malformed input
// yields a *FormatError naming the byte offset and grid.
package vdb

import (
	"fmt"
	"strings"

	"snowtools/formats/vdb/blosc"
	"snowtools/levelset"
)

// FileVersion is the file format version Write produces: 224, the multi-pass I/O
// version written by OpenVDB 4.0 to 12.
const FileVersion = 224

// The oldest file version Read accepts: 222 brought per-node mask compression,
// the layout every OpenVDB since 3.0 writes.
const minFileVersion = 222

// magic is the first 8 bytes of every .vdb file: " BDV" and four zero bytes, little endian.
const magic = 0x56444220

// Compression is the set of per-grid compression flags of a .vdb file.
type Compression uint32

const (
	// ZIP deflates every node's value block with zlib.
	ZIP Compression = 0x1
	// ActiveMask stores only active values where the inactive ones are at most two
	// distinct values (a level set's plus and minus background, a fog volume's zero).
	ActiveMask Compression = 0x2
	// Blosc compresses every node's value block as a Blosc frame, byte-shuffled
	// float by float: OpenVDB's default where it is built with Blosc (Houdini,
	// Debian). Options.BloscCodec chooses the codec inside. Readers take Blosc
	// over ZIP when a file sets both; Write refuses both.
	Blosc Compression = 0x4
)

// String names the flags as OpenVDB's "file_compression" metadata does:
// "none", "zip", "blosc", "active values", "zip + active values" and so on.
func (c Compression) String() string {
	var parts []string
	if c&ZIP != 0 {
		parts = append(parts, "zip")
	}
	if c&Blosc != 0 {
		parts = append(parts, "blosc")
	}
	if c&ActiveMask != 0 {
		parts = append(parts, "active values")
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, " + ")
}

// Class tells a DCC or renderer how to read a float grid.
type Class string

const (
	LevelSet     Class = "level set"  // signed distances, negative inside; background = half band width
	FogVolume    Class = "fog volume" // densities, zero outside
	Staggered    Class = "staggered"  // a MAC grid of face-centred vectors
	UnknownClass Class = "unknown"
)

// Grid is one named grid of a file. Exactly one of Float and Vec3 is set.
type Grid struct {
	Name  string
	Class Class
	// VectorType is OpenVDB's "vector_type" of a vector grid: "invariant",
	// "covariant", "covariant normalize", "contravariant relative" or
	// "contravariant absolute"; "" writes none.
	VectorType string
	// Half stores the values as IEEE half floats: half the size, 11 bits of precision.
	Half bool
	// Meta holds the grid's other metadata, such as "creator".
	Meta Metadata

	Float *levelset.FloatGrid
	Vec3  *levelset.Vec3Grid
}

// transform returns the grid's voxel transform.
func (g *Grid) transform() levelset.Transform {
	if g.Float != nil {
		return g.Float.Transform
	}
	return g.Vec3.Transform
}

func (g *Grid) validate() error {
	if (g.Float == nil) == (g.Vec3 == nil) {
		return fmt.Errorf("vdb: grid %q: exactly one of Float and Vec3 must be set", g.Name)
	}
	if err := g.transform().Validate(); err != nil {
		return fmt.Errorf("vdb: grid %q: %v", g.Name, err)
	}
	return g.checkFinite()
}

// File is the content of a .vdb file.
type File struct {
	Meta  Metadata // file-level metadata
	Grids []*Grid

	// Set by Read.
	Version uint32    // the file format version
	Library [2]uint32 // major and minor version of the library that wrote it
	UUID    string
	Skipped []string // grids of value types this package does not read: "name (type)"
}

// Grid returns the grid with the given name, or nil.
func (f *File) Grid(name string) *Grid {
	for _, g := range f.Grids {
		if g.Name == name {
			return g
		}
	}
	return nil
}

// Options control Write.
type Options struct {
	Compression Compression // ActiveMask and one of ZIP and Blosc; Write's default is ZIP|ActiveMask
	// BloscCodec is the codec inside the Blosc frames when Compression has Blosc.
	// The zero value is LZ4, OpenVDB's own choice.
	BloscCodec blosc.Codec
	Creator    string // the file's "creator" metadata, unless Meta sets it
	// Threads is how many goroutines compress the leaf buffers; 0 means one. The
	// bytes written do not depend on it.
	Threads int
}

// DefaultOptions are what Write uses for nil Options: active-mask and zip
// compression, the smallest files OpenVDB readers accept.
var DefaultOptions = Options{Compression: ActiveMask | ZIP, Creator: "snowtools"}

// CodecNames are the names SetCodec takes, the values of the tools' -vdb-codec
// flag: zip (the default: the smallest files, the slowest to write and read),
// blosc-lz4 (what Houdini and OpenVDB write), blosc-lz, blosc-zlib, and none.
var CodecNames = []string{"zip", "blosc-lz4", "blosc-lz", "blosc-zlib", "none"}

// SetCodec sets o's compression to the one name calls for, with active-mask
// compression on in every case (without it, every internal node stores all its
// 4096 or 32768 values): "none" stores the active values uncompressed.
func (o *Options) SetCodec(name string) error {
	switch name {
	case "zip":
		o.Compression = ActiveMask | ZIP
	case "blosc-lz4", "blosc-lz", "blosc-zlib":
		o.Compression = ActiveMask | Blosc
		o.BloscCodec = map[string]blosc.Codec{"blosc-lz4": blosc.LZ4, "blosc-lz": blosc.BloscLZ, "blosc-zlib": blosc.Zlib}[name]
	case "none":
		o.Compression = ActiveMask
	default:
		return fmt.Errorf("unknown VDB codec %q: use one of %s", name, strings.Join(CodecNames, ", "))
	}
	return nil
}
