package particles

import (
	"fmt"
	"math"
	"runtime"

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
	// Closing is the closing radius D in voxels; 0 means the default, the larger of one
	// voxel and the largest scaled particle radius (half a spacing: the gaps between the
	// spheres of a jittered lattice are up to about a spacing wide); a negative value
	// turns it off (a plain union of spheres).
	Closing float64
	// Smoothing is the Gaussian's sigma in voxels on the dilated surface; 0 means none.
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
	// smoothing reads: n = round(2 sigma^2) passes reach n voxels.
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

// defaultClosing returns the larger of 1 and the largest radius s r_p in voxels
// (voxelsPerMetre = s / dx); bad radii are reported later.
func defaultClosing(radius []float32, voxelsPerMetre float64) float64 {
	d := 1.0
	for _, r := range radius {
		if r > 0 && !math.IsInf(float64(r), 0) {
			d = max(d, float64(r)*voxelsPerMetre)
		}
	}
	return min(d, MaxRadiusVoxels)
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
	if math.IsNaN(opt.Closing) || opt.Closing > MaxRadiusVoxels {
		return opt, fmt.Errorf("surface: closing radius %g voxels: must be at most %d", opt.Closing, MaxRadiusVoxels)
	}
	if !(opt.Smoothing >= 0) || opt.Smoothing > MaxRadiusVoxels {
		return opt, fmt.Errorf("surface: smoothing %g voxels: must be between 0 and %d", opt.Smoothing, MaxRadiusVoxels)
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	return opt, nil
}
