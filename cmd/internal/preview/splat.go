package preview

import (
	"math"

	"snowtools/levelset/geom"
)

// cameraSplat draws particles as spheres seen through a perspective view.
type cameraSplat struct {
	pts    Points
	view   *view
	radius float64
}

// nearClip is the least distance, in radii, between the eye plane and the
// nearest point of a sphere that is drawn; spheres closer to (or behind) the eye
// are skipped.
const nearClip = 0.5

// footprint returns the pixels that sphere i may cover and the depth of its
// nearest point, z - r. A sphere of radius r at camera-space (x, y, z) is seen
// between the two planes through the eye that touch it and contain the y axis;
// their slopes m = x'/z' solve
//
//	(x - m z)^2 = r^2 (1 + m^2),   m = (x z -+ r sqrt(x^2 + z^2 - r^2)) / (z^2 - r^2),
//
// and likewise in y, which bounds the projected ellipse exactly.
func (s *cameraSplat) footprint(i int) (rect, float32) {
	p, ok := s.pts.position(i)
	if !ok || !(s.radius > 0) {
		return emptyRect, 0
	}
	c := s.view.toCamera(p)
	r := s.radius
	if c[2] < r*(1+nearClip) {
		return emptyRect, 0
	}
	xLo, xHi := tangentSlopes(c[0], c[2], r)
	yLo, yHi := tangentSlopes(c[1], c[2], r)
	v := s.view
	return clampRect(v.cx+v.focal*xLo, v.cx+v.focal*xHi, v.cy-v.focal*yHi, v.cy-v.focal*yLo, v.width, v.height), float32(c[2] - r)
}

// tangentSlopes returns the slopes, in increasing order, of the two lines
// through the origin that touch the circle of radius r around (a, z), z > r.
func tangentSlopes(a, z, r float64) (float64, float64) {
	den := z*z - r*r
	s := r * math.Sqrt(a*a+den)
	return (a*z - s) / den, (a*z + s) / den
}

// draw depth-tests the splat's sphere over its rectangle. The ray through
// pixel centre (px, py) is s q with q = (px - cx, cy - py, f); it meets the
// sphere |X - c| = r where
//
//	s^2 q.q - 2 s q.c + c.c - r^2 = 0,   s = (q.c - sqrt((q.c)^2 - q.q (c.c - r^2))) / q.q,
//
// and the hit's depth is z = s f. Pixels whose ray misses keep their value.
func (s *cameraSplat) draw(sp *splat, buf *depthBuffer) {
	c := s.view.toCamera(vec3Of(sp.centre))
	r := sp.r
	v := s.view
	f := v.focal
	cc := c.Dot(c) - s.radius*s.radius
	// No point of the sphere is nearer than c.z - r: pixels already holding a
	// depth at least that near are skipped before the square root.
	nearest := float32(c[2] - s.radius)
	for y := r.y0; y <= r.y1; y++ {
		// Per row, q.q = qx^2 + rowQQ and q.c = qx c.x + rowQC.
		qy := v.cy - (float64(y) + 0.5)
		rowQQ, rowQC := qy*qy+f*f, qy*c[1]+f*c[2]
		row := int(y) * buf.width
		for x := r.x0; x <= r.x1; x++ {
			if buf.depth[row+int(x)] <= nearest {
				continue
			}
			qx := float64(x) + 0.5 - v.cx
			qq, qc := qx*qx+rowQQ, qx*c[0]+rowQC
			disc := qc*qc - qq*cc
			if disc < 0 {
				continue
			}
			z := float32((qc - math.Sqrt(disc)) / qq * f)
			if k := row + int(x); z < buf.depth[k] {
				buf.depth[k], buf.id[k] = z, sp.id
			}
		}
	}
}

// vec3Of widens a stored position.
func vec3Of(p [3]float32) geom.Vec3 {
	return geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])}
}

// sphereHit returns, for a pixel of buf drawn by sphere id at depth z, the
// world-space hit point and unit normal there: the hit is (z/f) q in camera
// space, and the normal points from the sphere's centre to it.
func (v *view) sphereHit(pts Points, id int32, z float32, px, py float64) (hit, normal geom.Vec3) {
	q := v.rayCamera(px, py)
	hit = v.eye.Add(v.toWorld(q.Scale(float64(z) / v.focal)))
	centre, _ := pts.position(int(id))
	return hit, hit.Sub(centre).Unit()
}
