package levelset

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"snowtools/levelset/geom"
)

// Value is what a sparse grid stores: a scalar (a signed distance, a density) or a
// 3-vector (a velocity, a normal), in single precision as OpenVDB's FloatGrid and
// Vec3SGrid store them.
type Value interface{ float32 | Vec3f }

// Vec3f is a single-precision 3-vector, the value type of a vector grid.
type Vec3f [3]float32

// Vec3fOf rounds a to single precision.
func Vec3fOf(a geom.Vec3) Vec3f { return Vec3f{float32(a[0]), float32(a[1]), float32(a[2])} }

// Vec3 widens v to double precision.
func (v Vec3f) Vec3() geom.Vec3 { return geom.Vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

// Leaf is an 8x8x8 block of voxels, the only place where voxels differ one by one.
// Values[LeafOffset(c)] is voxel c's value and Active its active state.
type Leaf[T Value] struct {
	Origin Coord // a multiple of 8 in every component
	Values [LeafVoxels]T
	Active Mask512
}

// Tile is a cube of 2^Log2 voxels a side that holds one value and one active state:
// the constant regions of an OpenVDB tree, such as the inside of a level set.
type Tile[T Value] struct {
	Origin Coord // a multiple of 2^Log2
	Log2   uint8 // LeafLog2, Internal1Log2 or Internal2Log2
	Value  T
	Active bool
}

// Voxels returns the number of voxels the tile covers.
func (t Tile[T]) Voxels() int64 { return 1 << (3 * int64(t.Log2)) }

// Contains reports whether voxel c lies in the tile.
func (t Tile[T]) Contains(c Coord) bool { return c.AlignDown(uint(t.Log2)) == t.Origin }

// Transform maps voxel indices to world space: voxel (i, j, k) is centred at
// Origin + VoxelSize (i, j, k). These are the uniform scale(-translate) maps of OpenVDB.
type Transform struct {
	VoxelSize float64   // h, in metres
	Origin    geom.Vec3 // the centre of voxel (0, 0, 0)
}

// Validate reports a transform that cannot map voxels: h not finite and positive,
// or an origin that is not finite.
func (t Transform) Validate() error {
	if !(t.VoxelSize > 0) || math.IsInf(t.VoxelSize, 0) {
		return fmt.Errorf("voxel size %g: must be finite and positive", t.VoxelSize)
	}
	if !t.Origin.IsFinite() {
		return fmt.Errorf("origin %v: must be finite", t.Origin)
	}
	return nil
}

// IndexToWorld returns the centre of voxel c.
func (t Transform) IndexToWorld(c Coord) geom.Vec3 {
	return geom.Vec3{float64(c[0]), float64(c[1]), float64(c[2])}.Scale(t.VoxelSize).Add(t.Origin)
}

// WorldToIndex returns p in continuous index space, where voxel centres are integers.
func (t Transform) WorldToIndex(p geom.Vec3) geom.Vec3 { return p.Sub(t.Origin).Scale(1 / t.VoxelSize) }

// Grid is a sparse grid: the leaf and tile layers of an OpenVDB tree, without the
// internal nodes, which only the file format needs (formats/vdb builds them).
//
// A voxel's value comes from the leaf that holds it, else from the tile that holds it,
// else it is Background and inactive. Leaves and tiles never overlap. Memory follows
// the number of leaves: about 2.1 kB per float leaf, 6.2 kB per vector leaf.
//
// A Grid is not safe for concurrent writes; concurrent reads are fine.
type Grid[T Value] struct {
	Transform
	Background T

	leaves map[Coord]*Leaf[T] // by origin
	tiles  map[Coord]Tile[T]  // by origin
	sorted []*Leaf[T]         // the leaves in Coord order; nil when a leaf was added or removed
}

// FloatGrid holds scalars: signed distances (a level set) or densities (a fog volume).
type FloatGrid = Grid[float32]

// Vec3Grid holds 3-vectors: velocities or normals.
type Vec3Grid = Grid[Vec3f]

// NewGrid returns an empty grid: every voxel inactive with the background value.
func NewGrid[T Value](t Transform, background T) *Grid[T] {
	return &Grid[T]{Transform: t, Background: background,
		leaves: map[Coord]*Leaf[T]{}, tiles: map[Coord]Tile[T]{}}
}

// Get returns the value of voxel c.
func (g *Grid[T]) Get(c Coord) T {
	v, _ := g.Probe(c)
	return v
}

// IsActive reports whether voxel c is active.
func (g *Grid[T]) IsActive(c Coord) bool {
	_, on := g.Probe(c)
	return on
}

// Probe returns the value and active state of voxel c.
func (g *Grid[T]) Probe(c Coord) (T, bool) {
	if l := g.leaves[c.AlignDown(LeafLog2)]; l != nil {
		n := LeafOffset(c)
		return l.Values[n], l.Active.IsOn(n)
	}
	if t, ok := g.tileAt(c); ok {
		return t.Value, t.Active
	}
	return g.Background, false
}

// tileAt returns the tile that holds voxel c, if any. A tile whose origin is c
// rounded down to its own size holds c; smaller tiles cannot share that origin
// without overlapping it, so checking from the smallest size up is enough.
func (g *Grid[T]) tileAt(c Coord) (Tile[T], bool) {
	for _, log2 := range [...]uint{LeafLog2, Internal1Log2, Internal2Log2} {
		if t, ok := g.tiles[c.AlignDown(log2)]; ok && uint(t.Log2) >= log2 {
			return t, true
		}
	}
	return Tile[T]{}, false
}

// Set sets voxel c to v and makes it active.
func (g *Grid[T]) Set(c Coord, v T) { g.SetValue(c, v, true) }

// SetValue sets voxel c to v with the given active state.
func (g *Grid[T]) SetValue(c Coord, v T, active bool) {
	l := g.TouchLeaf(c)
	n := LeafOffset(c)
	l.Values[n] = v
	l.Active.Set(n, active)
}

// SetActive sets the active state of voxel c and keeps its value.
func (g *Grid[T]) SetActive(c Coord, active bool) {
	if v, on := g.Probe(c); on != active {
		g.SetValue(c, v, active)
	}
}

// ProbeLeaf returns the leaf that holds voxel c, or nil if there is none.
func (g *Grid[T]) ProbeLeaf(c Coord) *Leaf[T] { return g.leaves[c.AlignDown(LeafLog2)] }

// TouchLeaf returns the leaf that holds voxel c, creating it if there is none. A new
// leaf takes the value and active state its voxels had: those of the tile it replaces
// (a larger tile is split into smaller ones around it) or the inactive background.
func (g *Grid[T]) TouchLeaf(c Coord) *Leaf[T] {
	origin := c.AlignDown(LeafLog2)
	if l := g.leaves[origin]; l != nil {
		return l
	}
	l := &Leaf[T]{Origin: origin}
	fill, active := g.Background, false
	if t, ok := g.splitTileAround(origin); ok {
		fill, active = t.Value, t.Active
	}
	for n := range l.Values {
		l.Values[n] = fill
	}
	l.Active.SetAll(active)
	g.leaves[origin] = l
	g.sorted = nil
	return l
}

// splitTileAround removes the tile that holds the leaf at origin, if any, and puts
// back the rest of its region as tiles of the next smaller sizes, so that the leaf's
// own region ends up uncovered. It returns the removed tile.
func (g *Grid[T]) splitTileAround(origin Coord) (Tile[T], bool) {
	t, ok := g.tileAt(origin)
	if !ok {
		return t, false
	}
	delete(g.tiles, t.Origin)
	for outer := t; outer.Log2 > LeafLog2; {
		inner := uint8(LeafLog2)
		if outer.Log2 == Internal2Log2 {
			inner = Internal1Log2
		}
		keep := origin.AlignDown(uint(inner))
		side := int32(1) << (outer.Log2 - inner)
		step := int32(1) << inner
		for i := int32(0); i < side; i++ {
			for j := int32(0); j < side; j++ {
				for k := int32(0); k < side; k++ {
					o := outer.Origin.Add(Coord{i * step, j * step, k * step})
					if o != keep {
						g.tiles[o] = Tile[T]{Origin: o, Log2: inner, Value: t.Value, Active: t.Active}
					}
				}
			}
		}
		outer = Tile[T]{Origin: keep, Log2: inner}
	}
	return t, true
}

// AddLeaf inserts l, replacing whatever held its region. Readers use it to fill a grid.
func (g *Grid[T]) AddLeaf(l *Leaf[T]) {
	if l.Origin != l.Origin.AlignDown(LeafLog2) {
		panic(fmt.Sprintf("levelset: leaf origin %v is not a multiple of 8", l.Origin))
	}
	old := g.leaves[l.Origin]
	if old == nil {
		g.splitTileAround(l.Origin)
	}
	if old != l {
		g.sorted = nil // a replaced leaf must leave the sorted list too
	}
	g.leaves[l.Origin] = l
}

// AddTile inserts t into a region that holds no leaves and no smaller tiles, as
// readers do whose nodes are disjoint by construction. Unlike SetTile it does not
// visit the region to clear it, which for a lower-node-sized tile would cost 4096
// lookups; a larger tile around it is still split.
func (g *Grid[T]) AddTile(t Tile[T]) {
	g.checkTile(t)
	if outer, ok := g.tileAt(t.Origin); ok && outer.Log2 > t.Log2 {
		g.splitTileAround(t.Origin)
	}
	g.tiles[t.Origin] = t
}

// SetTile fills the region of t with its value and active state, dropping the leaves
// and smaller tiles inside it and splitting a larger tile around it.
func (g *Grid[T]) SetTile(t Tile[T]) {
	g.checkTile(t)
	if outer, ok := g.tileAt(t.Origin); ok && outer.Log2 > t.Log2 {
		g.splitTileAround(t.Origin)
		// splitTileAround leaves the leaf-sized hole at t.Origin uncovered, and tiles of
		// the sizes between; those inside t are removed below.
	}
	g.clearInside(t)
	g.tiles[t.Origin] = t
}

// checkTile panics on a tile of a size other than the three node sizes, or whose
// origin is not a multiple of its size: a programming error, not bad input.
func (g *Grid[T]) checkTile(t Tile[T]) {
	if t.Log2 != LeafLog2 && t.Log2 != Internal1Log2 && t.Log2 != Internal2Log2 {
		panic(fmt.Sprintf("levelset: tile size 2^%d is not a node size", t.Log2))
	}
	if t.Origin != t.Origin.AlignDown(uint(t.Log2)) {
		panic(fmt.Sprintf("levelset: tile origin %v is not a multiple of 2^%d", t.Origin, t.Log2))
	}
}

// clearInside removes the leaves and the tiles no larger than t inside t's region.
// It visits the leaf-sized cells of the region or the whole maps, whichever is fewer.
func (g *Grid[T]) clearInside(t Tile[T]) {
	drop := func(o Coord) {
		if _, ok := g.leaves[o]; ok {
			delete(g.leaves, o)
			g.sorted = nil
		}
		if old, ok := g.tiles[o]; ok && old.Log2 <= t.Log2 {
			delete(g.tiles, o)
		}
	}
	side := int32(1) << (t.Log2 - LeafLog2)
	if int64(side)*int64(side)*int64(side) <= int64(len(g.leaves)+len(g.tiles)) {
		for i := int32(0); i < side; i++ {
			for j := int32(0); j < side; j++ {
				for k := int32(0); k < side; k++ {
					drop(t.Origin.Add(Coord{i * LeafDim, j * LeafDim, k * LeafDim}))
				}
			}
		}
		return
	}
	for o := range g.leaves {
		if t.Contains(o) {
			drop(o)
		}
	}
	for o := range g.tiles {
		if t.Contains(o) {
			drop(o)
		}
	}
}

// Leaves returns the leaves in Coord order of their origins. The slice is shared
// with the grid until the next leaf is added: do not modify it.
func (g *Grid[T]) Leaves() []*Leaf[T] {
	if g.sorted == nil {
		g.sorted = make([]*Leaf[T], 0, len(g.leaves))
		for _, l := range g.leaves {
			g.sorted = append(g.sorted, l)
		}
		slices.SortFunc(g.sorted, func(a, b *Leaf[T]) int { return CompareCoords(a.Origin, b.Origin) })
	}
	return g.sorted
}

// Tiles returns the tiles in Coord order of their origins.
func (g *Grid[T]) Tiles() []Tile[T] {
	ts := make([]Tile[T], 0, len(g.tiles))
	for _, t := range g.tiles {
		ts = append(ts, t)
	}
	slices.SortFunc(ts, func(a, b Tile[T]) int { return CompareCoords(a.Origin, b.Origin) })
	return ts
}

func CompareCoords(a, b Coord) int {
	switch {
	case a.Less(b):
		return -1
	case b.Less(a):
		return 1
	}
	return 0
}

// LeafCount returns the number of leaves.
func (g *Grid[T]) LeafCount() int { return len(g.leaves) }

// ActiveVoxelCount returns the number of active voxels, in leaves and tiles.
func (g *Grid[T]) ActiveVoxelCount() int64 {
	var n int64
	for _, l := range g.leaves {
		n += int64(l.Active.Count())
	}
	for _, t := range g.tiles {
		if t.Active {
			n += t.Voxels()
		}
	}
	return n
}

// ForEachActive calls fn with every active voxel and its value, in a fixed order:
// the leaves in Coord order, each in LeafOffset order, then the voxels of the active
// tiles in Coord order of the tiles.
func (g *Grid[T]) ForEachActive(fn func(c Coord, v T)) {
	for _, l := range g.Leaves() {
		l.Active.ForEachOn(func(n int) { fn(LeafCoord(l.Origin, n), l.Values[n]) })
	}
	for _, t := range g.Tiles() {
		if !t.Active {
			continue
		}
		side := int32(1) << t.Log2
		for i := int32(0); i < side; i++ {
			for j := int32(0); j < side; j++ {
				for k := int32(0); k < side; k++ {
					fn(t.Origin.Add(Coord{i, j, k}), t.Value)
				}
			}
		}
	}
}

// ActiveBounds returns the smallest index box [lo, hi] that holds every active voxel;
// ok is false when there is none.
func (g *Grid[T]) ActiveBounds() (lo, hi Coord, ok bool) {
	grow := func(a, b Coord) {
		if !ok {
			lo, hi, ok = a, b, true
			return
		}
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], a[k]), max(hi[k], b[k])
		}
	}
	for _, l := range g.leaves {
		if a, b, on := l.Active.Bounds(); on {
			grow(l.Origin.Add(a), l.Origin.Add(b))
		}
	}
	for _, t := range g.tiles {
		if t.Active {
			side := int32(1)<<t.Log2 - 1
			grow(t.Origin, t.Origin.Add(Coord{side, side, side}))
		}
	}
	return lo, hi, ok
}

