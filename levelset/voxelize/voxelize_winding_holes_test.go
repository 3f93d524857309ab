package voxelize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// The fans of rimPatches close the mesh: at random points the exact winding number
// minus the fans' is a whole number (to 1e-9), and each component's fan subtends at
// most its area over the squared distance to its box (the bound P is made of).
func TestFansCloseTheRim(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	box := geom.BoxMesh(geom.Vec3{0, 0, 0}, geom.Vec3{1, 1, 1})
	flipped := &geom.Mesh{Positions: box.Positions, Triangles: append([][3]int32(nil), box.Triangles...)}
	flipped.Triangles[5] = [3]int32{box.Triangles[5][0], box.Triangles[5][2], box.Triangles[5][1]}
	for _, tc := range []struct {
		name string
		m    *geom.Mesh
	}{
		{"sphere with a hole", geom.OpenSphereMesh(geom.Vec3{0.1, 0, 0}, 1, 16, 32, 4)},
		{"spot without every 50th triangle", loadSpot(t).WithoutEvery(50)},
		{"pot", pot(24)},
		{"box with a triangle turned over", flipped},
		{"soup of 40 triangles", randomSoup(rng, 40)},
	} {
		p := newRimPatches(tc.m, findRim(tc.m.Triangles, geom.NewTopology(tc.m.Triangles)))
		lo, hi := tc.m.Bounds()
		worst := 0.0
		for range 300 {
			var x geom.Vec3
			for k := range 3 {
				x[k] = lo[k] + (hi[k]-lo[k])*(1.4*rng.Float64()-0.2)
			}
			fans := 0.0
			for c := range p.weight {
				fc := 0.0
				for i := p.fanStart[c]; i < p.fanStart[c+1]; i++ {
					f := &p.fans[i]
					fc += f.mult * solidAngle(f.corners[0].Sub(x), f.corners[1].Sub(x), f.corners[2].Sub(x)) / (4 * math.Pi)
				}
				if d2 := boxDist2(x, p.lo[c], p.hi[c]); d2 > 0 && math.Abs(fc) > p.weight[c]/d2+1e-15 {
					t.Errorf("%s: component %d subtends %.6g at %v, above its bound %.6g", tc.name, c, fc, x, p.weight[c]/d2)
				}
				fans += fc
			}
			rest := ExactWindingNumber(tc.m, x) - fans
			worst = max(worst, math.Abs(rest-math.Round(rest)))
		}
		t.Logf("%s: %d rim components; |w - fans - W| at most %.2g", tc.name, len(p.weight), worst)
		if worst > 1e-9 {
			t.Errorf("%s: the winding number minus the fans' is %.3g from a whole number", tc.name, worst)
		}
	}
}

// Around many one-triangle holes (spot without every 50th triangle), where the
// slope of w allows no certificate beyond a voxel or two, decideNearHoles decides
// many leaves from W (at 48 across a leaf is near too many holes for half of them); every band voxel near a hole that the reference scores is on
// its side, and on w's side of 1/2 wherever 0.1 <= w <= 0.9 beyond the tolerance.
func TestSignsNearSmallHoles(t *testing.T) {
	samples := 1500
	resolutions := []int{48, 96}
	if testing.Short() {
		samples, resolutions = 400, resolutions[:1]
	}
	spot := loadSpot(t)
	m := spot.WithoutEvery(50)
	var removed []triangle
	for i, tri := range spot.Triangles {
		if (i+1)%50 == 0 {
			removed = append(removed, newTriangle(spot.Positions[tri[0]], spot.Positions[tri[1]], spot.Positions[tri[2]]))
		}
	}
	lo, hi := m.Bounds()
	span := hi.Sub(lo)
	for _, res := range resolutions {
		h := max(span[0], span[1], span[2]) / float64(res)
		shifts := []geom.Vec3{{}, {0.37 * h, 0.19 * h, 0.05 * h}}
		if res > resolutions[0] {
			shifts = shifts[:1] // the finer grid unmoved only, for time
		}
		for _, shift := range shifts {
			moved := translated(m, shift)
			c, holeLeaves, leaves, contradicted := voxelizeCountingHoleLeaves(t, moved, Options{VoxelSize: h, HalfWidth: 3, Threads: 2})
			var near []levelset.Coord
			c.Surface.ForEachActive(func(co levelset.Coord, _ float32) {
				x := c.Surface.IndexToWorld(co).Sub(shift)
				for i := range removed {
					if removed[i].closest(x).Dist2 <= 9*h*h {
						near = append(near, co)
						return
					}
				}
			})
			rng := rand.New(rand.NewPCG(uint64(res), 5))
			rng.Shuffle(len(near), func(i, j int) { near[i], near[j] = near[j], near[i] })
			s := signTallyAt(moved, c, false, near[:min(len(near), samples)])
			label := fmt.Sprintf("%d voxels across, moved %.2g h: %d of %d leaves near holes, %d band voxels within 3 h of one",
				res, shift.Norm()/h, holeLeaves, leaves, len(near))
			t.Logf("%s: %v", label, s)
			if s.wrong > 0 || s.betweenWrong > 0 {
				t.Errorf("%s: %v", label, s)
			}
			if holeLeaves < leaves/4 || contradicted > 0 {
				t.Errorf("%s: decideNearHoles took too few leaves, or %d groups contradicted the bounds", label, contradicted)
			}
		}
	}
}

