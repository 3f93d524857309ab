package filter

import (
	"fmt"
	"math"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/parallel"
)

// Redistance returns the signed distance to the zero crossing of g, in a band of
// halfWidth voxels: the renormalisation that makes |grad phi| = 1 again after a filter,
// an offset or a construction (such as a union of spheres) whose values are distances
// only near the surface.
//
// The sign of every voxel is g's (phi < 0 inside), so the surface stays between the
// same voxels; the distances are new:
//
//  1. Interface voxels, those with a face neighbour of the other sign, keep their place
//     relative to the crossing: d = |phi| / |grad phi|, the distance to the plane
//     through the zero of phi's linear model (the subcell fix of Russo and Smereka
//     2000). Per axis the slope is the largest of the central and the two one-sided
//     differences, so that a kink or a clamped neighbour never makes it small.
//  2. The other voxels solve the eikonal equation |grad d| = 1 from those values, by
//     the Godunov upwind scheme iterated until nothing changes (see
//     eikonal.go): d grows by at most one voxel per step away from the interface.
//     The scheme is exact for a plane; on a curved surface it overestimates the
//     distance a little, 0.07 voxel at depth 1.5 inside a sphere of radius 10 voxels
//     (a closest-point propagation, tried first, erred more: the closest points of the
//     voxels sample the surface a voxel apart).
//
// Voxels with d < halfWidth are active and hold sign * d * h; the others hold
// -halfWidth h inside and +halfWidth h (the background) outside, inactive. Leaf-sized
// regions that hold no band voxel become inactive tiles inside and background outside.
// g's own tiles keep their sign the same way.
//
// A *ConvergenceError says that the iteration of step 2 did not settle within its
// bound (maxSweeps), which no band met in practice takes near.
func Redistance(g *levelset.FloatGrid, halfWidth float64, threads int) (*levelset.FloatGrid, error) {
	if err := g.Transform.Validate(); err != nil {
		return nil, fmt.Errorf("redistance: %w", err)
	}
	if !(halfWidth >= 1) || math.IsInf(halfWidth, 0) {
		return nil, fmt.Errorf("redistance: band half-width %g voxels: must be finite and at least 1", halfWidth)
	}
	threads = max(threads, 1)
	origins := bandRegions(g, halfWidth, threads)
	r := newRedistancer(g, origins, halfWidth)
	r.interface_(threads)
	if err := r.solve(threads, maxSweeps(halfWidth)); err != nil {
		return nil, err
	}
	return r.grid(), nil
}

// bandRegions returns, in Coord order, the leaf-sized regions that may hold voxels
// within halfWidth of an interface voxel: those around g's leaves that hold one.
// (A leaf with no sign change inside it or across its faces holds no interface voxel,
// and beyond g's leaves every region has a single value, so a single sign.)
func bandRegions(g *levelset.FloatGrid, halfWidth float64, threads int) []levelset.Coord {
	leaves := g.Leaves()
	origins := make([]levelset.Coord, len(leaves))
	vals := make([]*[levelset.LeafVoxels]float32, len(leaves))
	for i, l := range leaves {
		origins[i], vals[i] = l.Origin, &l.Values
	}
	b := newBand(origins, g.Get) // a region without a leaf has one value
	crossed := make([]bool, len(leaves))
	parallel.For(threads, len(leaves), func(_, i int) {
		crossed[i] = holdsInterface(b, vals, i)
	})
	ring := int32(math.Ceil(halfWidth / levelset.LeafDim))
	seen := map[levelset.Coord]bool{}
	var band []levelset.Coord
	for i, l := range leaves {
		if !crossed[i] {
			continue
		}
		for x := -ring; x <= ring; x++ {
			for y := -ring; y <= ring; y++ {
				for z := -ring; z <= ring; z++ {
					o := l.Origin.Add(levelset.Coord{x * levelset.LeafDim, y * levelset.LeafDim, z * levelset.LeafDim})
					if !seen[o] {
						seen[o] = true
						band = append(band, o)
					}
				}
			}
		}
	}
	slices.SortFunc(band, levelset.CompareCoords)
	return band
}

// holdsInterface reports whether some voxel of region i of b has a face neighbour of
// the other sign.
func holdsInterface(b *band, vals []*[levelset.LeafVoxels]float32, i int) bool {
	for n, v := range vals[i] {
		for f := range faceSteps {
			if (b.neighbour(vals, i, n, f) < 0) != (v < 0) {
				return true
			}
		}
	}
	return false
}

// A redistancer holds the unsigned distances of the band regions, in voxels.
type redistancer struct {
	src       *levelset.FloatGrid
	halfWidth float64
	band      *band
	// dist[i] is region i's distances, unknown beyond the band; a region with no
	// known distance yet shares unknownRegion, so that the regions the band never
	// reaches (most of the ring around a small isolated surface) cost no array.
	dist   []*[levelset.LeafVoxels]float32
	fixed  []levelset.Mask512 // the interface voxels
	inside []levelset.Mask512 // phi < 0 in src
}

