package vdb

import (
	"slices"

	"snowtools/levelset"
)

// The internal nodes of an OpenVDB 5-4-3 tree, which only the file needs: a root
// table of upper nodes (32^3 slots of 128^3 voxels), each holding lower nodes (16^3
// slots of 8^3 voxels), each holding leaves. A slot holds a child or a tile value.
const (
	upperLog2  = levelset.Internal2Log2 // 12: an upper node covers 4096^3 voxels
	lowerLog2  = levelset.Internal1Log2 // 7: a lower node covers 128^3 voxels
	upperSlots = 1 << (3 * 5)
	lowerSlots = 1 << (3 * 4)
)

// upperSlot returns the slot of an upper node that holds voxel c:
// ((x & 4095) >> 7) << 10 | ((y & 4095) >> 7) << 5 | (z & 4095) >> 7.
func upperSlot(c levelset.Coord) int {
	return int(c[0]&4095>>7)<<10 | int(c[1]&4095>>7)<<5 | int(c[2]&4095>>7)
}

// lowerSlot returns the slot of a lower node that holds voxel c:
// ((x & 127) >> 3) << 8 | ((y & 127) >> 3) << 4 | (z & 127) >> 3.
func lowerSlot(c levelset.Coord) int {
	return int(c[0]&127>>3)<<8 | int(c[1]&127>>3)<<4 | int(c[2]&127>>3)
}

// upperSlotOrigin and lowerSlotOrigin invert upperSlot and lowerSlot for a node at origin.
func upperSlotOrigin(origin levelset.Coord, n int) levelset.Coord {
	return origin.Add(levelset.Coord{int32(n>>10) << 7, int32(n>>5&31) << 7, int32(n&31) << 7})
}

func lowerSlotOrigin(origin levelset.Coord, n int) levelset.Coord {
	return origin.Add(levelset.Coord{int32(n>>8) << 3, int32(n>>4&15) << 3, int32(n&15) << 3})
}

// lowerNode and upperNode gather the leaves and tiles of a grid by the internal
// node that holds them, for writing.
type lowerNode[T levelset.Value] struct {
	origin levelset.Coord
	leaves []*levelset.Leaf[T]
	tiles  []levelset.Tile[T] // leaf-sized
}

type upperNode[T levelset.Value] struct {
	origin levelset.Coord
	lower  []*lowerNode[T]
	tiles  []levelset.Tile[T] // lower-node-sized
}

// vdbTree is a grid arranged as the file stores it, every list in slot order.
type vdbTree[T levelset.Value] struct {
	upper     []*upperNode[T]    // in Coord order of their origins, like OpenVDB's root map
	rootTiles []levelset.Tile[T] // upper-node-sized
}

// arrange sorts a grid's leaves and tiles into internal nodes.
func arrange[T levelset.Value](g *levelset.Grid[T]) *vdbTree[T] {
	t := &vdbTree[T]{}
	uppers := map[levelset.Coord]*upperNode[T]{}
	lowers := map[levelset.Coord]*lowerNode[T]{}
	upperAt := func(c levelset.Coord) *upperNode[T] {
		o := c.AlignDown(upperLog2)
		u := uppers[o]
		if u == nil {
			u = &upperNode[T]{origin: o}
			uppers[o] = u
			t.upper = append(t.upper, u)
		}
		return u
	}
	lowerAt := func(c levelset.Coord) *lowerNode[T] {
		o := c.AlignDown(lowerLog2)
		l := lowers[o]
		if l == nil {
			l = &lowerNode[T]{origin: o}
			lowers[o] = l
			u := upperAt(o)
			u.lower = append(u.lower, l)
		}
		return l
	}
	// Leaves() and Tiles() come in Coord order, which is slot order within a node
	// (slots are x-major), so each node's lists come out sorted.
	for _, leaf := range g.Leaves() {
		l := lowerAt(leaf.Origin)
		l.leaves = append(l.leaves, leaf)
	}
	for _, tile := range g.Tiles() {
		switch tile.Log2 {
		case levelset.LeafLog2:
			l := lowerAt(tile.Origin)
			l.tiles = append(l.tiles, tile)
		case lowerLog2:
			u := upperAt(tile.Origin)
			u.tiles = append(u.tiles, tile)
		default:
			t.rootTiles = append(t.rootTiles, tile)
		}
	}
	byOrigin := func(o1, o2 levelset.Coord) int {
		if o1.Less(o2) {
			return -1
		} else if o2.Less(o1) {
			return 1
		}
		return 0
	}
	slices.SortFunc(t.upper, func(a, b *upperNode[T]) int { return byOrigin(a.origin, b.origin) })
	for _, u := range t.upper {
		slices.SortFunc(u.lower, func(a, b *lowerNode[T]) int { return byOrigin(a.origin, b.origin) })
	}
	return t
}

// leaves returns the tree's leaves in the order the file stores them.
func (t *vdbTree[T]) leaves() []*levelset.Leaf[T] {
	var all []*levelset.Leaf[T]
	for _, u := range t.upper {
		for _, l := range u.lower {
			all = append(all, l.leaves...)
		}
	}
	return all
}
