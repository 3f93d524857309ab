package levelset

// Feature names the part of a triangle (a, b, c) that holds a closest point: the
// inside of the face, one of its edges or one of its corners. The sign of a distance
// comes from the pseudonormal of that feature (see Pseudonormals).
type Feature uint8

// The seven features of a triangle (a, b, c).
const (
	FeatureFace Feature = iota
	FeatureEdgeAB
	FeatureEdgeBC
	FeatureEdgeCA
	FeatureVertexA
	FeatureVertexB
	FeatureVertexC
)

// ClosestPoint is the point of a triangle nearest to a query point p.
type ClosestPoint struct {
	Point   Vec3       // the closest point: Bary[0] a + Bary[1] b + Bary[2] c
	Bary    [3]float64 // barycentric coordinates of Point, each in [0, 1], summing to 1
	Feature Feature    // the face, edge or corner Point lies on
	Dist2   float64    // |p - Point|^2
}

// ClosestOnTriangle returns the point of triangle (a, b, c) nearest to p, in float64.
// It finds the Voronoi region of p among the triangle's corners, edges and face from
// signs of dot products, as in Ericson, Real-Time Collision Detection, section 5.1.5,
// so no case is decided by a near-zero division. A degenerate triangle (zero area)
// is treated as its three edges.
func ClosestOnTriangle(p, a, b, c Vec3) ClosestPoint {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return at(p, a, FeatureVertexA, [3]float64{1, 0, 0})
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return at(p, b, FeatureVertexB, [3]float64{0, 1, 0})
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		return at(p, a.Add(ab.Scale(v)), FeatureEdgeAB, [3]float64{1 - v, v, 0})
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return at(p, c, FeatureVertexC, [3]float64{0, 0, 1})
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return at(p, a.Add(ac.Scale(w)), FeatureEdgeCA, [3]float64{1 - w, 0, w})
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return at(p, b.Add(c.Sub(b).Scale(w)), FeatureEdgeBC, [3]float64{0, 1 - w, w})
	}
	sum := va + vb + vc
	if !(sum > 0) {
		return closestOnEdges(p, a, b, c)
	}
	v, w := vb/sum, vc/sum
	return at(p, a.Add(ab.Scale(v)).Add(ac.Scale(w)), FeatureFace, [3]float64{1 - v - w, v, w})
}

// at is the answer q for query p, on feature f with barycentric coordinates bary.
func at(p, q Vec3, f Feature, bary [3]float64) ClosestPoint {
	return ClosestPoint{Point: q, Bary: bary, Feature: f, Dist2: dist2(p, q)}
}

// closestOnEdges handles a triangle without area: the nearest point of its three
// edges, each a segment.
func closestOnEdges(p, a, b, c Vec3) ClosestPoint {
	best := onSegment(p, a, b, FeatureEdgeAB, 0, 1)
	for _, e := range [2]ClosestPoint{onSegment(p, b, c, FeatureEdgeBC, 1, 2), onSegment(p, c, a, FeatureEdgeCA, 2, 0)} {
		if e.Dist2 < best.Dist2 {
			best = e
		}
	}
	return best
}

// onSegment returns the point of segment (s, e) nearest to p, with barycentric weights
// placed on the triangle corners is and ie.
func onSegment(p, s, e Vec3, f Feature, is, ie int) ClosestPoint {
	d := e.Sub(s)
	t := 0.0
	if l2 := d.Dot(d); l2 > 0 {
		t = min(max(p.Sub(s).Dot(d)/l2, 0), 1)
	}
	var bary [3]float64
	bary[is] += 1 - t
	bary[ie] += t
	return at(p, s.Add(d.Scale(t)), f, bary)
}

func dist2(p, q Vec3) float64 {
	d := p.Sub(q)
	return d.Dot(d)
}