func newRedistancer(g *levelset.FloatGrid, origins []levelset.Coord, halfWidth float64) *redistancer {
	r := &redistancer{
		src:       g,
		halfWidth: halfWidth,
		band:      newBand(origins, func(levelset.Coord) float32 { return unknown }),
		dist:      make([]*[levelset.LeafVoxels]float32, len(origins)),
		fixed:     make([]levelset.Mask512, len(origins)),
		inside:    make([]levelset.Mask512, len(origins)),
	}
	for i := range r.dist {
		r.dist[i] = &unknownRegion
	}
	return r
}

// unknownRegion is the distances of a region with no known one; read only.
var unknownRegion = func() (a [levelset.LeafVoxels]float32) {
	for n := range a {
		a[n] = unknown
	}
	return a
}()

// known returns region i's own distances array, made on the first call from
// unknownRegion. Only the worker that owns region i may call it.
func (r *redistancer) known(i int) *[levelset.LeafVoxels]float32 {
	if r.dist[i] == &unknownRegion {
		d := unknownRegion
		r.dist[i] = &d
	}
	return r.dist[i]
}

// interface_ is step 1: the signs, and the distances of the interface voxels.
//
// It reads src's values region by region through the band, with no map lookups. A
// region beyond the band has one value, which the band's across gives: it is a tile
// or the background, or a leaf with no interface (bandRegions), whose voxels all have
// one sign. That value is right for the signs; the slopes need the true neighbours
// only at an interface voxel, and those all lie in the band (a voxel's face
// neighbours are in its own region or a face neighbour of it, and both regions hold
// an interface voxel or are within one region of one that does).
func (r *redistancer) interface_(threads int) {
	src := r.band.withOutside(r.src.Get)
	vals := gridValues(r.src, src)
	pads := make([]*paddedRegion, threads)
	parallel.For(threads, len(r.dist), func(w, i int) {
		if pads[w] == nil {
			pads[w] = new(paddedRegion)
		}
		p := pads[w]
		src.pad(p, vals, i)
		for n := range levelset.LeafVoxels {
			c := padIndex(n)
			phi := p[c]
			in := phi < 0
			r.inside[i].Set(n, in)
			crossing := false
			for _, s := range padStride {
				crossing = crossing || (p[c+s] < 0) != in || (p[c-s] < 0) != in
			}
			if !crossing {
				continue
			}
			var slope2 float64
			for _, s := range padStride {
				plus, minus := p[c+s], p[c-s]
				slope := max(math.Abs(float64(plus-minus))/2, math.Abs(float64(plus-phi)), math.Abs(float64(phi-minus)))
				slope2 += slope * slope
			}
			// slope2 > 0: a neighbour of the other sign differs from phi.
			r.known(i)[n] = float32(math.Abs(float64(phi)) / math.Sqrt(slope2))
			r.fixed[i].Set(n, true)
		}
	})
}

// grid assembles the result: band leaves, and tiles for the rest by sign.
func (r *redistancer) grid() *levelset.FloatGrid {
	h := r.src.VoxelSize
	bg := float32(r.halfWidth * h)
	out := levelset.NewGrid(r.src.Transform, bg)
	inTile := levelset.Tile[float32]{Log2: levelset.LeafLog2, Value: -bg}
	for _, t := range r.src.Tiles() {
		if t.Value < 0 {
			out.AddTile(levelset.Tile[float32]{Origin: t.Origin, Log2: t.Log2, Value: -bg})
		}
	}
	inBand := make(map[levelset.Coord]bool, len(r.band.origins))
	for _, o := range r.band.origins {
		inBand[o] = true
	}
	for _, l := range r.src.Leaves() {
		if !inBand[l.Origin] && l.Values[0] < 0 { // no interface: one sign throughout
			inTile.Origin = l.Origin
			out.AddTile(inTile)
		}
	}
	for i, o := range r.band.origins {
		inside := &r.inside[i]
		if !slices.ContainsFunc(r.dist[i][:], func(d float32) bool { return float64(d) < r.halfWidth }) {
			if inside.IsOn(0) { // no band voxel: one sign throughout
				inTile.Origin = o
				out.SetTile(inTile) // splitting a larger inside tile of src around it
			}
			continue
		}
		l := &levelset.Leaf[float32]{Origin: o}
		for n, d := range r.dist[i] {
			s := float32(1)
			if inside.IsOn(n) {
				s = -1
			}
			if float64(d) < r.halfWidth {
				l.Values[n] = s * float32(float64(d)*h)
				l.Active.Set(n, true)
			} else {
				l.Values[n] = s * bg
			}
		}
		out.AddLeaf(l)
	}
	return out
}
