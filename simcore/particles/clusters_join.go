package particles

import "math"

// join unites every two particles closer than the link distance: each group with
// itself, then the groups of each cell with those of the same cell and of its 13
// forward neighbours. A pointer per neighbour offset walks the cells in key order
// alongside the cell being joined, so finding the neighbours costs no lookups.
func (g *linkGrid) join(u *unionFind) {
	for _, gr := range g.groups {
		u.joinRun(gr.start, gr.end)
	}
	var deltas [len(forwardNeighbours)]uint64 // key differences, two's complement
	for k, d := range forwardNeighbours {
		deltas[k] = uint64((int64(d[0])<<g.yBits+int64(d[1]))<<g.zBits + int64(d[2]))
	}
	var next [len(forwardNeighbours)]int
	for _, c := range g.cells {
		g.joinCells(u, c, c, &nearOctants[0])
		for k := range forwardNeighbours {
			target := c.key + deltas[k]
			for next[k] < len(g.cells) && g.cells[next[k]].key < target {
				next[k]++
			}
			if next[k] < len(g.cells) && g.cells[next[k]].key == target {
				g.joinCells(u, c, g.cells[next[k]], &nearOctants[k+1])
			}
		}
	}
}

// joinCells joins the groups of cell a with those of cell b (b == a: each pair of
// groups once); near[oa] holds a bit for each octant of b that octant oa of a can reach.
//
// The groups' roots are looked up once per call rather than once per pair of groups.
// A remembered root may since have joined another set, but sets only grow: equal roots
// still mean one set, and unequal ones are looked up again before a union.
func (g *linkGrid) joinCells(u *unionFind, a, b linkCell, near *[8]uint8) {
	ga, gb := g.groups[a.first:a.last], g.groups[b.first:b.last]
	var rootsA, rootsB [8]int32 // a cell has at most 8 groups, one per octant
	for i, gr := range ga {
		rootsA[i] = u.find(gr.start)
	}
	ra, rb := &rootsA, &rootsB
	same := a.key == b.key
	if same {
		rb = ra
	} else {
		for j, gr := range gb {
			rootsB[j] = u.find(gr.start)
		}
	}
	for i := range ga {
		reach := near[ga[i].key&7]
		j := 0
		if same {
			j = i + 1
		}
		for ; j < len(gb); j++ {
			if reach>>(gb[j].key&7)&1 == 0 || ra[i] == rb[j] || !g.anyClose(ga[i], gb[j]) {
				continue
			}
			r := u.union(u.find(ra[i]), u.find(rb[j]))
			ra[i], rb[j] = r, r
		}
	}
}

// nearOctants[k][oa] has bit ob set when octant ob of the neighbour cell at offset k
// (0: the cell itself, then forwardNeighbours) may hold a particle closer than the link
// distance to one in octant oa: unless the two cubes of side link/2 are 3 half cells
// apart on some axis, which puts a gap of a whole link between them.
var nearOctants = func() (near [1 + len(forwardNeighbours)][8]uint8) {
	offsets := append([][3]int{{0, 0, 0}}, forwardNeighbours[:]...)
	for k, d := range offsets {
		for oa := range 8 {
			for ob := range 8 {
				gap2 := 0
				for a := range 3 {
					shift := 2 - a
					delta := 2*d[a] + ob>>shift&1 - oa>>shift&1
					if gap := max(delta, -delta) - 1; gap > 0 {
						gap2 += gap * gap // in half cells
					}
				}
				if gap2 < 4 {
					near[k][oa] |= 1 << ob
				}
			}
		}
	}
	return near
}()

// anyClose reports whether some particle of a is closer than the link distance to
// some particle of b.
func (g *linkGrid) anyClose(a, b linkGroup) bool {
	const manyPairs = 256
	if int64(a.end-a.start)*int64(b.end-b.start) > manyPairs {
		return g.anyCloseFiltered(a, b)
	}
	for i := a.start; i < a.end; i++ {
		for j := b.start; j < b.end; j++ {
			if g.dist2(i, j) < g.link2 {
				return true
			}
		}
	}
	return false
}

