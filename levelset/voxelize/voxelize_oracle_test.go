package voxelize

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// The yardstick of ../shared/specs/voxelizer.md: an exact oracle (brute-force
// nearest triangle in float64 with ties to the lowest index, exact generalized
// winding numbers), against which a random sample of output voxels is scored.

// oracleAnswer is the exact answer at one point.
type oracleAnswer struct {
	dist    float64 // unsigned distance
	tri     int32
	cp      ClosestPoint
	winding float64
	// ties are the triangles within tieGap of the nearest (it included), any of
	// which an implementation may call closest: their order is down to rounding.
	ties []int32
}

// tieGap is the yardstick's float tie: a distance gap of 1e-4 h.
const tieGap = 1e-4

func oracleAt(m *geom.Mesh, p geom.Vec3, h float64) oracleAnswer {
	best := oracleAnswer{dist: math.Inf(1), tri: -1}
	dists := make([]float64, len(m.Triangles))
	for t, tri := range m.Triangles {
		cp := ClosestOnTriangle(p, m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]])
		dists[t] = math.Sqrt(cp.Dist2)
		if dists[t] < best.dist {
			best.dist, best.tri, best.cp = dists[t], int32(t), cp
		}
	}
	for t, d := range dists {
		if d <= best.dist+tieGap*h {
			best.ties = append(best.ties, int32(t))
		}
	}
	best.winding = ExactWindingNumber(m, p)
	return best
}

// closestPointOf returns p's closest point on triangle t of m.
func closestPointOf(m *geom.Mesh, t int32, p geom.Vec3) ClosestPoint {
	tri := m.Triangles[t]
	return ClosestOnTriangle(p, m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]])
}

// score is what the yardstick measures.
type score struct {
	samples          int
	maxDistErr       float64 // |phi - phi*| / h
	rmsDistErr       float64
	signErrors       int     // samples with d* > 1e-3 h on the wrong side
	deepestSignError float64 // d* / h of the worst
	signScored       int     // samples whose side the winding number decides
	maxVelErr        float64 // |v - v*| / max |v_i|
	wrongTriangles   int     // closest triangle not the oracle's, beyond a float tie
	meanNormalDeg    float64 // angle between n and s (x - cp) / |x - cp|
	maxNormalDeg     float64
	coverageMisses   int
	coverageChecked  int
}

// smoothVelocities gives vertex i the field (sin 2pi y/L, sin 2pi z/L, sin 2pi x/L):
// non-linear, so a wrong closest triangle shows in the interpolated velocity.
func smoothVelocities(m *geom.Mesh) {
	lo, hi := m.Bounds()
	L := hi.Sub(lo).Norm()
	m.Velocities = make([]geom.Vec3, len(m.Positions))
	for i, p := range m.Positions {
		m.Velocities[i] = geom.Vec3{math.Sin(2 * math.Pi * p[1] / L), math.Sin(2 * math.Pi * p[2] / L), math.Sin(2 * math.Pi * p[0] / L)}
	}
}

