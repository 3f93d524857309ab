package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
	"snowtools/simcore/hashrand"
)

// Stream tags, so that the patterns and the noise draw unrelated numbers.
const (
	tagJittered = 0x6a69747465726564
	tagPoisson  = 0x706f6973736f6e00
	tagNoise    = 0x6e6f697365000000
	tagChunks   = 0x6368756e6b730000
)

// cellRNG is a SplitMix64 generator: the state advances by the golden-ratio
// increment and each output is hashrand.Mix64 of the state. Seeded per cell by hashrand.Lattice, it
// makes each cell's points depend only on the seed and the cell, whatever order the
// cells are visited in.
type cellRNG struct{ s uint64 }

func (r *cellRNG) next() uint64 { r.s += 0x9e3779b97f4a7c15; return hashrand.Mix64(r.s) }

// float returns a uniform float64 in [0, 1) with 53 random bits.
func (r *cellRNG) float() float64 { return float64(r.next()>>11) * 0x1p-53 }

// intn returns a uniform int in [0, n) for 0 < n < 2^32 (Lemire's multiply-shift,
// whose bias of at most n/2^32 does not matter here).
func (r *cellRNG) intn(n int) int { return int((r.next() >> 32) * uint64(n) >> 32) }

// jitterSplit returns k = ceil(PerCell^(1/3)): the sub-cells per axis.
func jitterSplit(perCell int) int {
	k := 1
	for k*k*k < perCell {
		k++
	}
	return k
}

// jittered places one uniform point in each of PerCell distinct sub-cells of every
// cell (see PatternJittered). The sub-cells are the first PerCell entries of a
// partial Fisher-Yates shuffle of 0 .. k^3-1, drawn from the cell's own generator.
func (f *filler) jittered() {
	h, pc := f.h, f.src.PerCell
	k := jitterSplit(pc)
	sub := make([]int, k*k*k)
	pts := make([]seedPoint, 0, flushSize+pc)
	for i := 0; i < f.n[0]; i++ {
		for j := 0; j < f.n[1]; j++ {
			for l := 0; l < f.n[2]; l++ {
				c := f.index(i, j, l)
				if f.class[c] == cellOut {
					continue
				}
				centre := f.centre(i, j, l)
				ci, cj, ck := f.lo[0]+i, f.lo[1]+j, f.lo[2]+l
				rng := cellRNG{hashrand.Lattice(f.src.Seed, tagJittered, ci, cj, ck)}
				for s := range sub {
					sub[s] = s
				}
				for n := range pc {
					m := n + rng.intn(len(sub)-n)
					sub[n], sub[m] = sub[m], sub[n]
					s := sub[n]
					si, sj, sk := s/(k*k), s/k%k, s%k
					x := geom.Vec3{
						(float64(ci) + (float64(si)+rng.float())/float64(k)) * h,
						(float64(cj) + (float64(sj)+rng.float())/float64(k)) * h,
						(float64(ck) + (float64(sk)+rng.float())/float64(k)) * h,
					}
					if sp, ok := f.candidate(x, c, centre); ok {
						pts = append(pts, sp)
					}
				}
			}
			if len(pts) >= flushSize {
				pts = f.flush(pts)
			}
		}
	}
	f.flush(pts)
}

// PoissonSpacing is the minimum distance of PatternPoisson in units of the mean
// spacing h / PerCell^(1/3). Random sequential addition of spheres jams at a
// packing fraction of about 0.38 (a minimum distance of 0.90 mean spacings); at
// 0.70, a packing fraction of 0.18, darts rarely need more than a few tries and
// fewer than one point in a thousand fails PoissonAttempts times, so a filled cell
// gets almost exactly PerCell particles, while the points are far more even than
// independent ones (which come arbitrarily close).
const PoissonSpacing = 0.70

// PoissonAttempts is how many darts a point of PatternPoisson may take.
const PoissonAttempts = 64

// PoissonRadius returns the minimum distance between points of PatternPoisson for
// PerCell points per cell of size h: PoissonSpacing h / PerCell^(1/3).
func PoissonRadius(h float64, perCell int) float64 {
	return PoissonSpacing * h / math.Cbrt(float64(perCell))
}

