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
// face-connected region of such blocks; winding numbers are tested block by block,
// since they may cross 1/2 through a hole without meeting the surface.
func (v *voxelizer) fillInside() {
	lo, hi := v.mesh.Bounds()
	var first, last levelset.Coord
	for k := range 3 {
		first[k] = int32(math.Floor(lo[k]/v.h)) &^ (levelset.LeafDim - 1)
		last[k] = int32(math.Ceil(hi[k]/v.h)) &^ (levelset.LeafDim - 1)
	}
	var dims [3]int
	for k := range 3 {
		dims[k] = int(last[k]-first[k])/levelset.LeafDim + 1
	}
	index := func(c levelset.Coord) int {
		return (int(c[0]-first[0])/levelset.LeafDim*dims[1]+int(c[1]-first[1])/levelset.LeafDim)*dims[2] + int(c[2]-first[2])/levelset.LeafDim
	}
	origin := func(i int) levelset.Coord {
		z, y, x := i%dims[2], i/dims[2]%dims[1], i/dims[2]/dims[1]
		return first.Add(levelset.Coord{int32(x * levelset.LeafDim), int32(y * levelset.LeafDim), int32(z * levelset.LeafDim)})
	}
	const (
		unknown = iota
		band
		outside
		inside
	)
	state := make([]uint8, dims[0]*dims[1]*dims[2])
	within := func(c levelset.Coord) bool {
		return c[0] >= first[0] && c[1] >= first[1] && c[2] >= first[2] && c[0] <= last[0] && c[1] <= last[1] && c[2] <= last[2]
	}
	for _, l := range v.leaves {
		if within(l.origin) {
			state[index(l.origin)] = band
		}
	}
	centre := func(i int) geom.Vec3 {
		return v.voxelCentre(origin(i).Add(levelset.Coord{levelset.LeafDim / 2, levelset.LeafDim / 2, levelset.LeafDim / 2}))
	}

	if v.sign == SignWinding {
		parallel.For(v.opt.Threads, len(state), func(_, i int) {
			if state[i] == unknown {
				state[i] = outside
				if v.insideFar(centre(i)) {
					state[i] = inside
				}
			}
		})
	} else {
		var queue []int
		for i := range state {
			if state[i] != unknown {
				continue
			}
			side := uint8(outside)
			if v.insideFar(centre(i)) {
				side = inside
			}
			state[i] = side
			queue = append(queue[:0], i)
			for len(queue) > 0 {
				j := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				c := origin(j)
				for axis := range 3 {
					for _, step := range [2]int32{-levelset.LeafDim, levelset.LeafDim} {
						n := c
						n[axis] += step
						if !within(n) {
							continue
						}
						if k := index(n); state[k] == unknown {
							state[k] = side
							queue = append(queue, k)
						}
					}
				}
			}
		}
	}
	for i, s := range state {
		if s == inside {
			v.inside = append(v.inside, origin(i))
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
	for _, l := range v.leaves {
		c.Surface.AddLeaf(l.phi)
		c.Velocity.AddLeaf(l.velocity)
		c.Normal.AddLeaf(l.normal)
	}
	for _, o := range v.inside {
		c.Surface.AddTile(levelset.Tile[float32]{Origin: o, Log2: levelset.LeafLog2, Value: -float32(v.radius)})
	}
	return c
}
