package simcore

import (
	"math"
	"math/rand/v2"
	"testing"

	"snowtools/levelset/geom"
)

// blockSites returns the sites of the lattice cells within Chebyshev offset reach of
// p's cell. Every site outside is more than reach away from p.
func blockSites(cs Cells, p geom.Vec3, reach int) []geom.Vec3 {
	var sites []geom.Vec3
	i, j, k := int(math.Floor(p[0])), int(math.Floor(p[1])), int(math.Floor(p[2]))
	for di := -reach; di <= reach; di++ {
		for dj := -reach; dj <= reach; dj++ {
			for dk := -reach; dk <= reach; dk++ {
				sites = append(sites, cs.site(i+di, j+dj, k+dk))
			}
		}
	}
	return sites
}

// nearestSite returns the site nearest to p among sites, by brute force. With the
// sites of blockSites(p, 2) it is the nearest of all: p's own cell's site is within
// sqrt(3) < 2.
func nearestSite(p geom.Vec3, sites []geom.Vec3) geom.Vec3 {
	best, bestD := sites[0], math.Inf(1)
	for _, s := range sites {
		if d := geom.Dist2(s, p); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// FaceDistance is exact: it equals the minimum over all sites of the 7x7x7 block of
// the distance to the bisector plane with the nearest site (a block that provably
// holds every site that matters: see FaceDistance's bound), and the ball of that
// radius lies in the nearest site's Voronoi cell (every point on a sphere of 0.999 d
// around p has the same nearest site), so d is the distance to the cell's boundary.
// The widening beyond 3x3x3 is needed: a search of those 27 sites alone is wrong at
// some of the points.
func TestCellsFaceDistanceExact(t *testing.T) {
	cs := Cells{Seed: 11}
	rng := rand.New(rand.NewPCG(2, 3))
	wrong27, worst := 0, 0.0
	n := 10000
	for range n {
		p := geom.Vec3{rng.Float64()*40 - 20, rng.Float64()*40 - 20, rng.Float64()*40 - 20}
		d := cs.FaceDistance(p)
		sites := blockSites(cs, p, 3)
		ra, want := faceDistance(p, sites)
		if 3 < ra+2*want {
			t.Fatalf("at %v the 7x7x7 block may miss a site (|p - a| %g, d %g)", p, ra, want)
		}
		worst = max(worst, math.Abs(d-want))
		if math.Abs(d-want) > 1e-12 {
			t.Fatalf("FaceDistance(%v) = %.15g, brute force over 343 sites %.15g", p, d, want)
		}
		if _, d27 := faceDistance(p, cs.appendRing(cs.appendRing(nil, cellOf(p), 0), cellOf(p), 1)); d27 != want {
			wrong27++
		}
		a := nearestSite(p, sites)
		for range 4 {
			u := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
			q := p.Add(u.Scale(0.999 * d))
			if nearestSite(q, sites) != a {
				t.Fatalf("p = %v, d = %g: the point %v at 0.999 d is in another cell", p, d, q)
			}
		}
	}
	t.Logf("%d points: largest difference from brute force %.2g; the 3x3x3 block alone is wrong at %d", n, worst, wrong27)
	if wrong27 == 0 {
		t.Logf("no point needed the wider search (it is rare)")
	}
}

// cellOf returns the lattice cell of p.
func cellOf(p geom.Vec3) [3]int {
	return [3]int{int(math.Floor(p[0])), int(math.Floor(p[1])), int(math.Floor(p[2]))}
}

// The pattern depends only on the seed and the point: the same seed gives the same
// distances, another seed other ones; sites stay inside their lattice cells.
func TestCellsDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	a, a2, b := Cells{Seed: 1}, Cells{Seed: 1}, Cells{Seed: 2}
	same := 0
	for range 2000 {
		p := geom.Vec3{rng.Float64()*10 - 5, rng.Float64()*10 - 5, rng.Float64()*10 - 5}
		d := a.FaceDistance(p)
		if d != a2.FaceDistance(p) || d != a.FaceDistance(p) {
			t.Fatalf("FaceDistance(%v) is not deterministic", p)
		}
		if d < 0 || d >= 1 {
			t.Fatalf("FaceDistance(%v) = %g: want in [0, 1) lattice units", p, d)
		}
		if b.FaceDistance(p) == d {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seeds 1 and 2 give the same distance at %d points", same)
	}
	for i := -3; i <= 3; i++ {
		s := a.site(i, 2*i, -i)
		if c := cellOf(s); c != [3]int{i, 2 * i, -i} {
			t.Errorf("site of cell (%d, %d, %d) at %v, in cell %v", i, 2*i, -i, s, c)
		}
	}
}

// The share of space on the seams is what stereology predicts from the pattern's
// face area. The faces' area per unit volume S_V is twice the number of faces a
// straight line crosses per unit length (Saltykov), counted here from the nearest
// site alone, without FaceDistance; a band of full width w around the faces fills
// S_V w of the volume, less where bands overlap near the cells' edges (a share of
// order w: measured 0.2% at w = 0.01, 2.2% at 0.02, 4.7% at 0.05 and 10.5% at 0.1
// lattice units, against a sampling error of about 2%; the tolerance is 3% + w). The measured band (2 FaceDistance < w) must match, and
// Variation.ChunkCore's t < 1 is that band in metres.
func TestCellsSeamShare(t *testing.T) {
	cs := Cells{Seed: 5}
	rng := rand.New(rand.NewPCG(6, 7))
	// Crossings along 250 random segments of length 10, in steps of 2e-3.
	crossings, length := 0, 0.0
	for range 250 {
		p := geom.Vec3{rng.Float64() * 50, rng.Float64() * 50, rng.Float64() * 50}
		u := geom.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}.Unit()
		cell, sites := cellOf(p), blockSites(cs, p, 2)
		prev := nearestSite(p, sites)
		for s := 1; s <= 5000; s++ {
			q := p.Add(u.Scale(float64(s) * 2e-3))
			if c := cellOf(q); c != cell {
				cell, sites = c, blockSites(cs, q, 2)
			}
			if a := nearestSite(q, sites); a != prev {
				crossings++
				prev = a
			}
		}
		length += 10
	}
	areaPerVolume := 2 * float64(crossings) / length
	dist := make([]float64, 100000)
	for i := range dist {
		dist[i] = cs.FaceDistance(geom.Vec3{rng.Float64() * 50, rng.Float64() * 50, rng.Float64() * 50})
	}
	for _, w := range []float64{0.01, 0.02, 0.05} {
		seam := 0
		for _, d := range dist {
			if 2*d < w {
				seam++
			}
		}
		got, want := float64(seam)/float64(len(dist)), areaPerVolume*w
		t.Logf("S_V = %.3f per lattice unit (%d crossings); seam width %.2f: %.4f of the volume, S_V w = %.4f (ratio %.3f)",
			areaPerVolume, crossings, w, got, want, got/want)
		if math.Abs(got/want-1) > 0.03+w {
			t.Errorf("seam width %g: %.4f of the volume on the seams, want about S_V w = %.4f", w, got, want)
		}
	}
	// In metres: chunks of 0.06 m and seams of 0.006 m (0.1 lattice units) have the
	// same share of points with t < 1.
	v := Variation{ChunkSize: 0.06, SeamWidth: 0.006, NoiseSeed: 5, SeamStrength: 0.5}
	seam := 0
	for range 20000 {
		p := geom.Vec3{rng.Float64() * 50, rng.Float64() * 50, rng.Float64() * 50}
		if v.ChunkCore(p.Scale(0.06)) < 1 {
			seam++
		}
		if (v.ChunkCore(p.Scale(0.06)) < 1) != (2*cs.FaceDistance(p) < 0.1) {
			t.Fatalf("ChunkCore and FaceDistance disagree at %v", p)
		}
	}
	t.Logf("chunks 0.06 m, seams 0.006 m: %.4f of the volume on the seams", float64(seam)/20000)
}
