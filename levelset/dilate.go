package levelset

// Dilation of the active set by face neighbours, OpenVDB's dilateActiveValues with
// NN_FACE: one iteration turns the active set A into
//
//	A' = A + { c + e : c in A, e = +-x, +-y, +-z (unit steps) }.
//
// Only active states change: a voxel that becomes active keeps the value it had,
// its leaf's, its tile's or the background.
//
// The work is done a leaf at a time on the 512-bit active masks. Bit n of a mask is
// voxel LeafOffset n = x<<6 | y<<3 | z, so word x of a Mask512 is the 8x8 slice at
// that x, with y<<3 | z as the bit: a step along z is a shift by 1 (masking the
// bits that would wrap into the next row), along y a shift by 8, and along x the
// next word. What leaves a leaf through a face is moved to the facing layer of the
// neighbouring leaf the same way.

// zLow marks the bits of a mask word with z = 0, zHigh those with z = 7.
const (
	zLow  uint64 = 0x0101010101010101
	zHigh uint64 = zLow << 7
)

// The six face directions, in the order spill takes them.
var faceSteps = [6]Coord{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}

// DilateMask returns m with the face neighbours of its voxels that lie in the same
// leaf.
func DilateMask(m *Mask512) Mask512 {
	var d Mask512
	for x, w := range m {
		v := w | w<<8 | w>>8 | (w<<1)&^zLow | (w>>1)&^zHigh
		if x > 0 {
			v |= m[x-1]
		}
		if x < len(m)-1 {
			v |= m[x+1]
		}
		d[x] = v
	}
	return d
}

// spill returns the voxels of the neighbouring leaf across face dir (an index into
// faceSteps) that are face neighbours of voxels of m: m's boundary layer on that
// face, moved to the opposite layer.
func spill(m *Mask512, dir int) Mask512 {
	var s Mask512
	switch dir {
	case 0: // x = 7 -> x = 0
		s[0] = m[7]
	case 1: // x = 0 -> x = 7
		s[7] = m[0]
	default:
		for x, w := range m {
			switch dir {
			case 2: // y = 7 -> y = 0
				s[x] = w >> 56
			case 3: // y = 0 -> y = 7
				s[x] = w << 56
			case 4: // z = 7 -> z = 0
				s[x] = (w & zHigh) >> 7
			case 5: // z = 0 -> z = 7
				s[x] = (w & zLow) << 7
			}
		}
	}
	return s
}

// union sets m to m | o and reports whether m changed.
func (m *Mask512) union(o *Mask512) bool {
	changed := false
	for i, w := range o {
		if w&^m[i] != 0 {
			m[i] |= w
			changed = true
		}
	}
	return changed
}

// Dilate grows the active set by its face neighbours, iterations times (see the
// top of this file). Active tiles count as active voxels, so the voxels next to an
// active tile become active too; the tile itself stays a tile. A new active voxel
// in an inactive tile splits the tile (see TouchLeaf). The result does not depend
// on the order leaves are visited in: an iteration only adds voxels, each for a
// reason found in the masks as they were at its start.
//
// Cost: an iteration visits the leaves whose mask changed in the one before (all
// leaves in the first), and the first also the leaf-sized regions along the faces
// of active tiles; a 4096-voxel tile has 6 x 512^2 of them, each of which becomes a
// leaf.
func (g *Grid[T]) Dilate(iterations int) {
	if iterations <= 0 {
		return
	}
	// A leaf's contribution to the next iteration depends only on its own mask, and
	// is already in the grid if that mask did not change: so each iteration need
	// only visit the leaves that changed in the one before (its front).
	//
	// The order leaves are visited in does not matter (the result is a union), so
	// the first front is taken from the map rather than from the sorted Leaves.
	front := make([]*Leaf[T], 0, len(g.leaves))
	for _, l := range g.leaves {
		front = append(front, l)
	}
	for it := range iterations {
		var next []*Leaf[T]
		inNext := map[*Leaf[T]]bool{}
		grow := func(l *Leaf[T], m *Mask512) {
			if l.Active.union(m) && !inNext[l] {
				inNext[l] = true
				next = append(next, l)
			}
		}
		// Dilate from the masks as they were at the start of the iteration, not as
		// the neighbours' spills have already grown them.
		old := make([]Mask512, len(front))
		for i, l := range front {
			old[i] = l.Active
		}
		for i, l := range front {
			m := &old[i]
			d := DilateMask(m)
			grow(l, &d)
			for dir, step := range faceSteps {
				if s := spill(m, dir); !s.IsEmpty() {
					g.activateIn(l.Origin.Add(step.scale(LeafDim)), &s, grow)
				}
			}
		}
		if it == 0 { // active tiles never change, so their neighbours are done once
			g.dilateTiles(grow)
		}
		if len(next) == 0 {
			return
		}
		front = next
	}
}

// dilateTiles activates the voxels next to the faces of the active tiles.
func (g *Grid[T]) dilateTiles(grow func(*Leaf[T], *Mask512)) {
	var full Mask512
	full.SetAll(true)
	var faces [6]Mask512 // faces[dir]: the layer of a leaf that touches a full leaf across dir
	for dir := range faceSteps {
		faces[dir] = spill(&full, dir)
	}
	for _, t := range g.Tiles() {
		if !t.Active {
			continue
		}
		side := int32(1) << t.Log2
		for dir, step := range faceSteps {
			a := dir / 2             // the axis across the face
			u, v := (a+1)%3, (a+2)%3 // the axes along it
			o := t.Origin
			if step[a] > 0 {
				o[a] += side
			} else {
				o[a] -= LeafDim
			}
			for i := int32(0); i < side; i += LeafDim {
				for j := int32(0); j < side; j += LeafDim {
					c := o
					c[u] += i
					c[v] += j
					g.activateIn(c, &faces[dir], grow)
				}
			}
		}
	}
}

// activateIn activates the voxels of m in the leaf-sized region at origin, creating
// its leaf if needed, and passes the leaf to grow. A region inside an active tile is
// active already and is left alone.
func (g *Grid[T]) activateIn(origin Coord, m *Mask512, grow func(*Leaf[T], *Mask512)) {
	l := g.leaves[origin]
	if l == nil {
		if t, ok := g.tileAt(origin); ok && t.Active {
			return
		}
		l = g.TouchLeaf(origin)
	}
	grow(l, m)
}

// scale returns s c.
func (c Coord) scale(s int32) Coord { return Coord{s * c[0], s * c[1], s * c[2]} }