// MemoryBytes estimates the heap the grid holds: leaves, tiles and map overhead.
func (g *Grid[T]) MemoryBytes() int64 {
	// A map entry: key, pointer or value slot and bucket overhead, roughly.
	const mapEntry = 48
	leafBytes := int64(unsafe.Sizeof(Leaf[T]{})) + mapEntry + 8 // + 8: the sorted slice
	tileBytes := int64(unsafe.Sizeof(Tile[T]{})) + mapEntry
	return int64(len(g.leaves))*leafBytes + int64(len(g.tiles))*tileBytes
}

// WorldBounds returns the world box of every leaf and tile of g, one voxel wider on
// each side; ok is false for an empty grid.
func (g *Grid[T]) WorldBounds() (b geom.Box, ok bool) {
	grow := func(lo Coord, side int32) {
		lw := g.IndexToWorld(lo)
		hw := g.IndexToWorld(lo.Add(Coord{side - 1, side - 1, side - 1}))
		if !ok {
			b, ok = geom.Box{Min: lw, Max: hw}, true
			return
		}
		b = b.Union(geom.Box{Min: lw, Max: hw})
	}
	for _, l := range g.leaves {
		grow(l.Origin, 1<<LeafLog2)
	}
	for _, t := range g.tiles {
		grow(t.Origin, 1<<t.Log2)
	}
	if !ok {
		return geom.Box{}, false
	}
	return b.Expand(g.VoxelSize), true
}
