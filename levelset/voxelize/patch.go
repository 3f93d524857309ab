package voxelize

import (
	"math"

	"snowtools/levelset/geom"
)

// How far the winding number can be from a whole number, from patches over the
// holes.
//
// The rim C of an open mesh M (findRim: its boundary as a chain, each edge with
// its net multiplicity) is a cycle: at every vertex as many edges arrive as leave.
// So is each of its connected components, and the fan S_c of triangles (X_c, a, b)
// over a component's edges a -> b, from any point X_c and taken with the edges'
// multiplicities, has that component for its boundary. M minus the fans is closed,
// and the winding number of a closed surface is a whole number off it:
//
//	w(p) = W(p) + sum over components c of w_{S_c}(p),   W(p) an integer,
//
// and since a surface of area A at distance at least D from p subtends a solid
// angle of at most A/D^2 (the integrand n.(y - p)/|y - p|^3 is at most 1/D^2),
//
//	|w(p) - W(p)| <= P = sum over c of A_c / (4 pi D_c^2),
//
// with A_c the area of the fan (each triangle times |multiplicity|) and D_c the
// distance from p to the box of the component's vertices, which holds its fan
// (X_c is one of them). Where P < 1/2 over a ball, the side of every point of the
// ball is that of W: inside (w >= 1/2) when W >= 1. W does not change along a
// path in the ball that crosses no triangle of M: crossing a fan moves W by a whole
// number and w - W by the opposite, which |w - W| < 1/2 on both sides forbids. So
// one winding number evaluated in the ball (W is the whole number nearest to it)
// decides every voxel linked to it there, however near a small hole: the bound
// falls as the hole's area over D^2, where the slope bound of rimSlope falls only
// as its length over D^2 and must then be multiplied by the path's length.

// rimPatches holds, per connected component of the rim, the box of its vertices,
// the area of its fan divided by 4 pi, and the fan's triangles.
type rimPatches struct {
	lo, hi []geom.Vec3
	weight []float64 // A_c / (4 pi)
	// fans[fanStart[c]:fanStart[c+1]] are component c's triangles.
	fans     []fanTriangle
	fanStart []int32
}

// fanTriangle is a triangle (X_c, a, b) of a fan, for its solid angle and its
// distance, with the multiplicity of its rim edge a -> b.
type fanTriangle struct {
	corners [3]geom.Vec3
	shape   triangle
	mult    float64
}

// newRimPatches returns the patches over the rim of m (see findRim), or nil when it
// has none.
func newRimPatches(m *geom.Mesh, rim meshRim) *rimPatches {
	edges, mult := rim.edges, rim.mult
	if len(edges) == 0 {
		return nil
	}
	component := rimComponents(edges)
	count := 0
	for _, c := range component {
		count = max(count, int(c)+1)
	}
	// X_c: the first vertex of the component's first edge. The triangles of the
	// fan on the edges that end at X_c have no area and are left out, so that a
	// hole of k edges has a fan of k - 2 triangles: a one-triangle hole, that
	// triangle.
	apex := make([]int32, count)
	for c := range apex {
		apex[c] = -1
	}
	p := &rimPatches{lo: make([]geom.Vec3, count), hi: make([]geom.Vec3, count), weight: make([]float64, count)}
	for c := range count {
		inf := math.Inf(1)
		p.lo[c], p.hi[c] = geom.Vec3{inf, inf, inf}, geom.Vec3{-inf, -inf, -inf}
	}
	for i, e := range edges {
		c := component[i]
		if apex[c] < 0 {
			apex[c] = e[0]
		}
		for _, v := range e {
			p.lo[c], p.hi[c] = minVec(p.lo[c], m.Positions[v]), maxVec(p.hi[c], m.Positions[v])
		}
	}
	var fans []int // the edges whose fan triangle has area, by component
	p.fanStart = make([]int32, count+1)
	for i, e := range edges {
		if c := component[i]; e[0] != apex[c] && e[1] != apex[c] {
			p.fanStart[c+1]++
			fans = append(fans, i)
		}
	}
	for c := range count {
		p.fanStart[c+1] += p.fanStart[c]
	}
	p.fans = make([]fanTriangle, len(fans))
	next := append([]int32(nil), p.fanStart[:count]...)
	for _, i := range fans {
		c := component[i]
		x, a, b := m.Positions[apex[c]], m.Positions[edges[i][0]], m.Positions[edges[i][1]]
		p.fans[next[c]] = fanTriangle{corners: [3]geom.Vec3{x, a, b}, shape: newTriangle(x, a, b), mult: float64(mult[i])}
		next[c]++
		p.weight[c] += math.Abs(float64(mult[i])) * a.Sub(x).Cross(b.Sub(x)).Norm() / (8 * math.Pi) // |a x b|/2 over 4 pi
	}
	return p
}

// fanCount returns the number of triangles in the fans of the near components of lp.
func (p *rimPatches) fanCount(lp *leafPatches) int {
	n := 0
	for _, c := range lp.near[:lp.count] {
		n += int(p.fanStart[c+1] - p.fanStart[c])
	}
	return n
}

