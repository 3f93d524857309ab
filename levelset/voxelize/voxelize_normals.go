package voxelize

import (
	"math"

	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// neighbours26 are the offsets from a voxel to the 26 around it.
var neighbours26 = func() (n [26]levelset.Coord) {
	i := 0
	for x := int32(-1); x <= 1; x++ {
		for y := int32(-1); y <= 1; y++ {
			for z := int32(-1); z <= 1; z++ {
				if x != 0 || y != 0 || z != 0 {
					n[i] = levelset.Coord{x, y, z}
					i++
				}
			}
		}
	}
	return n
}()

// sum26Normals replaces the band's normals by N = sum_k sigma_k d_k / |...|, with
// d_k the unit direction to neighbour k and sigma_k = -1 for an inside neighbour, 0
// otherwise (Umenhoffer et al., section 2, after Thuermer and Wuethrich 1997). The
// sum points away from the inside neighbours; where it vanishes (all or none of them
// inside) the gradient normal stays.
//
// The offsets are summed as integers by length (1, sqrt 2, sqrt 3) and scaled last:
// a float sum of 26 unit vectors that cancel leaves rounding noise, whose direction
// would be taken for a normal.
func (v *voxelizer) sum26Normals() {
	surface := levelset.NewGrid(levelset.Transform{VoxelSize: v.h}, float32(v.radius))
	for _, l := range v.leaves {
		surface.AddLeaf(l.phi)
	}
	for _, o := range v.inside {
		surface.AddTile(levelset.Tile[float32]{Origin: o, Log2: levelset.LeafLog2, Value: -float32(v.radius)})
	}
	parallel.For(v.opt.Threads, len(v.leaves), func(_, i int) {
		l := v.leaves[i]
		acc := surface.Accessor()
		l.phi.Active.ForEachOn(func(o int) {
			c := levelset.LeafCoord(l.origin, o)
			var sums [4]levelset.Coord // by squared length of the offset
			for _, d := range neighbours26 {
				if acc.Get(c.Add(d)) < 0 {
					length2 := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]
					sums[length2] = sums[length2].Add(levelset.Coord{-d[0], -d[1], -d[2]})
				}
			}
			if sums == ([4]levelset.Coord{}) {
				return
			}
			var n geom.Vec3
			for length2 := 1; length2 <= 3; length2++ {
				s := sums[length2]
				n = n.Add(geom.Vec3{float64(s[0]), float64(s[1]), float64(s[2])}.Scale(1 / math.Sqrt(float64(length2))))
			}
			l.normal.Values[o] = levelset.Vec3fOf(n.Unit())
		})
	})
}
