package levelset

// Coord is the integer index (i, j, k) of a voxel in a sparse grid. Voxel (i, j, k)
// is centred at the grid's origin + h (i, j, k), as in OpenVDB.
type Coord [3]int32

// The leaf layer of an OpenVDB 5-4-3 tree: blocks of 8x8x8 voxels. Tiles, regions of
// one constant value, come in the three sizes of that tree: a leaf (2^3 voxels a side),
// an internal node's child (2^7) and a root child (2^12).
const (
	LeafLog2   = 3
	LeafDim    = 1 << LeafLog2
	LeafVoxels = LeafDim * LeafDim * LeafDim

	Internal1Log2 = LeafLog2 + 4      // 128 voxels a side: what a lower internal node covers
	Internal2Log2 = Internal1Log2 + 5 // 4096 voxels a side: what an upper internal node covers
)

// Add returns c + d.
func (c Coord) Add(d Coord) Coord { return Coord{c[0] + d[0], c[1] + d[1], c[2] + d[2]} }

// Less orders coordinates by x, then y, then z: the order OpenVDB keeps its root
// table in, and the order grids iterate in.
func (c Coord) Less(d Coord) bool {
	if c[0] != d[0] {
		return c[0] < d[0]
	}
	if c[1] != d[1] {
		return c[1] < d[1]
	}
	return c[2] < d[2]
}

// AlignDown returns c with each component rounded down to a multiple of 2^log2
// (towards minus infinity, so -1 goes to -8 for log2 = 3): the origin of the node or
// tile of that size that holds c.
func (c Coord) AlignDown(log2 uint) Coord {
	m := ^int32(1<<log2 - 1)
	return Coord{c[0] & m, c[1] & m, c[2] & m}
}

// LeafOffset returns the index of voxel c inside its leaf: x-major, z fastest,
// (x&7)<<6 | (y&7)<<3 | (z&7), the layout OpenVDB stores leaf values in.
func LeafOffset(c Coord) int {
	return int(c[0]&7)<<6 | int(c[1]&7)<<3 | int(c[2]&7)
}

// LeafCoord returns the voxel at offset n of the leaf with the given origin: the
// inverse of LeafOffset.
func LeafCoord(origin Coord, n int) Coord {
	return Coord{origin[0] + int32(n>>6), origin[1] + int32(n>>3&7), origin[2] + int32(n&7)}
}