// anyCloseFiltered is anyClose for big groups: only the particles of each group closer
// than the link distance to the other group's box can be close to it. For two dense
// piles a little more than a link apart that leaves none, where testing every pair
// would take the product of their sizes. The filtering is linear in the groups' sizes,
// and a group meets at most 27 x 8 others, so it stays linear overall.
func (g *linkGrid) anyCloseFiltered(a, b linkGroup) bool {
	nearA := g.nearBox(a, g.box(b), g.scratch[0][:0])
	nearB := g.nearBox(b, g.box(a), g.scratch[1][:0])
	g.scratch = [2][]int32{nearA, nearB} // keep the grown buffers
	for _, i := range nearA {
		for _, j := range nearB {
			if g.dist2(i, j) < g.link2 {
				return true
			}
		}
	}
	return false
}

// box returns the bounds of a group's particles.
func (g *linkGrid) box(gr linkGroup) (box [2][3]float64) {
	box[0] = [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	box[1] = [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for i := gr.start; i < gr.end; i++ {
		for a := range 3 {
			v := float64(g.pos[3*i+int32(a)])
			box[0][a], box[1][a] = min(box[0][a], v), max(box[1][a], v)
		}
	}
	return box
}

// nearBox appends to near the particles of gr closer than the link distance to box.
func (g *linkGrid) nearBox(gr linkGroup, box [2][3]float64, near []int32) []int32 {
	for i := gr.start; i < gr.end; i++ {
		d2 := 0.0
		for a := range 3 {
			v := float64(g.pos[3*i+int32(a)])
			if d := max(box[0][a]-v, v-box[1][a], 0); d > 0 {
				d2 += d * d
			}
		}
		if d2 < g.link2 {
			near = append(near, i)
		}
	}
	return near
}

// dist2 is the squared distance of particles i and j.
func (g *linkGrid) dist2(i, j int32) float64 {
	dx := float64(g.pos[3*i]) - float64(g.pos[3*j])
	dy := float64(g.pos[3*i+1]) - float64(g.pos[3*j+1])
	dz := float64(g.pos[3*i+2]) - float64(g.pos[3*j+2])
	return dx*dx + dy*dy + dz*dz
}

// labels numbers the sets of u, over sorted positions, as clusters of the input
// particles, in the order of each cluster's first particle.
func (g *linkGrid) labels(u *unionFind) ([]int32, int) {
	n := len(g.order)
	sorted := make([]int32, n) // the sorted position of each input particle
	for s, i := range g.order {
		sorted[i] = int32(s)
	}
	label := make([]int32, n) // by root; -1 until numbered
	for i := range label {
		label[i] = -1
	}
	labels := make([]int32, n)
	count := int32(0)
	for i := range n {
		r := u.find(sorted[i])
		if label[r] < 0 {
			label[r] = count
			count++
		}
		labels[i] = label[r]
	}
	return labels, int(count)
}

// A unionFind is a disjoint-set forest with union by size and path halving.
type unionFind struct {
	parent, size []int32
}

func newUnionFind(n int) *unionFind {
	u := &unionFind{parent: make([]int32, n), size: make([]int32, n)}
	for i := range u.parent {
		u.parent[i], u.size[i] = int32(i), 1
	}
	return u
}

// joinRun makes the singletons start to end-1 one set rooted at start.
func (u *unionFind) joinRun(start, end int32) {
	for i := start + 1; i < end; i++ {
		u.parent[i] = start
	}
	u.size[start] = end - start
}

func (u *unionFind) find(i int32) int32 {
	for u.parent[i] != i {
		u.parent[i] = u.parent[u.parent[i]]
		i = u.parent[i]
	}
	return i
}

// union merges the sets of roots a and b and returns the root of the union.
func (u *unionFind) union(a, b int32) int32 {
	if a == b {
		return a
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = a
	u.size[a] += u.size[b]
	return a
}
