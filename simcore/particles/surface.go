package particles

import (
	"fmt"
	"math"
	"runtime"
	"slices"

	"snowtools/levelset"
	"snowtools/levelset/filter"
)

// The surface of a particle frame as a narrow-band level set, for renderers and meshers
// that want the snow's boundary rather than its density.
//
// A union of spheres, one per particle, looks like beads at close range, and a plain
// smoothing of it shrinks thin parts away. SurfaceLevelSet follows OpenVDB's advice for
// rasterised particles instead (dilate, smooth, erode):
//
//  1. the union of the spheres grown by the closing radius D, phi = min_p |x - x_p| - (s r_p + D),
//     computed voxel by voxel near the particles (surface_spheres.go);
//  2. Redistance, so that phi is a distance in a band wide enough for what follows;
//  3. Smooth, a Gaussian of sigma voxels, on that dilated surface, whose dips between
//     particles are already filled and whose curvature is smaller by the dilation,
//     and Redistance again;
//  4. Offset by +D (erosion) and Redistance to the output band.
//
// Steps 1 and 4 together are a morphological closing: it fills the gaps narrower than
// 2 D between the spheres and never removes anything; the smoothing acts on the closed
// surface, moving a sphere of radius R in by only about sigma^2 / (R + D), and the
// redistance after it keeps the inside of thin parts inside. A sheet two particles
// thick survives when it spans two voxels or more (one voxel thick, it needs a closing
// of two voxels under a smoothing of one: see TestThinSheetSurvives).

// SurfaceOptions control SurfaceLevelSet. Lengths in voxels scale with VoxelSize.
type SurfaceOptions struct {
	VoxelSize float64 // dx in metres; voxel i is centred at i dx, as in RasterizeVolume
	HalfWidth int     // the band's half-width in voxels; 0 means 3 (OpenVDB's)
	// RadiusScale s multiplies each particle's radius; 0 means DefaultRadiusScale.
	RadiusScale float64
	// Closing is the closing radius D in voxels, at most MaxClosing; 0 means the
	// default, the larger of one voxel and the 90th percentile of the scaled particle
	// radii (half a spacing: the gaps between the spheres of a jittered lattice are up
	// to about a spacing wide; a percentile, not the largest, so that a few stretched
	// particles, whose PhysicalDensity is small, do not close the whole frame); a
	// negative value turns it off (a plain union of spheres).
	Closing float64
	// Smoothing is the Gaussian's sigma in voxels on the dilated surface, at most
	// MaxSmoothing; 0 means none.
	Smoothing float64
	Threads   int // worker goroutines; 0 means GOMAXPROCS
}

// The defaults of SurfaceOptions.
const (
	DefaultHalfWidth = 3
	// DefaultRadiusScale turns the radius of a particle's volume-equivalent sphere
	// (SphereRadius) into that of the sphere inscribed in its volume-equivalent cube,
	// half the spacing of particles that fill space: (pi/6)^(1/3). With it, a
	// closed lattice's surface lies half a spacing beyond its outer particles, where the
	// particles' volume ends.
	DefaultRadiusScale = 0.8059959770082631
)

// MaxRadiusVoxels bounds a particle's grown radius s r + D in voxels: the work per
// particle grows as its cube, and a sphere that much larger than a voxel wants a coarser
// grid.
const MaxRadiusVoxels = 32

// The largest Closing and Smoothing, in voxels. The band the filters work on is
// D + HalfWidth + 2 sigma^2 + 1 voxels wide on each side of the dilated surface, and
// time and memory grow with its width (as its cube around isolated particles): 8 + 3 +
// 32 + 1 at these limits. (cmd/export's -closing and -smooth have the same limits.)
const (
	MaxClosing   = 8
	MaxSmoothing = 4
)

// closingPercentile is the percentile of the scaled radii that the default closing
// takes.
const closingPercentile = 90

// SphereRadius returns the radius of the sphere of a particle's volume m / rho:
// (3 m / (4 pi rho))^(1/3).
func SphereRadius(mass, density float64) float64 {
	return math.Cbrt(3 * mass / (4 * math.Pi * density))
}

// A ParticleError names a particle whose position or radius SurfaceLevelSet cannot use.
type ParticleError struct {
	Index    int
	Position [3]float32
	Radius   float32
	Reason   string
}

func (e *ParticleError) Error() string {
	return fmt.Sprintf("surface: particle %d at (%g, %g, %g) with radius %g: %s",
		e.Index, e.Position[0], e.Position[1], e.Position[2], e.Radius, e.Reason)
}

