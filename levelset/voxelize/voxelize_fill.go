package voxelize

import (
	"math"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Beyond the band a level set holds only a sign, as ±HalfWidth h. A voxel beyond the
// band is more than h from the surface, so the segment to any face neighbour does not
// cross it: the sign is constant on every face-connected region of voxels beyond the
// band, and a region next to a band voxel has that voxel's sign. (With winding
// numbers the inside can also change without crossing the surface, through a hole:
// there the leaf-sized blocks below the band are tested one by one.)

// fillBeyondBand is stage 4: the voxels of band leaves beyond the band take the
// sign of the band voxels they connect to inside the leaf. Every one connects to
// some: a leaf is face-connected, and it holds band voxels. The floods run on the
// leaf's bit masks, a face step being a shift (see dilateWithin).
func (v *voxelizer) fillBeyondBand() {
	background := float32(v.radius)
	parallel.For(v.opt.Threads, len(v.leaves), func(_, i int) {
		l := v.leaves[i]
		var inside, outside, beyond levelset.Mask512
		l.phi.Active.ForEachOn(func(o int) {
			if l.phi.Values[o] < 0 {
				inside.Set(o, true)
			} else {
				outside.Set(o, true)
			}
		})
		for k, w := range l.phi.Active {
			beyond[k] = ^w
		}
		// Both sides grow into the voxels beyond the band. They cannot meet: a voxel
		// beyond the band next to band voxels of both signs would be within h of the
		// surface.
		inside = floodWithin(inside, &beyond)
		outside = floodWithin(outside, &beyond)
		beyond.ForEachOn(func(o int) {
			l.phi.Values[o] = background
			if inside.IsOn(o) {
				l.phi.Values[o] = -background
			}
		})
	})
}

// floodWithin grows seed by face steps through the voxels of allowed (and those of
// seed) until it stops growing.
func floodWithin(seed levelset.Mask512, allowed *levelset.Mask512) levelset.Mask512 {
	for {
		grown := levelset.DilateMask(&seed)
		grown = grown.And(allowed)
		grown = grown.Or(&seed)
		if grown == seed {
			return seed
		}
		seed = grown
	}
}

// fillInside is stage 5: among the leaf-sized blocks within the mesh's bounds that
// hold no band voxel, it finds those inside. A closed mesh needs one test per
// face-connected region of such blocks; winding numbers may cross 1/2 through a
// hole without meeting the surface, so they need one per region only away from
// the holes, and one per block near them.
func (v *voxelizer) fillInside() {
	lo, hi := v.mesh.Bounds()
	b := newLeafBlocks(lo, hi, v.h)
	state := make([]uint8, b.dims[0]*b.dims[1]*b.dims[2])
	for _, l := range v.leaves {
		if b.within(l.origin) {
			state[b.index(l.origin)] = blockBand
		}
	}
	centre := func(i int) geom.Vec3 {
		return v.voxelCentre(b.origin(i).Add(levelset.Coord{levelset.LeafDim / 2, levelset.LeafDim / 2, levelset.LeafDim / 2}))
	}
	// Each face-connected region of blocks that flood may cross takes the side of
	// its first block: all of them for pseudonormals, and for winding numbers those
	// whose whole cube P keeps on the side of W (see rimPatches), which no path
	// between them changes. The other blocks are tested one by one.
	var flood []bool // nil: every block
	if v.sign == SignWinding && v.rim != nil {
		flood = make([]bool, len(state))
		reach := (leafHalf + 0.5) * sqrt3 * v.h // the cube's corners
		parallel.For(v.opt.Threads, len(state), func(_, i int) {
			flood[i] = state[i] == blockUnknown && v.patches.bound(centre(i), reach, patchLimit) <= patchLimit
		})
	}
	for i := range state {
		if state[i] != blockUnknown || flood != nil && !flood[i] {
			continue
		}
		side := uint8(blockOutside)
		if v.insideFar(centre(i)) {
			side = blockInside
		}
		b.flood(state, i, side, flood)
	}
	parallel.For(v.opt.Threads, len(state), func(_, i int) {
		if state[i] == blockUnknown {
			state[i] = blockOutside
			if v.insideFar(centre(i)) {
				state[i] = blockInside
			}
		}
	})
	for i, s := range state {
		if s == blockInside {
			v.inside = append(v.inside, b.origin(i))
		}
	}
}

// The states of a leaf-sized block in fillInside.
const (
	blockUnknown = iota
	blockBand    // holds band voxels
	blockOutside
	blockInside
)

// leafBlocks is the lattice of leaf-sized blocks from first to last (leaf origins,
// inclusive) that covers a box, with a dense index over it.
type leafBlocks struct {
	first, last levelset.Coord
	dims        [3]int
}

func newLeafBlocks(lo, hi geom.Vec3, h float64) leafBlocks {
	var b leafBlocks
	for k := range 3 {
		b.first[k] = int32(math.Floor(lo[k]/h)) &^ (levelset.LeafDim - 1)
		b.last[k] = int32(math.Ceil(hi[k]/h)) &^ (levelset.LeafDim - 1)
		b.dims[k] = int(b.last[k]-b.first[k])/levelset.LeafDim + 1
	}
	return b
}

func (b *leafBlocks) index(c levelset.Coord) int {
	return (int(c[0]-b.first[0])/levelset.LeafDim*b.dims[1]+int(c[1]-b.first[1])/levelset.LeafDim)*b.dims[2] + int(c[2]-b.first[2])/levelset.LeafDim
}

func (b *leafBlocks) origin(i int) levelset.Coord {
	z, y, x := i%b.dims[2], i/b.dims[2]%b.dims[1], i/b.dims[2]/b.dims[1]
	return b.first.Add(levelset.Coord{int32(x * levelset.LeafDim), int32(y * levelset.LeafDim), int32(z * levelset.LeafDim)})
}

func (b *leafBlocks) within(c levelset.Coord) bool {
	return c[0] >= b.first[0] && c[1] >= b.first[1] && c[2] >= b.first[2] && c[0] <= b.last[0] && c[1] <= b.last[1] && c[2] <= b.last[2]
}

// flood gives side to block i and to every unknown block face-connected to it
// through unknown blocks that allowed admits (nil: all): the band separates inside
// from outside.
func (b *leafBlocks) flood(state []uint8, i int, side uint8, allowed []bool) {
	state[i] = side
	queue := []int{i}
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		c := b.origin(j)
		for axis := range 3 {
			for _, step := range [2]int32{-levelset.LeafDim, levelset.LeafDim} {
				n := c
				n[axis] += step
				if !b.within(n) {
					continue
				}
				if k := b.index(n); state[k] == blockUnknown && (allowed == nil || allowed[k]) {
					state[k] = side
					queue = append(queue, k)
				}
			}
		}
	}
}

// collider assembles the grids.
func (v *voxelizer) collider() *Volumes {
	tr := levelset.Transform{VoxelSize: v.h}
	c := &Volumes{
		Surface:   levelset.NewGrid(tr, float32(v.radius)),
		Velocity:  levelset.NewGrid(tr, levelset.Vec3f{}),
		Normal:    levelset.NewGrid(tr, levelset.Vec3f{}),
		Sign:      v.sign,
		InsideOut: v.insideOut,
	}
	// The three grids fill their maps at the same time.
	parallel.For(v.opt.Threads, 3, func(_, grid int) {
		for _, l := range v.leaves {
			switch grid {
			case 0:
				c.Surface.AddLeaf(l.phi)
			case 1:
				c.Velocity.AddLeaf(l.velocity)
			default:
				c.Normal.AddLeaf(l.normal)
			}
		}
	})
	for _, o := range v.inside {
		c.Surface.AddTile(levelset.Tile[float32]{Origin: o, Log2: levelset.LeafLog2, Value: -float32(v.radius)})
	}
	return c
}
