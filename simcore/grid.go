package simcore

import (
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// The sparse grid: only blocks of 4x4x4 nodes that some particle's kernel reaches exist,
// so memory and time follow the number of particles, not the size of the domain.
// Node (i, j, k) sits at (i h, j h, k h); its block is (i>>2, j>>2, k>>2).

const (
	blockShift  = 2
	blockWidth  = 1 << blockShift // nodes per block edge
	blockNodes  = blockWidth * blockWidth * blockWidth
	windowWidth = 2 * blockWidth // a particle block's stencils reach 2x2x2 node blocks
	windowNodes = windowWidth * windowWidth * windowWidth
)

// node is what rasterization (stages 1 and 3) accumulates at one grid node: the mass
// m_i, the momentum sum_p m_p w_ip v_p and the force f_i. It is padded to 64 bytes so
// that the AVX2 scatter (transfer_avx2_amd64.s) adds the force as one vector of four
// lanes, the fourth landing in the pad; that costs 8 bytes per node, under 1% of the
// solver's memory.
type node struct {
	mass     float64
	momentum geom.Vec3
	force    geom.Vec3
	_        float64
}

// nodeVelocity is what the grid update (stages 4-6) leaves at one grid node for the
// transfer back to the particles (stages 7 and 8).
type nodeVelocity struct {
	v  geom.Vec3 // v_i^{n+1}
	dv geom.Vec3 // v_i^{n+1} - v_i^n, the change that the FLIP part adds
}

// nodeBlock is a block of nodes; node (a, b, c) of the block is at (a*4 + b)*4 + c.
type nodeBlock [blockNodes]node

// velocityBlock is the velocities of a nodeBlock's nodes, in the same order.
type velocityBlock [blockNodes]nodeVelocity

// blockKey packs a block coordinate into a map key (21 bits per axis, offset to be
// non-negative): a domain may reach 2^20 blocks = 4 million nodes from the origin per axis.
func blockKey(c [3]int) uint64 {
	const off = 1 << 20
	return uint64(c[0]+off)<<42 | uint64(c[1]+off)<<21 | uint64(c[2]+off)
}

// sparseGrid holds the node blocks that exist in the current step.
type sparseGrid struct {
	index      map[uint64]int32 // block key -> position in blocks
	coords     [][3]int         // block coordinate of each block
	blocks     []nodeBlock      // rasterized by stages 1 and 3
	velocities []velocityBlock  // written by stages 4-6, for every node of every block
}

// reset forgets every block but keeps the memory for the next step.
func (g *sparseGrid) reset() {
	if g.index == nil {
		g.index = make(map[uint64]int32)
	}
	clear(g.index)
	g.coords = g.coords[:0]
}

// block returns the index of the block at coordinate c, adding it if needed. Its
// nodes exist once allocate has run.
func (g *sparseGrid) block(c [3]int) int32 {
	key := blockKey(c)
	if b, ok := g.index[key]; ok {
		return b
	}
	b := int32(len(g.coords))
	g.index[key] = b
	g.coords = append(g.coords, c)
	return b
}

// allocate gives every added block zeroed nodes, and room for their velocities, which
// the grid update overwrites. The storage grows by an eighth at a time (resizeScratch), not by
// append's doubling, because the grid is a good part of the solver's memory.
func (g *sparseGrid) allocate(workers int) {
	n := len(g.coords)
	g.velocities = resizeScratch(g.velocities, n)
	g.blocks = resizeScratch(g.blocks, n)
	parallel.For(workers, n, func(_, b int) { g.blocks[b] = nodeBlock{} })
}

// nodePosition returns the position of node (a, b, c) of the block at coordinate c.
func nodePosition(block [3]int, a, b, c int, h float64) geom.Vec3 {
	return geom.Vec3{
		float64(block[0]<<blockShift+a) * h,
		float64(block[1]<<blockShift+b) * h,
		float64(block[2]<<blockShift+c) * h,
	}
}

// blockOf returns the block containing node n.
func blockOf(n [3]int) [3]int {
	return [3]int{n[0] >> blockShift, n[1] >> blockShift, n[2] >> blockShift}
}
