package voxelize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// An exact reference for the side of every band voxel: the distance to the closest
// triangle by brute force in float64, and the generalized winding number by brute
// force over all triangles (ExactWindingNumber). It scores the sign the way issue 23
// states the acceptance: a voxel is scored when the mesh is closed (w is 0 or 1 off
// the surface) or when w is clearly inside or outside (w < 0.1 or w > 0.9); a scored
// voxel farther than 1e-3 h from the surface is wrong when phi < 0 disagrees with
// w >= 1/2, and grossly wrong when it is also farther than h.

// signTally counts what signTallyOf found.
type signTally struct {
	checked int     // band voxels compared
	scored  int     // those whose side the reference decides, beyond 1e-3 h
	wrong   int     // scored voxels on the wrong side
	gross   int     // wrong voxels farther than h from the surface
	deepest float64 // the largest distance of a wrong voxel, in voxels
	worst   levelset.Coord
	worstW  float64 // the reference winding number there
	// Voxels of open meshes with 0.1 <= w <= 0.9, which the acceptance leaves
	// unscored, and those of them on the wrong side of w = 1/2 by more than the
	// hierarchical winding number's tolerance.
	between, betweenWrong int
}

// add counts o's voxels into s (keeping s's deepest error or o's, whichever is deeper).
func (s *signTally) add(o signTally) {
	s.checked += o.checked
	s.scored += o.scored
	s.wrong += o.wrong
	s.gross += o.gross
	s.between += o.between
	s.betweenWrong += o.betweenWrong
	if o.deepest > s.deepest {
		s.deepest, s.worst, s.worstW = o.deepest, o.worst, o.worstW
	}
}

// fraction is the share of scored voxels on the wrong side.
func (s signTally) fraction() float64 {
	if s.scored == 0 {
		return 0
	}
	return float64(s.wrong) / float64(s.scored)
}

func (s signTally) String() string {
	text := fmt.Sprintf("%d of %d scored band voxels on the wrong side (%.3g%%), %d of them farther than h",
		s.wrong, s.scored, 100*s.fraction(), s.gross)
	if s.wrong > 0 {
		text += fmt.Sprintf("; the deepest %.3g h at %v (w = %.3f)", s.deepest, s.worst, s.worstW)
	}
	if s.between > 0 {
		text += fmt.Sprintf("; with 0.1 <= w <= 0.9: %d of %d on the wrong side of 1/2", s.betweenWrong, s.between)
	}
	return text
}

// signTallyOf compares the sign of c's band voxels with the exact reference: all of
// them when there are at most maxVoxels, else a fixed random sample of maxVoxels.
// closed says whether every voxel is scored.
func signTallyOf(m *geom.Mesh, c *Volumes, closed bool, maxVoxels int) signTally {
	var active []levelset.Coord
	c.Surface.ForEachActive(func(co levelset.Coord, _ float32) { active = append(active, co) })
	if len(active) > maxVoxels {
		rng := rand.New(rand.NewPCG(23, 1))
		rng.Shuffle(len(active), func(i, j int) { active[i], active[j] = active[j], active[i] })
		active = active[:maxVoxels]
	}
	return signTallyAt(m, c, closed, active)
}

// signTallyAt compares the sign of c's voxels at the given coordinates with the
// exact reference (see signTallyOf).
func signTallyAt(m *geom.Mesh, c *Volumes, closed bool, active []levelset.Coord) signTally {
	h := c.Surface.Transform.VoxelSize
	tris := make([]triangle, len(m.Triangles))
	for t, tri := range m.Triangles {
		tris[t] = newTriangle(m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]])
	}
	type verdict struct {
		scored, between, wrong bool
		dist, w                float64
	}
	verdicts := make([]verdict, len(active))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for k := range workers {
		wg.Go(func() {
			for i := k; i < len(active); i += workers {
				x := c.Surface.Transform.IndexToWorld(active[i])
				d2 := math.Inf(1)
				for t := range tris {
					d2 = min(d2, tris[t].closest(x).Dist2)
				}
				d := math.Sqrt(d2)
				if d <= 1e-3*h {
					continue
				}
				w := ExactWindingNumber(m, x)
				phi := c.Surface.Get(active[i])
				between := !closed && w >= 0.1 && w <= 0.9
				verdicts[i] = verdict{scored: !between, between: between, wrong: (phi < 0) != (w >= 0.5), dist: d / h, w: w}
			}
		})
	}
	wg.Wait()
	s := signTally{checked: len(active)}
	for i, v := range verdicts {
		if v.between {
			s.between++
			if v.wrong && math.Abs(v.w-0.5) > windingTolerance {
				s.betweenWrong++
			}
		}
		if !v.scored {
			continue
		}
		s.scored++
		if !v.wrong {
			continue
		}
		s.wrong++
		if v.dist > 1 {
			s.gross++
		}
		if v.dist > s.deepest {
			s.deepest, s.worst, s.worstW = v.dist, active[i], v.w
		}
	}
	return s
}