// Holes that are not flat, whose fans bend: a box without the six triangles at a
// corner (a hole across three faces, its fan through the box's middle) and a
// sphere without the stars of a few vertices. Every band voxel (a sample on the
// sphere) is on the reference's side, and no group's evaluation contradicts the
// bounds (which would send it to the voxel-by-voxel path that hides the error).
func TestSignsAroundBentHoles(t *testing.T) {
	box := geom.BoxMesh(geom.Vec3{0, 0, 0}, geom.Vec3{1, 0.75, 0.5})
	corner := &geom.Mesh{Positions: box.Positions}
	for _, tri := range box.Triangles {
		if tri[0] != 0 && tri[1] != 0 && tri[2] != 0 {
			corner.Triangles = append(corner.Triangles, tri)
		}
	}
	sphere := geom.SphereMesh(geom.Vec3{0.1, 0.2, 0.3}, 1, 24, 48)
	starred := &geom.Mesh{Positions: sphere.Positions}
	for _, tri := range sphere.Triangles {
		if tri[0]%97 != 50 && tri[1]%97 != 50 && tri[2]%97 != 50 {
			starred.Triangles = append(starred.Triangles, tri)
		}
	}
	for _, tc := range []struct {
		name    string
		m       *geom.Mesh
		h       float64
		samples int
	}{
		{"box without a corner", corner, 1.0 / 24, 1 << 30},
		{"box without a corner", corner, 0.1, 1 << 30},
		{"sphere without vertex stars", starred, 2.0 / 64, 3000},
	} {
		for _, shift := range []geom.Vec3{{}, {0.37 * tc.h, 0.19 * tc.h, 0.05 * tc.h}} {
			m := translated(tc.m, shift)
			c, holeLeaves, leaves, contradicted := voxelizeCountingHoleLeaves(t, m, Options{VoxelSize: tc.h, HalfWidth: 3, Threads: 2})
			s := signTallyOf(m, c, false, tc.samples)
			label := fmt.Sprintf("%s, h = %.3g, moved %.2g h: %d of %d leaves near holes", tc.name, tc.h, shift.Norm()/tc.h, holeLeaves, leaves)
			t.Logf("%s: %v", label, s)
			if s.wrong > 0 || s.betweenWrong > 0 {
				t.Errorf("%s: %v", label, s)
			}
			if holeLeaves == 0 || contradicted > 0 {
				t.Errorf("%s: %d groups contradicted the bounds", label, contradicted)
			}
		}
	}
}

// voxelizeCountingHoleLeaves is Mesh under winding numbers, counting the leaves
// that decideNearHoles decided and the groups whose evaluation contradicted the
// bounds there.
func voxelizeCountingHoleLeaves(t *testing.T, m *geom.Mesh, opt Options) (c *Volumes, holeLeaves, leaves, contradicted int) {
	t.Helper()
	opt.Sign = SignWinding
	opt.Topology = geom.NewTopology(m.Triangles)
	v := newVoxelizer(m, opt, false)
	v.bin()
	v.bandLeaves()
	for _, l := range v.leaves {
		v.decideGroups(l)
		if l.sides.holes != nil {
			holeLeaves++
			contradicted += l.sides.holes.contradicted
		}
	}
	for _, l := range v.leaves {
		v.decideNearVoxels(l)
	}
	v.fillBeyondBand()
	v.fillInside()
	return v.collider(), holeLeaves, len(v.leaves), contradicted
}
