package voxelize

import "snowtools/levelset/geom"

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
	Point   geom.Vec3  // the closest point: Bary[0] a + Bary[1] b + Bary[2] c
	Bary    [3]float64 // barycentric coordinates of Point, each in [0, 1], summing to 1
	Feature Feature    // the face, edge or corner Point lies on
	Dist2   float64    // |p - Point|^2
}

// ClosestOnTriangle returns the point of triangle (a, b, c) nearest to p, in float64.
// It finds the Voronoi region of p among the triangle's corners, edges and face from
// signs of dot products, as in Ericson, Real-Time Collision Detection, section 5.1.5,
// so no case is decided by a near-zero division. A degenerate triangle (zero area)
// is treated as its three edges.
func ClosestOnTriangle(p, a, b, c geom.Vec3) ClosestPoint {
	t := newTriangle(a, b, c)
	return t.closest(p)
}

// triangle is a triangle prepared for many closest-point queries: its edges and
// their dot products are computed once, so a query needs two dot products.
//
// The query code works on scalars rather than Vec3 values: Go keeps arrays in
// memory, and the copies cost more than the arithmetic in this inner loop.
type triangle struct {
	a, ab, ac        geom.Vec3 // corner a and the edges b - a, c - a
	abab, abac, acac float64
	// flat marks a triangle without area, or so little that the region test's
	// products are rounding noise: it is treated as its three edges.
	flat bool
}

func newTriangle(a, b, c geom.Vec3) triangle {
	t := triangle{a: a, ab: b.Sub(a), ac: c.Sub(a)}
	t.abab, t.abac, t.acac = t.ab.Dot(t.ab), t.ab.Dot(t.ac), t.ac.Dot(t.ac)
	// |ab x ac|^2 = |ab|^2 |ac|^2 - (ab.ac)^2: sin^2 of the angle at a, times the
	// squared edge lengths. Below 1e-12 the angle is under 1e-6 radians, and the
	// triangle is within 1e-6 of its length of its edges anyway.
	area2 := t.ab.Cross(t.ac).Dot(t.ab.Cross(t.ac))
	t.flat = !(area2 > 1e-12*t.abab*t.acac)
	return t
}

// region returns the feature holding the point of the triangle nearest to p, and
// that point as a + v ab + w ac. It is Ericson's test with ab.(p-b) = ab.(p-a) - ab.ab
// and the like taken from the precomputed products.
func (t *triangle) region(px, py, pz float64) (f Feature, v, w float64) {
	if t.flat {
		return t.onEdges(geom.Vec3{px, py, pz})
	}
	apx, apy, apz := px-t.a[0], py-t.a[1], pz-t.a[2]
	d1 := t.ab[0]*apx + t.ab[1]*apy + t.ab[2]*apz // ab.(p-a)
	d2 := t.ac[0]*apx + t.ac[1]*apy + t.ac[2]*apz // ac.(p-a)
	if d1 <= 0 && d2 <= 0 {
		return FeatureVertexA, 0, 0
	}
	d3, d4 := d1-t.abab, d2-t.abac // ab.(p-b), ac.(p-b)
	if d3 >= 0 && d4 <= d3 {
		return FeatureVertexB, 1, 0
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return FeatureEdgeAB, d1 / (d1 - d3), 0
	}
	d5, d6 := d1-t.abac, d2-t.acac // ab.(p-c), ac.(p-c)
	if d6 >= 0 && d5 <= d6 {
		return FeatureVertexC, 0, 1
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return FeatureEdgeCA, 0, d2 / (d2 - d6)
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		s := (d4 - d3) / ((d4 - d3) + (d5 - d6)) // along b -> c
		return FeatureEdgeBC, 1 - s, s
	}
	sum := va + vb + vc
	return FeatureFace, vb / sum, vc / sum
}

// at returns a + v ab + w ac.
func (t *triangle) at(v, w float64) geom.Vec3 {
	return geom.Vec3{
		t.a[0] + v*t.ab[0] + w*t.ac[0],
		t.a[1] + v*t.ab[1] + w*t.ac[1],
		t.a[2] + v*t.ab[2] + w*t.ac[2],
	}
}

// closest returns the point of the triangle nearest to p.
func (t *triangle) closest(p geom.Vec3) ClosestPoint {
	f, v, w := t.region(p[0], p[1], p[2])
	return t.closestAt(p, f, v, w)
}

// closestAt returns the point of the triangle nearest to p, given what region
// returned for p.
func (t *triangle) closestAt(p geom.Vec3, f Feature, v, w float64) ClosestPoint {
	q := t.at(v, w)
	bary := [3]float64{1 - v - w, v, w}
	switch f { // exact corners, not 1 - 0 - 0 rounding elsewhere
	case FeatureVertexA:
		bary = [3]float64{1, 0, 0}
	case FeatureEdgeBC:
		bary[0] = 0
	}
	return ClosestPoint{Point: q, Bary: bary, Feature: f, Dist2: geom.Dist2(p, q)}
}

// onEdges handles a triangle without area: the nearest point of its three edges.
func (t *triangle) onEdges(p geom.Vec3) (Feature, float64, float64) {
	best, bestF, bestV, bestW := -1.0, FeatureEdgeAB, 0.0, 0.0
	try := func(f Feature, v0, w0, v1, w1 float64) { // the segment from (v0, w0) to (v1, w1)
		s, e := t.at(v0, w0), t.at(v1, w1)
		d := e.Sub(s)
		u := 0.0
		if l2 := d.Dot(d); l2 > 0 {
			u = min(max(p.Sub(s).Dot(d)/l2, 0), 1)
		}
		v, w := v0+u*(v1-v0), w0+u*(w1-w0)
		if d2 := geom.Dist2(p, t.at(v, w)); best < 0 || d2 < best {
			best, bestF, bestV, bestW = d2, f, v, w
		}
	}
	try(FeatureEdgeAB, 0, 0, 1, 0)
	try(FeatureEdgeBC, 1, 0, 0, 1)
	try(FeatureEdgeCA, 0, 1, 0, 0)
	return bestF, bestV, bestW
}
