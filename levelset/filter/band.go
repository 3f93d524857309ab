package filter

import (
	"math"

	"snowtools/levelset"
)

// A band is a list of leaf-sized regions of one index space prepared for stencil
// passes: for each region the index of its six face neighbours in the list, so that a
// pass reads a voxel's neighbours with no map lookup, and for a neighbour that is not
// in the list the one value its whole region has (a tile's, the background, or +Inf for
// "unknown").
//
// Faces are numbered as levelset's dilation numbers them: 0 +x, 1 -x, 2 +y, 3 -y,
// 4 +z, 5 -z; face f lies along axis f/2.
type band struct {
	origins []levelset.Coord
	nbr     [][6]int32   // nbr[i][f]: the region across face f of region i, or -1
	across  [][6]float32 // across[i][f]: the value of that region when nbr is -1
}

// faceSteps are the unit steps across the six faces.
var faceSteps = [6]levelset.Coord{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}

// axisShift is the bit position of an axis in a leaf offset x<<6 | y<<3 | z.
var axisShift = [3]uint{6, 3, 0}

// newBand indexes the regions at origins (multiples of 8, no repeats). outside gives
// the value of a leaf-sized region that is not in the list.
func newBand(origins []levelset.Coord, outside func(origin levelset.Coord) float32) *band {
	b := &band{
		origins: origins,
		nbr:     make([][6]int32, len(origins)),
		across:  make([][6]float32, len(origins)),
	}
	index := make(map[levelset.Coord]int32, len(origins))
	for i, o := range origins {
		index[o] = int32(i)
	}
	for i, o := range origins {
		for f, step := range faceSteps {
			n := o.Add(levelset.Coord{step[0] * levelset.LeafDim, step[1] * levelset.LeafDim, step[2] * levelset.LeafDim})
			if j, ok := index[n]; ok {
				b.nbr[i][f] = j
			} else {
				b.nbr[i][f] = -1
				b.across[i][f] = outside(n)
			}
		}
	}
	return b
}

// step returns the voxel across face f of voxel n of region i: its region j and
// offset m, or j = -1 when that region is not in the band.
func (b *band) step(i, n, f int) (j, m int) {
	shift := axisShift[f/2]
	stride := 1 << shift
	pos := n >> shift & 7
	if f&1 == 0 { // the + side
		if pos < 7 {
			return i, n + stride
		}
		return int(b.nbr[i][f]), n - 7*stride
	}
	if pos > 0 {
		return i, n - stride
	}
	return int(b.nbr[i][f]), n + 7*stride
}

// neighbour returns the value across face f of voxel n of region i, reading the
// regions' values from vals.
func (b *band) neighbour(vals []*[levelset.LeafVoxels]float32, i, n, f int) float32 {
	if j, m := b.step(i, n, f); j >= 0 {
		return vals[j][m]
	}
	return b.across[i][f]
}

// unknown is the value of a voxel whose distance is not known (yet): beyond the band.
var unknown = float32(math.Inf(1))