// lPrism returns the closed prism over the L-shaped polygon (0,0) (2,0) (2,1) (1,1)
// (1,2) (0,2), scaled by s and extruded from 0 to depth along the third axis: a
// concave edge and, for s a multiple of h, faces, edges and corners on voxel centres.
// axis rotates it so that the extrusion is along x (0), y (1) or z (2).
func lPrism(s, depth float64, axis int) *geom.Mesh {
	outline := [][2]float64{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}
	n := int32(len(outline))
	m := &geom.Mesh{}
	for _, z := range []float64{0, depth} {
		for _, p := range outline {
			q := geom.Vec3{s * p[0], s * p[1], z}
			// A cyclic permutation of the axes keeps the triangles' orientation.
			m.Positions = append(m.Positions, geom.Vec3{q[(axis+1)%3], q[(axis+2)%3], q[axis]})
		}
	}
	for i := int32(1); i+1 < n; i++ { // the outline is star-shaped from corner 0
		m.Triangles = append(m.Triangles, [3]int32{0, i + 1, i}, [3]int32{n, n + i, n + i + 1})
	}
	for i := range n {
		j := (i + 1) % n
		m.Triangles = append(m.Triangles, [3]int32{i, j, n + j}, [3]int32{i, n + j, n + i})
	}
	return m
}

// translated returns m moved by d.
func translated(m *geom.Mesh, d geom.Vec3) *geom.Mesh {
	out := &geom.Mesh{Triangles: m.Triangles}
	for _, p := range m.Positions {
		out.Positions = append(out.Positions, p.Add(d))
	}
	return out
}

// withoutTriangle returns m without triangle t: an open mesh.
func withoutTriangle(m *geom.Mesh, t int) *geom.Mesh {
	out := &geom.Mesh{Positions: m.Positions}
	out.Triangles = append(append(out.Triangles, m.Triangles[:t]...), m.Triangles[t+1:]...)
	return out
}

// revolve returns the surface that the profile, (radius, height) pairs, sweeps
// turning about the axis through base along axis (unit), in segments steps: two
// triangles a step between consecutive profile points, one where a radius is 0 (a
// pole, one vertex). With the outside on the side of increasing radius as the
// profile goes up, the triangles are counter-clockwise from outside.
func revolve(profile [][2]float64, segments int, base, axis geom.Vec3) *geom.Mesh {
	e1 := axis.Cross(geom.Vec3{0.3, 0.5, 0.8}).Unit()
	e2 := axis.Cross(e1) // (e1, e2, axis) is right-handed
	m := &geom.Mesh{}
	rings := make([][]int32, len(profile))
	for i, rh := range profile {
		for j := range segments {
			if rh[0] == 0 && j > 0 {
				rings[i] = append(rings[i], rings[i][0])
				continue
			}
			s, c := math.Sincos(2 * math.Pi * float64(j) / float64(segments))
			p := base.Add(axis.Scale(rh[1])).Add(e1.Scale(rh[0] * c)).Add(e2.Scale(rh[0] * s))
			m.Positions = append(m.Positions, p)
			rings[i] = append(rings[i], int32(len(m.Positions)-1))
		}
	}
	for i := 0; i+1 < len(profile); i++ {
		for j := range segments {
			k := (j + 1) % segments
			a, b, c, d := rings[i][j], rings[i][k], rings[i+1][k], rings[i+1][j]
			if a != b {
				m.Triangles = append(m.Triangles, [3]int32{a, b, c})
			}
			if c != d {
				m.Triangles = append(m.Triangles, [3]int32{a, c, d})
			}
		}
	}
	return m
}

// merged returns the meshes as one, without welding: overlapping and piercing
// parts stay as they are.
func merged(parts ...*geom.Mesh) *geom.Mesh {
	m := &geom.Mesh{}
	for _, p := range parts {
		first := int32(len(m.Positions))
		m.Positions = append(m.Positions, p.Positions...)
		for _, t := range p.Triangles {
			m.Triangles = append(m.Triangles, [3]int32{t[0] + first, t[1] + first, t[2] + first})
		}
	}
	return m
}

// pot is an open mesh with the troubles of a teapot: a body open at the top, a lid
// whose rim sits inside the opening's, a gap of 0.05 away, and a spout, a tube open
// at both ends, that starts inside the body and pierces its wall.
func pot(segments int) *geom.Mesh {
	up := geom.Vec3{0, 1, 0}
	body := revolve([][2]float64{{0, 0}, {0.8, 0.05}, {1, 0.4}, {0.95, 0.9}, {0.7, 1.1}}, segments, geom.Vec3{}, up)
	lid := revolve([][2]float64{{0.65, 1.12}, {0.5, 1.25}, {0.15, 1.3}, {0, 1.35}}, segments, geom.Vec3{}, up)
	spout := revolve([][2]float64{{0.15, 0}, {0.12, 0.6}, {0.08, 1.1}}, segments/2, geom.Vec3{0.5, 0.4, 0}, geom.Vec3{1, 0.8, 0.1}.Unit())
	return merged(body, lid, spout)
}
