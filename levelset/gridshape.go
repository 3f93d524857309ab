package levelset

import (
	"fmt"
	"math"
	"sync"

	"snowtools/levelset/geom"
)

// GridShape is the solid of a level-set FloatGrid (negative inside, as a VDB level
// set from the voxelizer or a DCC), as a Shape: phi is the trilinear interpolant f of
// the voxel values (FloatSampler) and the normal is grad f / |grad f|. Within the
// narrow band phi approximates the signed distance; beyond it phi is the background
// (or an inside tile's value), whose magnitude the band half-width bounds, so |phi|
// there is a lower bound of the distance. Where grad f = 0 (far outside every leaf)
// the normal is (0, 1, 0).
//
// A FloatSampler caches a leaf and is for one goroutine; GridShape keeps a pool of
// them so that it is safe for concurrent use. The grid must not change while the
// shape is in use.
type GridShape struct {
	grid     *FloatGrid
	bounds   geom.Box // see Bounds
	samplers sync.Pool
}

// NewGridShape checks that g can be a level set: a valid transform, a finite positive
// background (outside) and at least one leaf or tile.
func NewGridShape(g *FloatGrid) (*GridShape, error) {
	if err := g.Transform.Validate(); err != nil {
		return nil, err
	}
	bg := float64(g.Background)
	if !(bg > 0) || math.IsInf(bg, 0) {
		return nil, fmt.Errorf("level set background %g: must be finite and positive (outside)", bg)
	}
	if g.LeafCount() == 0 && len(g.Tiles()) == 0 {
		return nil, fmt.Errorf("level set grid is empty: no leaves or tiles")
	}
	s := &GridShape{grid: g}
	s.bounds, _ = g.WorldBounds()
	s.samplers.New = func() any { return NewFloatSampler(g) }
	return s, nil
}

// Grid returns the level set.
func (s *GridShape) Grid() *FloatGrid { return s.grid }

// Lipschitz returns a bound L on |phi(p) - phi(q)| / |p - q|. The trilinear
// interpolant of samples of a signed distance has |df/dx_a| <= 1 on every axis (each
// derivative is a weighted mean of neighbour differences divided by h), hence
// |grad f| <= sqrt(3); a little more is allowed for float32 rounding.
func (s *GridShape) Lipschitz() float64 { return math.Sqrt(3) * (1 + 1e-6) }

// Slack returns s such that |phi(p) - phi(q)| <= |p - q| + s: the trilinear
// interpolant of a band-clamped distance is within sqrt(3)/2 h of that 1-Lipschitz
// function (the corner weights w_d give sum w_d |d - p| <= sqrt(3)/2 h), so s =
// sqrt(3) h. Colliders use it to keep their pruning of far bodies right.
func (s *GridShape) Slack() float64 { return math.Sqrt(3) * s.grid.Transform.VoxelSize }

// Distance implements Shape: phi = f(p), normal = grad f / |grad f|.
func (s *GridShape) Distance(p geom.Vec3) (float64, geom.Vec3) {
	smp := s.samplers.Get().(*FloatSampler)
	f, g := smp.SampleAndGradient(p)
	s.samplers.Put(smp)
	if n := g.Unit(); n != (geom.Vec3{}) {
		return f, n
	}
	return f, geom.Vec3{0, 1, 0}
}

// Bounds implements Bounded: the box of the level set's leaves and tiles, one voxel
// wider. Beyond them every voxel is the positive background, and the trilinear
// interpolant can only be negative within a voxel of a negative sample.
func (s *GridShape) Bounds() geom.Box { return s.bounds }
