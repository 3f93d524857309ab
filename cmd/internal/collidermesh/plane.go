package collidermesh

import (
	"cmp"
	"math"
	"slices"

	"snowtools/levelset/geom"
)

// planeInBox returns the polygon where the boundary plane of the half-space h cuts
// box, fanned into triangles counter-clockwise seen from the open side (+Normal, the
// outward normal of the solid below it); nil when the plane misses the box.
//
// The polygon's corners are where the box's 12 edges cross the plane: an edge from
// corner a to corner b, with signed heights d = (x - Point).n of opposite signs (or
// one zero), crosses it at a + d_a/(d_a - d_b) (b - a). The section of a box by a
// plane is convex, so its corners, sorted by angle about their centroid in the
// plane, are its outline.
func planeInBox(h geom.HalfSpace, box geom.Box) *geom.Mesh {
	n := h.Normal.Unit()
	corner := func(i int) geom.Vec3 {
		p := box.Min
		for k := range 3 {
			if i&(1<<k) != 0 {
				p[k] = box.Max[k]
			}
		}
		return p
	}
	height := func(p geom.Vec3) float64 { return p.Sub(h.Point).Dot(n) }
	var pts []geom.Vec3
	for i := range 8 {
		for k := range 3 {
			j := i | 1<<k
			if j == i {
				continue // each edge once: from the corner with bit k clear
			}
			a, b := corner(i), corner(j)
			da, db := height(a), height(b)
			switch {
			case da == 0:
				pts = append(pts, a)
			case db == 0:
				pts = append(pts, b)
			case (da < 0) != (db < 0):
				pts = append(pts, a.Add(b.Sub(a).Scale(da/(da-db))))
			}
		}
	}
	if len(pts) < 3 {
		return nil
	}
	var centroid geom.Vec3
	for _, p := range pts {
		centroid = centroid.Add(p)
	}
	centroid = centroid.Scale(1 / float64(len(pts)))
	// Angles about n: e1 towards a corner, e2 = n x e1 a quarter turn on.
	e1 := pts[0].Sub(centroid)
	for _, p := range pts {
		if d := p.Sub(centroid); d.Norm() > e1.Norm() {
			e1 = d
		}
	}
	if !(e1.Norm() > 0) {
		return nil
	}
	e1 = e1.Unit()
	e2 := n.Cross(e1)
	angle := func(p geom.Vec3) float64 { d := p.Sub(centroid); return math.Atan2(d.Dot(e2), d.Dot(e1)) }
	slices.SortFunc(pts, func(a, b geom.Vec3) int { return cmp.Compare(angle(a), angle(b)) })
	// A corner on the plane is found from each of its edges: keep it once.
	tol := 1e-12 * box.Size().Norm()
	outline := pts[:1]
	for _, p := range pts[1:] {
		if p.Sub(outline[len(outline)-1]).Norm() > tol {
			outline = append(outline, p)
		}
	}
	for len(outline) > 1 && outline[len(outline)-1].Sub(outline[0]).Norm() <= tol {
		outline = outline[:len(outline)-1]
	}
	if len(outline) < 3 {
		return nil
	}
	m := &geom.Mesh{Positions: append([]geom.Vec3{centroid}, outline...)}
	for i := range outline {
		m.Triangles = append(m.Triangles, [3]int32{0, int32(1 + i), int32(1 + (i+1)%len(outline))})
	}
	return m
}
