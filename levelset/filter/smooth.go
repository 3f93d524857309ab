package filter

import (
	"fmt"
	"math"

	"snowtools/levelset"
	"snowtools/levelset/parallel"
)

// Smooth convolves the active values of level set g with a Gaussian of standard
// deviation sigma voxels, in place: passes of the binomial filter [1 2 1] / 4 along x,
// then y, then z. One pass along an axis adds 1/2 voxel^2 to the variance along it, so
// n = round(2 sigma^2) passes of the three make a Gaussian's variance sigma^2 (and its
// shape, as n grows). The filter has zero gain at the grid's Nyquist frequency, so it
// removes voxel-scale noise first; it keeps every linear function, so a plane does not
// move.
//
// A curved surface does: for a signed distance the shift of the zero crossing is
// sigma^2/2 times the Laplacian of phi, which is the sum of the principal curvatures, so
// a sphere of radius rho shrinks by sigma^2 / rho. Smoothing a dilated surface and
// eroding it afterwards (Offset) keeps that loss small and leaves thin sheets alone.
//
// Inactive voxels (beyond the band) keep their values and are read as they are; so are
// tiles and the background, so values within n voxels of the band's edge feel the clamp.
// The result is not a distance: Redistance renormalises it.
func Smooth(g *levelset.FloatGrid, sigma float64, threads int) error {
	if !(sigma >= 0) || math.IsInf(sigma, 0) {
		return fmt.Errorf("smooth: sigma %g voxels: must be finite and not negative", sigma)
	}
	passes := int(math.Round(2 * sigma * sigma))
	if sigma > 0 {
		passes = max(passes, 1)
	}
	if passes == 0 {
		return nil
	}
	leaves := g.Leaves()
	origins := make([]levelset.Coord, len(leaves))
	vals := make([]*[levelset.LeafVoxels]float32, len(leaves))
	next := make([]*[levelset.LeafVoxels]float32, len(leaves))
	for i, l := range leaves {
		origins[i] = l.Origin
		vals[i] = &l.Values
		next[i] = new([levelset.LeafVoxels]float32)
	}
	b := newBand(origins, g.Get) // a region without a leaf has one value
	for range passes {
		for axis := range 3 {
			parallel.For(max(threads, 1), len(leaves), func(_, i int) {
				out, active := next[i], &leaves[i].Active
				*out = *vals[i]
				active.ForEachOn(func(n int) {
					plus := b.neighbour(vals, i, n, 2*axis)
					minus := b.neighbour(vals, i, n, 2*axis+1)
					out[n] = (plus + 2*vals[i][n] + minus) / 4
				})
			})
			vals, next = next, vals
		}
	}
	// After an odd number of sub-passes the newest values are in the scratch arrays.
	for i, l := range leaves {
		if vals[i] != &l.Values {
			l.Values = *vals[i]
		}
	}
	return nil
}
