package levelset

// Accessor reads a grid through a one-entry cache, like OpenVDB's ValueAccessor: it
// remembers the leaf-sized region (8x8x8 voxels) of the last lookup, either its leaf
// or, when it has none, the single value and active state the whole region has (those
// of the tile that covers it, or the inactive background). Lookups that stay in that
// region, as neighbouring lookups mostly do, cost no map access.
//
// An Accessor is for a grid that does not change while it is used: adding, replacing
// or dropping a leaf or a tile leaves the cache stale. (Changing a cached leaf's
// values in place is seen, since the cache holds the leaf itself.) It is not safe for
// concurrent use: each goroutine needs its own, which is cheap to make.
type Accessor[T Value] struct {
	grid   *Grid[T]
	origin Coord    // the cached region: a multiple of 8, or notAnOrigin
	leaf   *Leaf[T] // its leaf, or nil if it has none
	value  T        // without a leaf: the value of every voxel of the region
	active bool     // and their active state
}

// notAnOrigin is not a multiple of 8, so no lookup matches it: a fresh accessor
// misses on its first lookup without a separate "empty" flag on the fast path.
var notAnOrigin = Coord{1, 1, 1}

// Accessor returns a new accessor reading g.
func (g *Grid[T]) Accessor() *Accessor[T] { return &Accessor[T]{grid: g, origin: notAnOrigin} }

// Grid returns the grid the accessor reads.
func (a *Accessor[T]) Grid() *Grid[T] { return a.grid }

// Get returns the value of voxel c, as Grid.Get.
func (a *Accessor[T]) Get(c Coord) T {
	v, _ := a.Probe(c)
	return v
}

// IsActive reports whether voxel c is active, as Grid.IsActive.
func (a *Accessor[T]) IsActive(c Coord) bool {
	_, on := a.Probe(c)
	return on
}

// Probe returns the value and active state of voxel c, as Grid.Probe.
func (a *Accessor[T]) Probe(c Coord) (T, bool) {
	a.load(c.AlignDown(LeafLog2))
	if a.leaf != nil {
		n := LeafOffset(c)
		return a.leaf.Values[n], a.leaf.Active.IsOn(n)
	}
	return a.value, a.active
}

// ProbeLeaf returns the leaf that holds voxel c, or nil if there is none, as
// Grid.ProbeLeaf.
func (a *Accessor[T]) ProbeLeaf(c Coord) *Leaf[T] {
	a.load(c.AlignDown(LeafLog2))
	return a.leaf
}

// load makes the region with the given origin the cached one. The check is kept
// small so that it inlines; the map lookups are in fill.
func (a *Accessor[T]) load(origin Coord) {
	if origin != a.origin {
		a.fill(origin)
	}
}

func (a *Accessor[T]) fill(origin Coord) {
	a.origin = origin
	a.leaf = a.grid.leaves[origin]
	if a.leaf != nil {
		return
	}
	// Tiles are at least a leaf in size and aligned to their size, so one tile (or
	// none) covers the whole region. (A grid without tiles, such as a plain narrow
	// band, skips the three map lookups of tileAt.)
	a.value, a.active = a.grid.Background, false
	if len(a.grid.tiles) > 0 {
		if t, ok := a.grid.tileAt(origin); ok {
			a.value, a.active = t.Value, t.Active
		}
	}
}
