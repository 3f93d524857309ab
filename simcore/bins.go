package simcore

// Particles are grouped by the node block that holds their stencil's first node. The
// stencils of one group then reach only the 2x2x2 node blocks starting there (the group's
// window), so a worker can scatter a whole group into a small dense buffer. Groups whose
// block coordinates have the same parities (one of 8 colours) have disjoint windows, so a
// colour's groups can be scattered in parallel without atomics, and every node receives
// its sums in the same order whatever the thread count.

// particleBlock is one group of particles.
type particleBlock struct {
	coord      [3]int   // node block of the stencils' first nodes
	start, end int32    // the group is bins.order[start:end]
	window     [8]int32 // node block indices of the window, at ((dx*2)+dy)*2+dz
}

// particleBins is the grouping for the current step.
type particleBins struct {
	order  []int32 // particle indices, grouped by block
	group  []int32 // each particle's group, by particle index (scratch for the sort)
	blocks []particleBlock
	index  map[uint64]int32
	colors [8][]int32 // particle blocks by colour
}

// reorderInterval is how often (in steps) particles are physically sorted by block, so
// that a group's particles are close in memory; in between, order keeps them grouped.
const reorderInterval = 20

// binParticles groups the particles by block, sorting them in memory now and then,
// and creates the node blocks of every awake group's window (the sparse grid of this
// step).
func (s *Sim) binParticles() {
	n := s.P.Len()
	b := &s.bins
	if cap(b.order) < n {
		b.order = make([]int32, n)
		b.group = make([]int32, n)
	}
	b.order, b.group = b.order[:n], b.group[:n]
	s.groupParticles()
	b.place(s.P, s.Steps%reorderInterval == 0)
	s.partitionSleeping() // the groups at rest sit this step out (sleep.go)
	s.createWindows()
	s.pinSleepingNodes() // and hold still the nodes they share with awake snow
}

// groupParticles finds every particle's group, creating the groups in order of first
// appearance, and counts the groups' particles (in end, for place).
func (s *Sim) groupParticles() {
	p := s.P
	b := &s.bins
	if b.index == nil {
		b.index = make(map[uint64]int32)
	}
	clear(b.index)
	b.blocks = b.blocks[:0]
	// Particles are mostly sorted, so consecutive ones usually share a block and skip
	// the map. The groups are remembered for the placing pass: finding one costs more
	// than storing it.
	lastKey, lastID := ^uint64(0), int32(-1)
	for i := range b.group {
		c := blockOf(stencilBase(p.X[i], s.invH))
		if key := blockKey(c); key != lastKey {
			id, ok := b.index[key]
			if !ok {
				id = int32(len(b.blocks))
				b.index[key] = id
				b.blocks = append(b.blocks, particleBlock{coord: c})
			}
			lastKey, lastID = key, id
		}
		b.group[i] = lastID
		b.blocks[lastID].end++
	}
}

// place is a counting sort of the particles by group, groups in order of first
// appearance: deterministic. With reorder it moves the particles in memory (p.permute),
// which leaves order the identity; otherwise only order is sorted.
func (b *particleBins) place(p *Particles, reorder bool) {
	var start int32
	for k := range b.blocks {
		count := b.blocks[k].end
		b.blocks[k].start, b.blocks[k].end = start, start
		start += count
	}
	if reorder {
		// order[i] becomes i's destination, then particles move there.
		for i, id := range b.group {
			g := &b.blocks[id]
			b.order[i] = g.end
			g.end++
		}
		p.permute(b.order)
		return
	}
	for i, id := range b.group {
		g := &b.blocks[id]
		b.order[g.end] = int32(i)
		g.end++
	}
}

// createWindows creates the sparse grid of this step, every group's window, and sorts
// the groups by colour.
func (s *Sim) createWindows() {
	b := &s.bins
	s.grid.reset()
	for c := range b.colors {
		b.colors[c] = b.colors[c][:0]
	}
	for k := range b.blocks {
		g := &b.blocks[k]
		for d := 0; d < 8; d++ {
			g.window[d] = s.grid.block(windowBlock(g.coord, d))
		}
		color := (g.coord[0]&1)<<2 | (g.coord[1]&1)<<1 | g.coord[2]&1
		b.colors[color] = append(b.colors[color], int32(k))
	}
	s.grid.allocate(s.threads)
}
