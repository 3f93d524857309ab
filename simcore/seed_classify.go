package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// classifyBlock is the side, in cells, of the top-level blocks that classify hands
// to the workers.
const classifyBlock = 16

// classify sets f.class for every cell of the seeding box. A block of cells with
// centre c and half-diagonal R (the largest distance from c to a point of the
// block) is decided by one Distance call: with |phi(x) - phi(c)| <= L |x - c|,
//
//	phi(c) >  L R (1 + eps)          => every point has phi > 0: cellOut,
//	phi(c) < -(L R (1 + eps) + T)    => every point has phi < -T: cellDeep,
//
// where T is the shell thickness and eps = 1e-7 absorbs rounding. Undecided blocks
// split in two along every axis longer than one cell; an undecided single cell is
// cellMixed. The cost is one call per top-level block plus a few per block that the
// surface (or the shell) crosses, instead of one per point. With L = +Inf nothing
// can be decided and every cell is cellMixed.
func (f *filler) classify() {
	f.class = make([]uint8, f.cells())
	if math.IsInf(f.lip, 1) || math.IsNaN(f.lip) {
		for i := range f.class {
			f.class[i] = cellMixed
		}
		return
	}
	f.phiC = make([]float32, f.cells())
	var nb [3]int
	for a := range 3 {
		nb[a] = (f.n[a] + classifyBlock - 1) / classifyBlock
	}
	parallel.For(f.workers, nb[0]*nb[1]*nb[2], func(_, b int) {
		bi, bj, bk := b/(nb[1]*nb[2]), b/nb[2]%nb[1], b%nb[2]
		lo := [3]int{bi * classifyBlock, bj * classifyBlock, bk * classifyBlock}
		hi := [3]int{min(lo[0]+classifyBlock, f.n[0]), min(lo[1]+classifyBlock, f.n[1]), min(lo[2]+classifyBlock, f.n[2])}
		f.classifyRange(lo, hi)
	})
}

// classifyRange classifies the cells lo <= (i, j, k) < hi (relative indices). The
// blocks of different calls do not overlap, so they write disjoint cells.
func (f *filler) classifyRange(lo, hi [3]int) {
	var c geom.Vec3
	r2 := 0.0
	for a := range 3 {
		c[a] = (float64(f.lo[a]+lo[a]) + 0.5*float64(hi[a]-lo[a])) * f.h
		e := 0.5 * float64(hi[a]-lo[a]) * f.h
		r2 += e * e
	}
	reach := f.lip * math.Sqrt(r2) * (1 + 1e-7)
	phi, _ := f.src.Shape.Distance(c)
	single := hi[0]-lo[0] == 1 && hi[1]-lo[1] == 1 && hi[2]-lo[2] == 1
	var class uint8
	switch {
	case phi > reach:
		return // cellOut is the zero value
	case phi < -(reach + f.shell):
		class = cellDeep
	case single:
		class = cellMixed
		f.phiC[f.index(lo[0], lo[1], lo[2])] = float32(phi)
	default:
		// Split every axis longer than one cell in two and recurse.
		var mid [3]int
		for a := range 3 {
			mid[a] = lo[a] + (hi[a]-lo[a]+1)/2
		}
		for oct := range 8 {
			var l, u [3]int
			empty := false
			for a := range 3 {
				if oct>>a&1 == 0 {
					l[a], u[a] = lo[a], mid[a]
				} else {
					l[a], u[a] = mid[a], hi[a]
				}
				empty = empty || l[a] >= u[a]
			}
			if !empty {
				f.classifyRange(l, u)
			}
		}
		return
	}
	for i := lo[0]; i < hi[0]; i++ {
		for j := lo[1]; j < hi[1]; j++ {
			for k := lo[2]; k < hi[2]; k++ {
				f.class[f.index(i, j, k)] = class
			}
		}
	}
}