// poisson places the points of PatternPoisson: dart throwing cell by cell, the 8
// parity classes of cells one after another, each class in parallel. Darts go into
// every cell that is not cellOut and into the cellOut cells next to one (the seeding
// box has a ring of such cells around it): their points are thrown away, but
// without them the points of a cell at the surface would crowd toward its empty
// neighbours, and out of the shape (about 0.7% fewer particles in a test).
func (f *filler) poisson() {
	h, pc := f.h, f.src.PerCell
	r := PoissonRadius(h, pc)
	r2 := r * r
	darted := make([]bool, f.cells())
	for i := 0; i < f.n[0]; i++ {
		for j := 0; j < f.n[1]; j++ {
			for l := 0; l < f.n[2]; l++ {
				if f.class[f.index(i, j, l)] == cellOut {
					continue
				}
				for d := range 27 {
					q := [3]int{i + d/9 - 1, j + d/3%3 - 1, l + d%3 - 1}
					if q[0] >= 0 && q[1] >= 0 && q[2] >= 0 && q[0] < f.n[0] && q[1] < f.n[1] && q[2] < f.n[2] {
						darted[f.index(q[0], q[1], q[2])] = true
					}
				}
			}
		}
	}
	// slot[c] is the place of cell c's points in pos (PerCell each), -1 for a cell
	// without darts; count[slot[c]] is how many it has so far.
	slot := make([]int32, f.cells())
	var active [8][]int32 // cell indices of each parity class, in cell order
	nact := 0
	for i := 0; i < f.n[0]; i++ {
		for j := 0; j < f.n[1]; j++ {
			for l := 0; l < f.n[2]; l++ {
				c := f.index(i, j, l)
				slot[c] = -1
				if !darted[c] {
					continue
				}
				slot[c] = int32(nact)
				nact++
				par := (f.lo[0]+i)&1 | (f.lo[1]+j)&1<<1 | (f.lo[2]+l)&1<<2
				active[par] = append(active[par], int32(c))
			}
		}
	}
	pos := make([]geom.Vec3, nact*pc)
	count := make([]int32, nact)
	for par := range active {
		cells := active[par]
		parallel.Ranges(f.workers, len(cells), 64, func(_, lo, hi int) {
			for _, c := range cells[lo:hi] {
				f.dartCell(int(c), slot, pos, count, r2)
			}
		})
	}
	pts := make([]seedPoint, 0, flushSize+pc)
	for c, s := range slot {
		if s < 0 || f.class[c] == cellOut {
			continue
		}
		centre := f.centre(c/(f.n[1]*f.n[2]), c/f.n[2]%f.n[1], c%f.n[2])
		for _, x := range pos[int(s)*pc : int(s)*pc+int(count[s])] {
			if sp, ok := f.candidate(x, c, centre); ok {
				pts = append(pts, sp)
			}
		}
		if len(pts) >= flushSize {
			pts = f.flush(pts)
		}
	}
	f.flush(pts)
}

// dartCell throws the darts of cell c (a linear index): up to PoissonAttempts
// uniform points of the cell per point, each accepted when no point already placed
// in the cell or its 26 neighbours is within sqrt(r2). Since r < h only neighbours
// can conflict, and only those whose side faces the dart within r are searched.
func (f *filler) dartCell(c int, slot []int32, pos []geom.Vec3, count []int32, r2 float64) {
	h, pc := f.h, f.src.PerCell
	r := math.Sqrt(r2)
	i, j, l := c/(f.n[1]*f.n[2]), c/f.n[2]%f.n[1], c%f.n[2]
	base := [3]int{f.lo[0] + i, f.lo[1] + j, f.lo[2] + l}
	rng := cellRNG{hashrand.Lattice(f.src.Seed, tagPoisson, base[0], base[1], base[2])}
	own := int(slot[c])
	for range pc {
	darts:
		for range PoissonAttempts {
			x := geom.Vec3{(float64(base[0]) + rng.float()) * h, (float64(base[1]) + rng.float()) * h, (float64(base[2]) + rng.float()) * h}
			var from, to [3]int // neighbour offsets to search, per axis
			for a := range 3 {
				if x[a]-float64(base[a])*h < r {
					from[a] = -1
				}
				if float64(base[a]+1)*h-x[a] < r {
					to[a] = 1
				}
			}
			rel := [3]int{i, j, l}
			for di := from[0]; di <= to[0]; di++ {
				for dj := from[1]; dj <= to[1]; dj++ {
					for dk := from[2]; dk <= to[2]; dk++ {
						q := [3]int{rel[0] + di, rel[1] + dj, rel[2] + dk}
						if q[0] < 0 || q[1] < 0 || q[2] < 0 || q[0] >= f.n[0] || q[1] >= f.n[1] || q[2] >= f.n[2] {
							continue
						}
						s := slot[f.index(q[0], q[1], q[2])]
						if s < 0 {
							continue
						}
						for _, y := range pos[int(s)*pc : int(s)*pc+int(count[s])] {
							if dx, dy, dz := x[0]-y[0], x[1]-y[1], x[2]-y[2]; dx*dx+dy*dy+dz*dz < r2 {
								continue darts
							}
						}
					}
				}
			}
			pos[own*pc+int(count[own])] = x
			count[own]++
			break
		}
	}
}
