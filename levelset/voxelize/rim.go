package voxelize

import (
	"math"
	"slices"

	"snowtools/levelset/geom"
)

// How fast the winding number can change, from the rim of the mesh alone.
//
// The solid angle Omega(x) that a surface S subtends at x is the magnetic scalar
// potential of a unit current around its boundary curve dS, so its gradient is the
// Biot-Savart integral over that curve alone:
//
//	grad Omega(x) = integral over dS of dl x (x - y) / |x - y|^3,
//	|grad w(x)| <= (1/4pi) integral over dS of |dl| / |x - y|^2.
//
// Summed over the triangles of a mesh, an edge that two triangles run along in
// opposite directions cancels: only the rim is left, each edge counted by its net
// multiplicity (1 on the boundary of a hole, 2 where two triangles run the same way,
// 0..k where k triangles meet). A closed, consistently oriented mesh has no rim, and
// w is constant off its surface. For a segment e at distance at least D from a
// ball, the integral over e at any point of the ball is at most min(|e|/D^2, pi/D):
// the integrand is at most 1/(D^2 + s^2) at arc length s from e's nearest point.
//
// Far from a bundle of rim edges within radius rho of a centre c, whose oriented
// edges (times their multiplicities) sum to J and whose lengths sum to L, the field
// is at most |J| / R^2 + 2 rho L / (R - rho)^3 at distance R from c: the first term
// is the bundle seen as one straight current from c, the second what moving each
// element to c changes, by the slope 2/r^3 of (x - y)/|x - y|^3. Where a bundle's
// currents cancel, as around a closed loop or along a lid's rim that runs beside the
// rim of the opening it covers, the bound falls as 1/R^3 instead of 1/R^2.

// rimSlope bounds |grad w| over balls, from the rim edges in a BVH (each edge a
// triangle (a, b, b) without area) whose nodes carry the sums of their edges.
type rimSlope struct {
	bvh        *BVH
	edgeWeight []float64 // per rim edge (the BVH's triangle index): |multiplicity| / (4 pi)
	edgeLength []float64
	nodes      []rimNode // per BVH node
}

// rimNode is what the bound needs of a node's edges, each divided by 4 pi.
type rimNode struct {
	weight float64   // L: the sum of |multiplicity| |e|
	net    float64   // |J|, J the sum of the oriented edges times their multiplicities
	centre geom.Vec3 // c: the middle of the node's box
	radius float64   // rho: half its diagonal
}

