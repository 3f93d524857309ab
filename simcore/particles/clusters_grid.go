package particles

import (
	"fmt"
	"math"
	mathbits "math/bits"
)

// A linkGrid finds the particles closer than the link distance through a uniform grid of
// cell size link: such particles are in the same or neighbouring cells. Each cell is
// split into its 8 octants, cubes of side link/2 whose diagonal (0.87 link) is below the
// link distance, so the particles of an octant (a group) are all neighbours of each other.
//
// No dense array spans the particles' box: each particle gets a 64-bit key, its cell's
// coordinates packed with as many bits per axis as the box needs, then its octant, and
// the particles are sorted by key. Groups and cells are runs of equal keys. Keys are
// offset by one cell on every axis, so that adding a neighbour's offset never carries
// from one field into another: the key of the cell (x+dx, y+dy, z+dz) is the key of
// (x, y, z) plus a constant, and walking cells in key order walks each neighbour's key
// in order too.
type linkGrid struct {
	link2 float64   // link^2
	pos   []float32 // x y z per particle, in key order
	order []int32   // order[s]: the input index of the particle at sorted position s

	groups []linkGroup // in key order
	cells  []linkCell  // in key order
	zBits  int         // bits of the z field of a cell key
	yBits  int

	scratch [2][]int32 // for anyCloseFiltered
}

// A linkGroup is the particles of one octant: sorted positions start to end-1.
type linkGroup struct {
	key        uint64 // cell key << 3 | octant (x << 2 | y << 1 | z)
	start, end int32
}

// A linkCell is a run of groups: groups[first:last].
type linkCell struct {
	key         uint64
	first, last int32
}

// forwardNeighbours are the 13 neighbouring cells after a cell in key order (x, then y,
// then z); with the cell itself they give every pair of neighbouring cells once.
var forwardNeighbours = [13][3]int{
	{0, 0, 1},
	{0, 1, -1}, {0, 1, 0}, {0, 1, 1},
	{1, -1, -1}, {1, -1, 0}, {1, -1, 1},
	{1, 0, -1}, {1, 0, 0}, {1, 0, 1},
	{1, 1, -1}, {1, 1, 0}, {1, 1, 1},
}

// maxHalfCells bounds the box along an axis, in octant widths: far below the 2^63 of
// the conversion to uint64, and more than any real frame needs.
const maxHalfCells = 1 << 60

func newLinkGrid(pos []float32, link float64) (*linkGrid, error) {
	lo, hi, err := finiteBounds(pos)
	if err != nil {
		return nil, err
	}
	fieldBits, err := keyFields(lo, hi, link)
	if err != nil {
		return nil, err
	}
	g := &linkGrid{link2: link * link, yBits: fieldBits[1], zBits: fieldBits[2]}
	half := link / 2
	keys := make([]keyed, len(pos)/3)
	for i := range keys {
		var cell [3]uint64
		var octant uint64
		for a := range 3 {
			h := uint64((float64(pos[3*i+a]) - lo[a]) / half) // non-negative: a floor
			cell[a] = h>>1 + 1
			octant = octant<<1 | h&1
		}
		keys[i] = keyed{((cell[0]<<g.yBits|cell[1])<<g.zBits|cell[2])<<3 | octant, int32(i)}
	}
	g.index(sortKeyed(keys, fieldBits[0]+fieldBits[1]+fieldBits[2]+3), pos)
	return g, nil
}

// finiteBounds returns the box of the positions, or an error naming a particle whose
// position is not finite.
func finiteBounds(pos []float32) (lo, hi [3]float64, err error) {
	for a := range 3 {
		lo[a], hi[a] = math.Inf(1), math.Inf(-1)
	}
	for i := range len(pos) / 3 {
		for a := range 3 {
			v := float64(pos[3*i+a])
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return lo, hi, fmt.Errorf("clusters: particle %d: position (%g, %g, %g) is not finite", i, pos[3*i], pos[3*i+1], pos[3*i+2])
			}
			lo[a], hi[a] = min(lo[a], v), max(hi[a], v)
		}
	}
	return lo, hi, nil
}

// keyFields returns the bits of the x, y and z fields of a cell key for a box: enough
// for the cell coordinates 1 to cells and the neighbour beyond, and at most 61 in all
// (a key holds 3 more for the octant).
func keyFields(lo, hi [3]float64, link float64) (fieldBits [3]int, err error) {
	for a := range 3 {
		span := (hi[a] - lo[a]) / (link / 2)
		if !(span < maxHalfCells) {
			return fieldBits, fmt.Errorf("clusters: the particles span %g m along %c, %.3g link distances of %g m: too far apart for a grid (is a particle astray?)",
				hi[a]-lo[a], "xyz"[a], span/2, link)
		}
		cells := uint64(span)/2 + 1
		fieldBits[a] = mathbits.Len64(cells + 1)
	}
	if fieldBits[0]+fieldBits[1]+fieldBits[2]+3 > 64 {
		return fieldBits, fmt.Errorf("clusters: the particles' box (%g x %g x %g m) holds more than 2^61 cells of the link distance %g m (is a particle astray?)",
			hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2], link)
	}
	return fieldBits, nil
}

// index stores the particles in key order and finds the runs of equal keys: the groups,
// and the cells as runs of groups.
func (g *linkGrid) index(keys []keyed, pos []float32) {
	groups, cells := 0, 0
	for s, k := range keys {
		if s == 0 || k.key != keys[s-1].key {
			groups++
			if s == 0 || k.key>>3 != keys[s-1].key>>3 {
				cells++
			}
		}
	}
	g.pos = make([]float32, len(pos))
	g.order = make([]int32, len(keys))
	g.groups = make([]linkGroup, 0, groups)
	g.cells = make([]linkCell, 0, cells)
	for s, k := range keys {
		g.order[s] = k.index
		copy(g.pos[3*s:3*s+3], pos[3*k.index:3*k.index+3])
		if s == 0 || k.key != keys[s-1].key {
			if s == 0 || k.key>>3 != keys[s-1].key>>3 {
				g.cells = append(g.cells, linkCell{key: k.key >> 3, first: int32(len(g.groups))})
			}
			g.groups = append(g.groups, linkGroup{key: k.key, start: int32(s)})
		}
		g.groups[len(g.groups)-1].end = int32(s + 1)
		g.cells[len(g.cells)-1].last = int32(len(g.groups))
	}
}

// A keyed particle is a grid key and the particle's input index.
type keyed struct {
	key   uint64
	index int32
}

// sortKeyed sorts keys whose values fit in the low bits bits by key, keeping equal keys
// in input order, so that the order is a function of the input alone. It is a least
// significant digit radix sort: a few linear passes, several times faster than a
// comparison sort of a million keys.
func sortKeyed(keys []keyed, bits int) []keyed {
	const digitBits = 11
	const digits = 1 << digitBits
	tmp := make([]keyed, len(keys))
	for shift := 0; shift < bits; shift += digitBits {
		var start [digits + 1]int
		for _, k := range keys {
			start[k.key>>shift%digits+1]++
		}
		for d := 1; d <= digits; d++ {
			start[d] += start[d-1]
		}
		for _, k := range keys {
			d := k.key >> shift % digits
			tmp[start[d]] = k
			start[d]++
		}
		keys, tmp = tmp, keys
	}
	return keys
}