// scoreCollider scores n random band voxels of c and n random near-surface points
// for coverage. closed says whether the pseudonormal sign must agree everywhere.
func scoreCollider(t *testing.T, m *geom.Mesh, c *Volumes, halfWidth int, n int, closed bool) score {
	t.Helper()
	h := c.Surface.Transform.VoxelSize
	W := float64(halfWidth) * h
	maxVel := 0.0
	for _, v := range m.Velocities {
		maxVel = max(maxVel, v.Norm())
	}
	var active []levelset.Coord
	c.Surface.ForEachActive(func(co levelset.Coord, _ float32) { active = append(active, co) })
	if len(active) == 0 {
		t.Fatal("no active voxels")
	}
	var pn *Pseudonormals
	if closed {
		pn = NewPseudonormals(m, geom.NewTopology(m.Triangles))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var s score
	var sumSq, sumAngle float64
	for range n {
		co := active[rng.IntN(len(active))]
		x := c.Surface.Transform.IndexToWorld(co)
		o := oracleAt(m, x, h)
		if o.dist > W*(1+1e-9) {
			t.Errorf("voxel %v is active at distance %.4g h, beyond the band", co, o.dist/h)
			continue
		}
		s.samples++
		phi := float64(c.Surface.Get(co))
		errD := math.Abs(math.Abs(phi)-o.dist) / h
		s.maxDistErr = max(s.maxDistErr, errD)
		sumSq += errD * errD

		insideStar := o.winding >= 0.5
		decided := o.winding < 0.1 || o.winding > 0.9
		if closed {
			if o.dist > 1e-3*h && pn.Inside(x, o.tri, o.cp) != insideStar {
				t.Errorf("voxel %v: pseudonormal and winding number (%.3f) disagree", co, o.winding)
			}
			decided = true
		}
		if decided {
			s.signScored++
			if o.dist > 1e-3*h && (phi < 0) != insideStar {
				s.signErrors++
				s.deepestSignError = max(s.deepestSignError, o.dist/h)
			}
		}

		// Velocity and normal against the best of the tied triangles.
		errV, angle := math.Inf(1), math.Inf(1)
		for _, t := range o.ties {
			cp := closestPointOf(m, t, x)
			tri := m.Triangles[t]
			var vStar geom.Vec3
			for k := range 3 {
				vStar = vStar.Add(m.Velocities[tri[k]].Scale(cp.Bary[k]))
			}
			if maxVel > 0 {
				errV = min(errV, c.Velocity.Get(co).Vec3().Sub(vStar).Norm()/maxVel)
			}
			if o.dist > 1e-6*h {
				sgn := 1.0
				if phi < 0 {
					sgn = -1
				}
				want := x.Sub(cp.Point).Scale(sgn / math.Sqrt(cp.Dist2))
				got := c.Normal.Get(co).Vec3()
				angle = min(angle, math.Acos(max(-1, min(1, got.Dot(want)/got.Norm())))*180/math.Pi)
			}
		}
		if maxVel > 0 {
			s.maxVelErr = max(s.maxVelErr, errV)
			if errV > 1e-5 {
				s.wrongTriangles++
			}
		}
		if o.dist > 1e-6*h {
			sumAngle += angle
			s.maxNormalDeg = max(s.maxNormalDeg, angle)
		}
	}
	if s.samples > 0 {
		s.rmsDistErr = math.Sqrt(sumSq / float64(s.samples))
		s.meanNormalDeg = sumAngle / float64(s.samples)
	}

	// Coverage: area-weighted random surface points moved by up to W along each axis;
	// the voxel nearest each, if within the band, must be active.
	areas := make([]float64, len(m.Triangles))
	total := 0.0
	for i, tri := range m.Triangles {
		a, b, cc := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		total += b.Sub(a).Cross(cc.Sub(a)).Norm() / 2
		areas[i] = total
	}
	for range n {
		r := rng.Float64() * total
		ti := 0
		for areas[ti] < r {
			ti++
		}
		tri := m.Triangles[ti]
		u, w := rng.Float64(), rng.Float64()
		if u+w > 1 {
			u, w = 1-u, 1-w
		}
		a, b, cc := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
		q := a.Add(b.Sub(a).Scale(u)).Add(cc.Sub(a).Scale(w))
		q = q.Add(geom.Vec3{(2*rng.Float64() - 1) * W, (2*rng.Float64() - 1) * W, (2*rng.Float64() - 1) * W})
		idx := c.Surface.Transform.WorldToIndex(q)
		co := levelset.Coord{int32(math.Round(idx[0])), int32(math.Round(idx[1])), int32(math.Round(idx[2]))}
		x := c.Surface.Transform.IndexToWorld(co)
		if oracleAt(m, x, h).dist <= W {
			s.coverageChecked++
			if !c.Surface.IsActive(co) {
				s.coverageMisses++
			}
		}
	}
	return s
}

func (s score) log(t *testing.T, label string) {
	t.Logf("%s: %d samples: distance error max %.2g h, RMS %.2g h; sign errors %d of %d (deepest %.3g h); velocity error max %.2g (%d wrong triangles); normals mean %.3g deg, max %.3g deg; coverage %d missing of %d",
		label, s.samples, s.maxDistErr, s.rmsDistErr, s.signErrors, s.signScored, s.deepestSignError, s.maxVelErr, s.wrongTriangles,
		s.meanNormalDeg, s.maxNormalDeg, s.coverageMisses, s.coverageChecked)
}

// checkTargets applies the targets of the yardstick (float32 storage).
func (s score) checkTargets(t *testing.T) {
	t.Helper()
	if s.maxDistErr > 1e-3 || s.rmsDistErr > 1e-4 {
		t.Errorf("distance error max %.3g h, RMS %.3g h: want <= 1e-3 h and 1e-4 h", s.maxDistErr, s.rmsDistErr)
	}
	if s.signErrors > 0 {
		t.Errorf("%d sign errors, the deepest %.3g h from the surface", s.signErrors, s.deepestSignError)
	}
	if s.maxVelErr > 1e-5 {
		t.Errorf("velocity error %.3g of max |v_i|: want <= 1e-5", s.maxVelErr)
	}
	if s.coverageMisses > 0 {
		t.Errorf("%d of %d near-surface voxels within the band are missing", s.coverageMisses, s.coverageChecked)
	}
}