// fansAt splits the fans of lp's near components at point x: those whose share of
// P at x is above patchLimit/8, or whose box holds x, give their winding number
// exactly (f, with the distance from x to their triangles); the others add their
// share to the far components' (bound). clearance is at most the distance from x
// to every near fan: the exact one, or the distance to the component's box.
func (p *rimPatches) fansAt(lp *leafPatches, x geom.Vec3) (f, bound, clearance float64) {
	bound, clearance = lp.far, math.Inf(1)
	var omega float64
	exact := func(c int32) {
		for i := p.fanStart[c]; i < p.fanStart[c+1]; i++ {
			fan := &p.fans[i]
			omega += fan.mult * solidAngle(fan.corners[0].Sub(x), fan.corners[1].Sub(x), fan.corners[2].Sub(x))
			clearance = min(clearance, math.Sqrt(fan.shape.closest(x).Dist2))
		}
	}
	var boxed [maxNearPatches]float64 // the box distances of the components bounded so far
	for i, c := range lp.near[:lp.count] {
		d := math.Sqrt(boxDist2(x, p.lo[c], p.hi[c]))
		boxed[i] = d
		if share := p.weight[c] / (d * d); d > 0 && share <= patchLimit/8 {
			bound += share
			continue
		}
		boxed[i] = -1
		exact(c)
	}
	if bound > patchLimit { // too much left to bounds: all exactly
		bound = lp.far
		for i, c := range lp.near[:lp.count] {
			if boxed[i] >= 0 {
				boxed[i] = -1
				exact(c)
			}
		}
	}
	for i := range lp.count {
		if boxed[i] >= 0 {
			clearance = min(clearance, boxed[i])
		}
	}
	return omega / (4 * math.Pi), bound, clearance
}

// rimComponents numbers the connected components of the edges (sharing a vertex
// joins two), from 0 in the order of their first edge.
func rimComponents(edges [][2]int32) []int32 {
	parent := map[int32]int32{} // a root has no entry
	find := func(v int32) int32 {
		for {
			p, ok := parent[v]
			if !ok {
				return v
			}
			if gp, ok := parent[p]; ok {
				parent[v] = gp // path halving
			}
			v = p
		}
	}
	for _, e := range edges {
		if a, b := find(e[0]), find(e[1]); a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	number := map[int32]int32{}
	component := make([]int32, len(edges))
	for i, e := range edges {
		root := find(e[0])
		n, ok := number[root]
		if !ok {
			n = int32(len(number))
			number[root] = n
		}
		component[i] = n
	}
	return component
}

// bound returns P over the ball of the given centre and radius, or +Inf when it
// passes limit (it stops summing there) or a component's box reaches the ball.
func (p *rimPatches) bound(centre geom.Vec3, radius, limit float64) float64 {
	sum := 0.0
	for c, weight := range p.weight {
		d := math.Sqrt(boxDist2(centre, p.lo[c], p.hi[c])) - radius
		if d <= 0 {
			return math.Inf(1)
		}
		if sum += weight / (d * d); sum > limit {
			return math.Inf(1)
		}
	}
	return sum
}

// maxNearPatches is the most components a leaf keeps to bound voxel by voxel;
// a leaf with more near it does without the patch certificate.
const maxNearPatches = 16

// leafPatches bounds P over balls inside one ball (a leaf's): the components far
// from it are summed once (far), the near ones kept to be bounded ball by ball.
type leafPatches struct {
	far   float64
	near  [maxNearPatches]int32
	count int
	ok    bool // false when the near ones are too many or the far sum too large
}

// around returns the bound of the patches over the ball of the given centre and
// radius, ready for balls inside it: a component whose share of P over the whole
// ball is above limit/64, or whose box reaches the ball, is near.
func (p *rimPatches) around(centre geom.Vec3, radius, limit float64) leafPatches {
	var lp leafPatches
	for c, weight := range p.weight {
		d := math.Sqrt(boxDist2(centre, p.lo[c], p.hi[c])) - radius
		if d > 0 && weight/(d*d) <= limit/64 {
			lp.far += weight / (d * d)
			continue
		}
		if lp.count == maxNearPatches {
			return leafPatches{}
		}
		lp.near[lp.count] = int32(c)
		lp.count++
	}
	lp.ok = lp.far <= limit/2
	return lp
}

// bound returns P over the ball of the given centre and radius, which must lie in
// the ball lp was made for, or +Inf when a near component's box reaches it.
func (lp *leafPatches) bound(p *rimPatches, centre geom.Vec3, radius float64) float64 {
	if !lp.ok {
		return math.Inf(1)
	}
	sum := lp.far
	for _, c := range lp.near[:lp.count] {
		d := math.Sqrt(boxDist2(centre, p.lo[c], p.hi[c])) - radius
		if d <= 0 {
			return math.Inf(1)
		}
		sum += p.weight[c] / (d * d)
	}
	return sum
}
