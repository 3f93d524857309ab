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
		for f := range faceSteps {
			if j, ok := index[faceNeighbour(o, f)]; ok {
				b.nbr[i][f] = j
			} else {
				b.nbr[i][f] = -1
				b.across[i][f] = outside(faceNeighbour(o, f))
			}
		}
	}
	return b
}

// faceNeighbour returns the origin of the leaf-sized region across face f of the one
// at o.
func faceNeighbour(o levelset.Coord, f int) levelset.Coord {
	step := faceSteps[f]
	return o.Add(levelset.Coord{step[0] * levelset.LeafDim, step[1] * levelset.LeafDim, step[2] * levelset.LeafDim})
}

// withOutside returns the band of the same regions (sharing their neighbour lists)
// whose regions beyond the list have the values outside gives.
func (b *band) withOutside(outside func(origin levelset.Coord) float32) *band {
	c := &band{origins: b.origins, nbr: b.nbr, across: make([][6]float32, len(b.origins))}
	for i, o := range b.origins {
		for f, j := range b.nbr[i] {
			if j < 0 {
				c.across[i][f] = outside(faceNeighbour(o, f))
			}
		}
	}
	return c
}

// gridValues returns, for each region of b, the values of g's voxels there: the leaf's
// own array, or for a region without a leaf an array of the one value its tile or the
// background gives (shared by the regions of equal value, so it costs memory per
// distinct value, not per region). The arrays of leaves are g's: read them only.
func gridValues(g *levelset.FloatGrid, b *band) []*[levelset.LeafVoxels]float32 {
	vals := make([]*[levelset.LeafVoxels]float32, len(b.origins))
	constant := map[float32]*[levelset.LeafVoxels]float32{}
	for i, o := range b.origins {
		if l := g.ProbeLeaf(o); l != nil {
			vals[i] = &l.Values
			continue
		}
		v := g.Get(o)
		if constant[v] == nil {
			a := new([levelset.LeafVoxels]float32)
			for n := range a {
				a[n] = v
			}
			constant[v] = a
		}
		vals[i] = constant[v]
	}
	return vals
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

// A paddedRegion is a region's values with a one-voxel layer around it holding its
// face neighbours' values, so that a stencil reads any face neighbour as one array
// access at a fixed stride (padStride), with no branch at the region's faces. The
// edges and corners of the layer are never read.
type paddedRegion [padDim * padDim * padDim]float32

const padDim = levelset.LeafDim + 2

// padStride are the index steps of paddedRegion along x, y and z.
var padStride = [3]int{padDim * padDim, padDim, 1}

// padIndex returns the index in a paddedRegion of voxel n of the region.
func padIndex(n int) int {
	return (n>>6+1)*padDim*padDim + (n>>3&7+1)*padDim + n&7 + 1
}

// pad fills p with region i's values from vals and the layer with its face
// neighbours' (across's value beyond the list).
func (b *band) pad(p *paddedRegion, vals []*[levelset.LeafVoxels]float32, i int) {
	own := vals[i]
	for row := 0; row < levelset.LeafVoxels; row += levelset.LeafDim {
		copy(p[padIndex(row):padIndex(row)+levelset.LeafDim], own[row:row+levelset.LeafDim])
	}
	for f, j := range b.nbr[i] {
		axis := f / 2
		shift, s1, s2 := axisShift[axis], axisShift[(axis+1)%3], axisShift[(axis+2)%3]
		// Face f holds the voxels at position here along the axis; across it, the
		// neighbour's voxels at position there, one padStride further out.
		here, there, step := levelset.LeafDim-1, 0, padStride[axis]
		if f&1 == 1 {
			here, there, step = 0, levelset.LeafDim-1, -step
		}
		for u := range levelset.LeafDim {
			for v := range levelset.LeafDim {
				base := u<<s1 | v<<s2
				value := b.across[i][f]
				if j >= 0 {
					value = vals[j][base|there<<shift]
				}
				p[padIndex(base|here<<shift)+step] = value
			}
		}
	}
}
