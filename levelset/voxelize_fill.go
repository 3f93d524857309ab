package levelset

import "math"

// Beyond the band a level set holds only a sign, as ±HalfWidth h. Two facts make the
// sign cheap to find there. A voxel beyond the band is more than h from the surface,
// so the segment to any face neighbour does not cross it: the sign is constant on
// every face-connected region of voxels beyond the band, and a region next to a band
// voxel has that voxel's sign. (With winding numbers the inside can also change
// without crossing the surface, through a hole; such regions are tested one by one.)

// fillBeyondBand is stage 4: the voxels of band leaves beyond the band take the
// sign of a band voxel they connect to inside the leaf, or, for a pocket that
// touches none, the sign found by insideFar at one of its voxels.
func (v *voxelizer) fillBeyondBand() {
	background := float32(v.radius)
	ParallelFor(v.opt.Threads, len(v.leaves), func(_, i int) {
		l := v.leaves[i]
		var queue [LeafVoxels]int16
		var done Mask512 = l.phi.Active
		head, tail := 0, 0
		seed := func(o int, phi float32) {
			l.phi.Values[o] = phi
			done.Set(o, true)
			queue[tail] = int16(o)
			tail++
		}
		flood := func() {
			for ; head < tail; head++ {
				o := int(queue[head])
				forEachFaceNeighbour(o, func(n int) {
					if !done.IsOn(n) {
						seed(n, signOf(l.phi.Values[o], background))
					}
				})
			}
		}
		// Inactive voxels next to band voxels first, then the pockets.
		l.phi.Active.ForEachOn(func(o int) {
			forEachFaceNeighbour(o, func(n int) {
				if !done.IsOn(n) {
					seed(n, signOf(l.phi.Values[o], background))
				}
			})
		})
		flood()
		for o := range LeafVoxels {
			if done.IsOn(o) {
				continue
			}
			phi := background
			if v.insideFar(v.voxelCentre(LeafCoord(l.origin, o))) {
				phi = -background
			}
			seed(o, phi)
			flood()
		}
	})
}

// signOf returns magnitude with the sign of phi.
func signOf(phi, magnitude float32) float32 {
	if phi < 0 {
		return -magnitude
	}
	return magnitude
}

// forEachFaceNeighbour calls fn with the leaf offset of each of the up to six face
// neighbours of offset o that lie in the same leaf (offset = x<<6 | y<<3 | z).
func forEachFaceNeighbour(o int, fn func(n int)) {
	x, y, z := o>>6, o>>3&7, o&7
	if x > 0 {
		fn(o - 64)
	}
	if x < 7 {
		fn(o + 64)
	}
	if y > 0 {
		fn(o - 8)
	}
	if y < 7 {
		fn(o + 8)
	}
	if z > 0 {
		fn(o - 1)
	}
	if z < 7 {
		fn(o + 1)
	}
}

// fillInside is stage 5: among the leaf-sized blocks within the mesh's bounds that
// hold no band voxel, it finds those inside. A closed mesh needs one test per
// face-connected region of such blocks; winding numbers are tested block by block,
// since they may cross 1/2 through a hole without meeting the surface.
func (v *voxelizer) fillInside() {
	lo, hi := v.mesh.Bounds()
	var first, last Coord
	for k := range 3 {
		first[k] = int32(math.Floor(lo[k]/v.h)) &^ (LeafDim - 1)
		last[k] = int32(math.Ceil(hi[k]/v.h)) &^ (LeafDim - 1)
	}
	var dims [3]int
	for k := range 3 {
		dims[k] = int(last[k]-first[k])/LeafDim + 1
	}
	index := func(c Coord) int {
		return (int(c[0]-first[0])/LeafDim*dims[1]+int(c[1]-first[1])/LeafDim)*dims[2] + int(c[2]-first[2])/LeafDim
	}
	origin := func(i int) Coord {
		z, y, x := i%dims[2], i/dims[2]%dims[1], i/dims[2]/dims[1]
		return first.Add(Coord{int32(x * LeafDim), int32(y * LeafDim), int32(z * LeafDim)})
	}
	const (
		unknown = iota
		band
		outside
		inside
	)
	state := make([]uint8, dims[0]*dims[1]*dims[2])
	within := func(c Coord) bool {
		return c[0] >= first[0] && c[1] >= first[1] && c[2] >= first[2] && c[0] <= last[0] && c[1] <= last[1] && c[2] <= last[2]
	}
	for _, l := range v.leaves {
		if within(l.origin) {
			state[index(l.origin)] = band
		}
	}
	centre := func(i int) Vec3 { return v.voxelCentre(origin(i).Add(Coord{LeafDim / 2, LeafDim / 2, LeafDim / 2})) }

	if v.sign == SignWinding {
		ParallelFor(v.opt.Threads, len(state), func(_, i int) {
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
					for _, step := range [2]int32{-LeafDim, LeafDim} {
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
func (v *voxelizer) collider() *Collider {
	tr := Transform{VoxelSize: v.h}
	c := &Collider{
		Surface:  NewGrid(tr, float32(v.radius)),
		Velocity: NewGrid(tr, Vec3f{}),
		Normal:   NewGrid(tr, Vec3f{}),
		Sign:     v.sign,
	}
	for _, l := range v.leaves {
		c.Surface.AddLeaf(&l.phi)
		c.Velocity.AddLeaf(&l.velocity)
		c.Normal.AddLeaf(&l.normal)
	}
	for _, o := range v.inside {
		c.Surface.AddTile(Tile[float32]{Origin: o, Log2: LeafLog2, Value: -float32(v.radius)})
	}
	return c
}