// SurfaceLevelSet returns the level set of particles at positions pos (x y z per
// particle) with radii radius (metres, typically SphereRadius of their mass and
// density): signed distances in metres, negative inside, active exactly in the band
// |phi| < HalfWidth dx, with inactive -HalfWidth dx voxels and tiles below it and the
// background +HalfWidth dx outside. The caller sets the grid's class when writing it.
// No particles give an empty grid. The result does not depend on Threads.
func SurfaceLevelSet(pos, radius []float32, opt SurfaceOptions) (*levelset.FloatGrid, error) {
	o, err := opt.resolved()
	if err != nil {
		return nil, err
	}
	if len(pos) != 3*len(radius) {
		return nil, fmt.Errorf("surface: %d position values for %d radii", len(pos), len(radius))
	}
	closing := max(o.Closing, 0)
	if o.Closing == 0 {
		closing = defaultClosing(radius, o.RadiusScale/o.VoxelSize)
	}
	spheres, err := newSphereBins(pos, radius, o.VoxelSize, o.RadiusScale, closing)
	if err != nil {
		return nil, err
	}
	union := spheres.unionLevelSet(o.Threads)
	if closing == 0 && o.Smoothing == 0 {
		return filter.Redistance(union, float64(o.HalfWidth), o.Threads)
	}
	// The dilated band must hold the output band at depth D, plus the voxels the
	// smoothing reads. Smooth makes n = round(2 sigma^2) passes (at least one) of the
	// binomial filter [1 2 1] / 4 along each axis, each adding 1/2 voxel^2 to the
	// variance; its support is exactly n voxels along each axis, so a voxel's smoothed
	// value reads the voxels up to n away and no further: the margin must be n
	// (ceil(2 sigma^2) >= n), not the 3 sigma + 1 of a truncated Gaussian, which is
	// smaller than n from sigma = 2 on and would let the clamp at the band's edge in.
	passes := math.Ceil(2 * o.Smoothing * o.Smoothing)
	dilated, err := filter.Redistance(union, closing+float64(o.HalfWidth)+passes+1, o.Threads)
	if err != nil {
		return nil, err
	}
	if o.Smoothing > 0 {
		if err := filter.Smooth(dilated, o.Smoothing, o.Threads); err != nil {
			return nil, err
		}
		// Renormalise before eroding: the smoothing also lifts the kink of phi in the
		// middle of a thin part (by 0.8 sigma for a sheet), which the erosion would
		// bring to the surface and open as a hole.
		if dilated, err = filter.Redistance(dilated, closing+float64(o.HalfWidth)+1, o.Threads); err != nil {
			return nil, err
		}
	}
	if err := filter.Offset(dilated, closing*o.VoxelSize); err != nil {
		return nil, err
	}
	return filter.Redistance(dilated, float64(o.HalfWidth), o.Threads)
}

// defaultClosing returns the larger of 1 and the closingPercentile-th percentile of
// the radii s r_p in voxels (voxelsPerMetre = s / dx): the value of rank
// ceil(0.9 n) among the n good radii in increasing order (bad radii are reported
// later), capped at MaxClosing. Only the radii above one voxel are sorted: in a frame
// at export's voxel (half a particle spacing) there are none, so the cost is one pass.
func defaultClosing(radius []float32, voxelsPerMetre float64) float64 {
	good := 0
	var above []float64
	for _, r := range radius {
		if r > 0 && !math.IsInf(float64(r), 0) {
			good++
			if v := float64(r) * voxelsPerMetre; v > 1 {
				above = append(above, v)
			}
		}
	}
	rank := (good*closingPercentile + 99) / 100 // ceil, 1-based
	below := good - len(above)                  // the radii of at most one voxel come first
	if rank <= below {
		return 1
	}
	slices.Sort(above)
	return min(above[rank-below-1], MaxClosing)
}

// resolved checks the options and fills in the defaults.
func (opt SurfaceOptions) resolved() (SurfaceOptions, error) {
	if !(opt.VoxelSize > 0) || math.IsInf(opt.VoxelSize, 0) {
		return opt, fmt.Errorf("surface: voxel size %g: must be finite and positive", opt.VoxelSize)
	}
	if opt.HalfWidth == 0 {
		opt.HalfWidth = DefaultHalfWidth
	}
	if opt.HalfWidth < 1 {
		return opt, fmt.Errorf("surface: band half-width %d voxels: must be at least 1", opt.HalfWidth)
	}
	if opt.RadiusScale == 0 {
		opt.RadiusScale = DefaultRadiusScale
	}
	if !(opt.RadiusScale > 0) || math.IsInf(opt.RadiusScale, 0) {
		return opt, fmt.Errorf("surface: radius scale %g: must be finite and positive", opt.RadiusScale)
	}
	if math.IsNaN(opt.Closing) || opt.Closing > MaxClosing {
		return opt, fmt.Errorf("surface: Closing %g voxels: must be at most %d (the filters' band, and their time and memory, grow with it)", opt.Closing, MaxClosing)
	}
	if !(opt.Smoothing >= 0) || opt.Smoothing > MaxSmoothing {
		return opt, fmt.Errorf("surface: Smoothing %g voxels: must be between 0 and %d (the filters' band grows as its square; for a softer surface use larger voxels)", opt.Smoothing, MaxSmoothing)
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	return opt, nil
}
