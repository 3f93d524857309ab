package simcore

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/simcore/hashrand"
)

// Cells is a seeded cellular (Voronoi) pattern with unit lattice spacing: every
// lattice cell c = (i, j, k) holds one site s_c = c + u_c, with u_c uniform in
// [0, 1)^3 from a hash of (Seed, c), and every point belongs to the cell of its
// nearest site. The Voronoi cells are the chunks of Variation's chunk pattern and
// their faces its seams. The same Seed gives the same pattern on every machine.
type Cells struct{ Seed uint64 }

// site returns the site of lattice cell (i, j, k).
func (cs Cells) site(i, j, k int) geom.Vec3 {
	r := cellRNG{s: hashrand.Lattice(cs.Seed, tagChunks, i, j, k)}
	return geom.Vec3{float64(i) + r.float(), float64(j) + r.float(), float64(k) + r.float()}
}

// FaceDistance returns the distance from p to the nearest face of its Voronoi
// cell, in lattice units. With a the site nearest to p, the face shared with
// another site b lies in the bisector plane of a and b, at signed distance
//
//	d_b = (|p - b|^2 - |p - a|^2) / (2 |a - b|)
//
// from p, and since the cell of a is the intersection of the half-spaces d_b >= 0,
// the distance from p to its boundary is d = min over b != a of d_b (a plane that
// bounds no face lies outside the cell, so never nearer than the boundary).
//
// Only nearby sites matter: |a - b| <= |p - a| + |p - b| gives d_b >= (|p - b| -
// |p - a|) / 2, so a site farther than |p - a| + 2 d can neither be nearer than a nor
// bound a nearer face. The search visits the 3x3x3 cells around p's lattice cell
// and widens ring by ring (every site in the ring of Chebyshev offset k is at least
// k - 1 + min over axes of the distance to p's cell's faces away) until no unseen
// site is that close. The 3x3x3 block suffices at almost every point, so the usual
// cost is 27 sites; the answer is exact wherever it stops.
func (cs Cells) FaceDistance(p geom.Vec3) float64 {
	var base [3]int
	margin := math.Inf(1) // distance from p to the faces of its lattice cell
	for a := range 3 {
		f := math.Floor(p[a])
		base[a] = int(f)
		margin = min(margin, p[a]-f, f+1-p[a])
	}
	var buf [125]geom.Vec3 // the 5x5x5 block; farther rings are rarely needed
	sites := buf[:0]
	for ring := 0; ; ring++ {
		sites = cs.appendRing(sites, base, ring)
		if ring == 0 {
			continue
		}
		nearest, d := faceDistance(p, sites)
		if float64(ring)+margin >= nearest+2*d {
			return d
		}
	}
}

// appendRing appends the sites of the lattice cells at Chebyshev offset ring from
// the cell base.
func (cs Cells) appendRing(sites []geom.Vec3, base [3]int, ring int) []geom.Vec3 {
	for di := -ring; di <= ring; di++ {
		for dj := -ring; dj <= ring; dj++ {
			for dk := -ring; dk <= ring; dk++ {
				if max(absInt(di), absInt(dj), absInt(dk)) != ring {
					continue
				}
				sites = append(sites, cs.site(base[0]+di, base[1]+dj, base[2]+dk))
			}
		}
	}
	return sites
}

func absInt(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// faceDistance returns, among the given sites, the distance from p to the nearest
// one, a, and d = min over the others b of the distance from p to the bisector
// plane of a and b (see FaceDistance).
func faceDistance(p geom.Vec3, sites []geom.Vec3) (nearest, d float64) {
	ia, ra2 := 0, math.Inf(1)
	for i, s := range sites {
		if r2 := geom.Dist2(s, p); r2 < ra2 {
			ia, ra2 = i, r2
		}
	}
	a := sites[ia]
	d = math.Inf(1)
	for i, b := range sites {
		if i != ia {
			d = min(d, (geom.Dist2(b, p)-ra2)/(2*b.Sub(a).Norm()))
		}
	}
	return math.Sqrt(ra2), d
}