// newRimSlope returns the slope bound of the rim of m (see findRim), or nil when
// there is none (w is then constant off the surface).
func newRimSlope(m *geom.Mesh, rim meshRim) *rimSlope {
	edges, mult := rim.edges, rim.mult
	if len(edges) == 0 {
		return nil
	}
	segments := &geom.Mesh{Positions: m.Positions, Triangles: make([][3]int32, len(edges))}
	r := &rimSlope{edgeWeight: make([]float64, len(edges)), edgeLength: make([]float64, len(edges))}
	current := make([]geom.Vec3, len(edges))
	for i, e := range edges {
		segments.Triangles[i] = [3]int32{e[0], e[1], e[1]}
		r.edgeWeight[i] = math.Abs(float64(mult[i])) / (4 * math.Pi)
		along := m.Positions[e[1]].Sub(m.Positions[e[0]])
		r.edgeLength[i] = along.Norm()
		current[i] = along.Scale(float64(mult[i]) / (4 * math.Pi))
	}
	r.bvh = NewBVH(segments)
	nodes := r.bvh.nodes
	r.nodes = make([]rimNode, len(nodes))
	net := make([]geom.Vec3, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- { // children come after their parent
		nd, rn := &nodes[i], &r.nodes[i]
		rn.centre = nd.lo.Add(nd.hi).Scale(0.5)
		rn.radius = nd.hi.Sub(nd.lo).Norm() / 2
		if nd.count == 0 {
			rn.weight, net[i] = r.nodes[i+1].weight+r.nodes[nd.first].weight, net[i+1].Add(net[nd.first])
		} else {
			for s := nd.first; s < nd.first+nd.count; s++ {
				e := r.bvh.tri[s]
				rn.weight += r.edgeWeight[e] * r.edgeLength[e]
				net[i] = net[i].Add(current[e])
			}
		}
		rn.net = net[i].Norm()
	}
	return r
}

// meshRim is the rim of a mesh: its edges (lower vertex index first) and their net
// multiplicities. Found once per mesh, it serves both the slope bound (rimSlope) and
// the patches that close the holes (rimPatches).
type meshRim struct {
	edges [][2]int32
	mult  []int32
}

// findRim returns the edges of the mesh's rim and their net multiplicities: the
// edges that topo finds on a boundary or non-manifold, with the triangles that run
// along each summed as +1 from its lower vertex index to its higher and -1 back.
func findRim(triangles [][3]int32, topo *geom.Topology) meshRim {
	var edges [][2]int32
	var mult []int32
	type halfEdge struct {
		lo, hi int32
		dir    int32 // +1 from lo to hi, -1 back
	}
	var open []halfEdge
	for t, across := range topo.Across {
		for e, o := range across {
			if o >= 0 {
				continue
			}
			a, b := triangles[t][e], triangles[t][(e+1)%3]
			h := halfEdge{lo: a, hi: b, dir: 1}
			if a > b {
				h = halfEdge{lo: b, hi: a, dir: -1}
			}
			open = append(open, h)
		}
	}
	slices.SortFunc(open, func(x, y halfEdge) int {
		if x.lo != y.lo {
			return int(x.lo - y.lo)
		}
		return int(x.hi - y.hi)
	})
	for i := 0; i < len(open); {
		j, net := i, int32(0)
		for ; j < len(open) && open[j].lo == open[i].lo && open[j].hi == open[i].hi; j++ {
			net += open[j].dir
		}
		if net != 0 && open[i].lo != open[i].hi {
			edges = append(edges, [2]int32{open[i].lo, open[i].hi})
			mult = append(mult, net)
		}
		i = j
	}
	return meshRim{edges, mult}
}

// bound returns G >= |grad w| at every point within radius of centre, or +Inf when
// that bound passes limit (it stops summing there) or a rim edge may reach the ball. A node of the tree far enough from the ball adds a far bound
// (farBound); nearer nodes are opened, down to single edges, each at its own
// distance from the ball.
func (r *rimSlope) bound(centre geom.Vec3, radius, limit float64) float64 {
	if r == nil {
		return 0
	}
	var buf [64]int32
	stack := append(buf[:0], 0)
	g := 0.0
	for len(stack) > 0 {
		if g > limit {
			return math.Inf(1)
		}
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &r.bvh.nodes[i]
		if far := r.farBound(i, centre, radius); far < math.Inf(1) {
			g += far
			continue
		}
		if nd.count == 0 {
			stack = append(stack, nd.first, i+1)
			continue
		}
		for s := nd.first; s < nd.first+nd.count; s++ {
			c := &r.bvh.pos[s]
			d := math.Sqrt(segmentDist2(centre, c[0], c[1])) - radius
			if d <= 0 {
				return math.Inf(1)
			}
			e := r.bvh.tri[s]
			g += r.edgeWeight[e] * min(r.edgeLength[e]/(d*d), math.Pi/d)
		}
	}
	if g > limit {
		return math.Inf(1)
	}
	return g
}

// rimOpening is how many times its own size a node must be from the ball for a far
// bound: nearer nodes are opened, which costs more but bounds tighter. Measured at
// random points (TestRimSlopeBoundsTheGradient), 2 leaves the bound 3 times |grad w|
// on average around a sphere with a hole and 19 times around the pot, whose lid's
// rim runs beside the opening's; 1 doubles that (and the evaluations near rims by a
// quarter), 4 gains nothing.
const rimOpening = 2

// farBound returns node i's far bound over the ball of the given centre and radius:
// L/D^2 when the node's box is farther from the ball than rimOpening times its
// diagonal, the smaller of that and the bundle bound when its centre is farther
// than rimOpening times its diameter; +Inf when neither applies.
func (r *rimSlope) farBound(i int32, centre geom.Vec3, radius float64) float64 {
	nd, rn := &r.bvh.nodes[i], &r.nodes[i]
	far := math.Inf(1)
	size := rimOpening * 2 * rn.radius
	if d := math.Sqrt(boxDist2(centre, nd.lo, nd.hi)) - radius; d > size {
		far = rn.weight / (d * d)
	}
	if R := rn.centre.Sub(centre).Norm() - radius; R > size {
		gap := R - rn.radius
		far = min(far, rn.net/(R*R)+2*rn.radius*rn.weight/(gap*gap*gap))
	}
	return far
}

// segmentDist2 returns the squared distance from p to the segment from a to b.
func segmentDist2(p, a, b geom.Vec3) float64 {
	ab := b.Sub(a)
	t := 0.0
	if l2 := ab.Dot(ab); l2 > 0 {
		t = min(max(p.Sub(a).Dot(ab)/l2, 0), 1)
	}
	return geom.Dist2(p, a.Add(ab.Scale(t)))
}
