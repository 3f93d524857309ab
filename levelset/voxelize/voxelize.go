package voxelize

import (
	"fmt"
	"math"
	"runtime"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// SignMethod chooses how the voxelizer tells inside from outside.
type SignMethod uint8

const (
	// SignAuto uses pseudonormals for a closed mesh and winding numbers otherwise.
	SignAuto SignMethod = iota
	// SignPseudonormal takes the side of the closest feature's angle-weighted
	// pseudonormal (Baerentzen and Aanaes 2005): exact and cheap on a closed mesh,
	// wrong through the holes of an open one.
	SignPseudonormal
	// SignWinding calls a point inside where its generalized winding number is at
	// least 1/2 (Jacobson, Kavan and Sorkine-Hornung 2013): meshes with holes,
	// overlaps and stray pieces still get a sensible inside.
	SignWinding
)

// NormalMethod chooses how the voxelizer computes the collider normal.
type NormalMethod uint8

const (
	// NormalGradient is the gradient of the exact signed distance: the unit vector
	// from the closest point to the voxel centre, pointing out (the pseudonormal of the
	// closest feature for a voxel on the surface). It is what central differences of
	// phi tend to as h -> 0, without their discretisation error.
	NormalGradient NormalMethod = iota
	// NormalSum26 is the normal of the Umenhoffer et al. paper, after Thuermer and
	// Wuethrich: N = sum over the 26 neighbours k of sigma_k d_k, with d_k the unit
	// direction to neighbour k and sigma_k = -1 when the neighbour is inside, 0 when
	// not; normalised. Voxels whose sum vanishes keep the gradient normal.
	NormalSum26
)

// Options are the settings of Mesh.
type Options struct {
	VoxelSize float64 // h, in metres; voxel (i, j, k) is centred at h (i, j, k)
	HalfWidth int     // the band: voxels with |phi| <= HalfWidth h are active; at least 1
	Sign      SignMethod
	Normals   NormalMethod
	Threads   int            // goroutines; 0 means one per CPU
	Topology  *geom.Topology // the mesh's topology, shared by the frames of a sequence; nil to weld the mesh by position and compute it
}

// Volumes are a mesh voxelized for the simulator, three grids on one transform.
type Volumes struct {
	// Surface is the signed distance phi in the band (negative inside), HalfWidth h
	// with the sign of the side beyond it, and -HalfWidth h in inactive tiles that
	// fill the inside below the band.
	Surface *levelset.FloatGrid
	// Velocity is the velocity of the closest surface point, interpolated from the
	// vertex velocities with its barycentric coordinates, on the band's voxels.
	Velocity *levelset.Vec3Grid
	// Normal is the unit outward normal on the band's voxels.
	Normal *levelset.Vec3Grid
	// Sign is the method that was used: SignAuto resolves to one of the others.
	Sign SignMethod
	// InsideOut reports a mesh of negative volume, whose triangles wind clockwise
	// seen from outside. Its inside is still the inside: the tests are turned around.
	InsideOut bool
	// Coincident counts the triangles left out as copies of another (see
	// coincident.go): they change no distance, and the voxelizer's time no longer
	// grows with them.
	Coincident int
}

// Mesh turns mesh m into a narrow-band level set with velocities and normals.
// Distances are exact (float64 point-triangle distances to the true closest
// triangle, ties to the lowest triangle index) and stored as float32.
//
// Copies of a triangle on the same vertices count once (see coincident.go).
//
// The stages: (1) each triangle is binned into the leaves its band reaches; (2) in
// each leaf, every voxel keeps its nearest triangle among those binned there; (3)
// the band voxels take their sign, distance, velocity and normal from their closest
// point; (3b) with winding numbers, each band voxel goes to the side w >= 1/2, a
// group of linked voxels per evaluation (windingSides); (4) the voxels of band
// leaves beyond the band take the sign of their side; (5) the blocks inside the
// mesh below the band become inside tiles.
func Mesh(m *geom.Mesh, opt Options) (*Volumes, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if !(opt.VoxelSize > 0) || math.IsInf(opt.VoxelSize, 0) {
		return nil, fmt.Errorf("voxel size %g: must be positive and finite", opt.VoxelSize)
	}
	if opt.HalfWidth < 1 {
		return nil, fmt.Errorf("band half-width %d voxels: must be at least 1", opt.HalfWidth)
	}
	lo, hi := m.Bounds()
	if span := hi.Sub(lo); max(span[0], span[1], span[2])/opt.VoxelSize > 1<<24 {
		return nil, fmt.Errorf("mesh spans %v m: more than 2^24 voxels of %g m", span, opt.VoxelSize)
	}
	for _, p := range [2]geom.Vec3{lo, hi} {
		for _, x := range p {
			if math.Abs(x)/opt.VoxelSize > 1<<30 {
				return nil, fmt.Errorf("vertex coordinate %g is beyond 2^30 voxels of %g m from the origin", x, opt.VoxelSize)
			}
		}
	}
	if opt.Threads <= 0 {
		opt.Threads = runtime.GOMAXPROCS(0)
	}
	if opt.Topology == nil {
		// Welded by exact position first, as voxelize's -weld 0: an unindexed
		// closed mesh (every triangle with its own corners) is closed.
		m, _, _ = Welded(m, 0)
		opt.Topology = geom.NewTopology(m.Triangles)
	}
	if len(opt.Topology.Across) != len(m.Triangles) {
		return nil, fmt.Errorf("topology of %d triangles given for a mesh of %d", len(opt.Topology.Across), len(m.Triangles))
	}

	coincident := findCoincident(m.Triangles, opt.Topology)
	if coincident.kept != nil {
		m = withTriangles(m, coincident.kept)
		opt.Topology = geom.NewTopology(m.Triangles)
	}
	v := newVoxelizer(m, opt, coincident.sheets > 0)
	v.bin()        // stage 1
	v.bandLeaves() // stages 2 and 3
	if v.sign == SignWinding {
		v.windingSides() // stage 3b
	}
	v.fillBeyondBand() // stage 4
	v.fillInside()     // stage 5
	if opt.Normals == NormalSum26 {
		v.sum26Normals()
	}
	c := v.collider()
	c.Coincident = coincident.dropped
	return c, nil
}
