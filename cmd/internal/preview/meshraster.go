package preview

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Mesh triangles are drawn into the same depth buffers as the particles' spheres:
// every triangle becomes a polygon in buffer coordinates (clipped by the near
// plane in a perspective view) whose pixel rectangle is listed in the bands it
// meets, and drawBands draws the bands in parallel, so that, as for spheres, the
// buffer depends on the mesh alone and not on the workers. In the camera's buffer
// a mesh hit carries the id meshID(t) of its triangle t; the shader finds the hit
// point and its barycentrics again from the ray.

// firstMeshID is the id of triangle 0 in a depth buffer; triangle t has
// firstMeshID - t, below the ground's and the background's ids, so that
// particles keep their indices (>= 0).
const firstMeshID = groundID - 1

// meshID returns the depth-buffer id of triangle t.
func meshID(t int32) int32 { return firstMeshID - t }

// triangleOf returns the triangle of a mesh id (id <= firstMeshID).
func triangleOf(id int32) int32 { return firstMeshID - id }

// meshNearFraction sets the near plane of a perspective view for triangles, as a
// fraction of the eye's distance to its target: parts of triangles nearer than
// that (or behind the eye) are clipped away.
const meshNearFraction = 1e-3

// meshProjection maps world points into a buffer: through the perspective view
// when view is not nil, else along the orthographic grid.
type meshProjection struct {
	view *view
	near float64 // perspective: the near plane's depth
	grid *orthoGrid
}

// cameraProjection returns the perspective projection of view v for meshes.
func cameraProjection(v *view) meshProjection {
	return meshProjection{view: v, near: max(1e-9, meshNearFraction*v.target.Sub(v.eye).Norm())}
}

// orthoProjection returns the orthographic projection along g.
func orthoProjection(g *orthoGrid) meshProjection { return meshProjection{grid: g} }

// vertex returns p in the projection's space: camera space (x, y, z) for a
// perspective view, texel coordinates and depth (tu, tv, d) for a grid.
func (pr *meshProjection) vertex(p geom.Vec3) geom.Vec3 {
	if pr.view != nil {
		return pr.view.toCamera(p)
	}
	tu, tv, d := pr.grid.toMap(p)
	return geom.Vec3{tu, tv, d}
}

// polygon sets p to the triangle whose corners, in the projection's space, are c
// (mesh vertices idx) and reports whether anything of it is left to draw.
func (pr *meshProjection) polygon(c [3]geom.Vec3, idx [3]int32, p *polygon) bool {
	p.n = 0
	if pr.view == nil {
		p.reciprocal = false
		for i := range 3 {
			p.add(c[i][0], c[i][1], c[i][2])
		}
		return true
	}
	p.reciprocal = true
	near := pr.near
	for i := range 3 {
		j := (i + 1) % 3
		a, b := c[i], c[j]
		if a[2] >= near {
			pr.addProjected(p, a)
		}
		if (a[2] >= near) != (b[2] >= near) {
			// Where the edge crosses the near plane, computed from its lower-indexed
			// end so that the two triangles that share it agree to the bit.
			if idx[j] < idx[i] {
				a, b = b, a
			}
			t := (near - a[2]) / (b[2] - a[2])
			q := a.Add(b.Sub(a).Scale(t))
			q[2] = near
			pr.addProjected(p, q)
		}
	}
	return p.n >= 3
}

// addProjected appends the camera-space point q (q.z > 0) to p as pixel
// coordinates (cx + f x/z, cy - f y/z) with the value 1/z.
func (pr *meshProjection) addProjected(p *polygon, q geom.Vec3) {
	v := pr.view
	p.add(v.cx+v.focal*q[0]/q[2], v.cy-v.focal*q[1]/q[2], 1/q[2])
}

// add appends a vertex.
func (p *polygon) add(x, y, val float64) {
	p.x[p.n], p.y[p.n], p.val[p.n] = x, y, val
	p.n++
}

// triangleItem is a triangle on its way to a buffer: its pixel rectangle and index.
type triangleItem struct {
	r rect
	t int32
}

// rasterizeMesh draws the mesh's triangles into buf through pr: the nearest
// surface per pixel, with the triangles' mesh ids when buf keeps ids.
func rasterizeMesh(m *Mesh, pr meshProjection, buf *depthBuffer, workers int) {
	verts := make([]geom.Vec3, len(m.positions))
	parallel.Ranges(workers, len(verts), splatChunk, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			verts[i] = pr.vertex(m.positions[i])
		}
	})
	corners := func(t int32) [3]geom.Vec3 {
		tri := m.triangles[t]
		return [3]geom.Vec3{verts[tri[0]], verts[tri[1]], verts[tri[2]]}
	}
	items := make([]triangleItem, len(m.triangles))
	parallel.Ranges(workers, len(items), splatChunk, func(_, lo, hi int) {
		var p polygon
		for t := lo; t < hi; t++ {
			r := emptyRect
			if pr.polygon(corners(int32(t)), m.triangles[t], &p) {
				r = p.bounds(buf.width, buf.height)
			}
			items[t] = triangleItem{r: r, t: int32(t)}
		}
	})
	drawBands(items, buf.height, workers, func(it *triangleItem) *rect { return &it.r }, func(it *triangleItem) {
		var p polygon
		pr.polygon(corners(it.t), m.triangles[it.t], &p)
		p.rasterize(it.r, buf, meshID(it.t))
	})
}

// meshHit returns, for a pixel of the camera's buffer that sees triangle t of
// m, the world-space hit point of the ray through pixel coordinates (px, py)
// and its barycentric weights (w0, w1, w2) on the triangle's corners a, b, c,
// by the Moller-Trumbore solution of eye + s d = a + w1 (b - a) + w2 (c - a):
//
//	p = d x e2,  det = e1 . p,  w1 = (o . p)/det,  w2 = (d . (o x e1))/det,  s = (e2 . (o x e1))/det
//
// with e1 = b - a, e2 = c - a, o = eye - a. A pixel centre on an edge may come
// out a hair outside the triangle: the weights are clamped to [0, 1] and
// renormalized. ok is false for a ray parallel to the triangle.
func (v *view) meshHit(m *Mesh, t int32, px, py float64) (hit geom.Vec3, w [3]float64, ok bool) {
	tri := m.triangles[t]
	a, b, c := m.positions[tri[0]], m.positions[tri[1]], m.positions[tri[2]]
	d := v.toWorld(v.rayCamera(px, py))
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if det == 0 || math.IsNaN(det) {
		return hit, w, false
	}
	o := v.eye.Sub(a)
	q := o.Cross(e1)
	w1, w2, s := o.Dot(p)/det, d.Dot(q)/det, e2.Dot(q)/det
	w = [3]float64{max(0, 1-w1-w2), min(max(w1, 0), 1), min(max(w2, 0), 1)}
	sum := w[0] + w[1] + w[2]
	w = [3]float64{w[0] / sum, w[1] / sum, w[2] / sum}
	return v.eye.Add(d.Scale(s)), w, true
}
