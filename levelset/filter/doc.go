// Package filter holds the algorithms that act on a level set alone, with no particles or
// meshes behind it: Redistance (renormalisation, |grad phi| = 1 in the band), Smooth
// (a Gaussian of the band's values) and Offset (dilation and erosion by a distance).
//
// A level set here is a levelset.FloatGrid of signed distances in metres, negative
// inside, whose inactive voxels and tiles beyond the band hold -background inside and
// +background outside, as levelset/voxelize writes them. Redistance and Offset read
// only the sign beyond the band, so a grid whose far values are merely of the right
// sign is enough input for Redistance. Smooth is the exception: it reads the inactive
// values next to the band as they are (the clamp at +-background), so a band meant for
// smoothing must be wide enough that the voxels that matter lie more than the
// filter's reach inside it (SurfaceLevelSet's first Redistance is).
//
// Each filter works a leaf at a time on up to Threads goroutines and gives the same grid
// for any number of them: a pass reads the values of the one before and writes its own.
package filter
