package preview

import "math"

// polygon is a convex polygon of at most four vertices in buffer coordinates
// (pixels or texels; pixel (i, j) covers [i, i+1) x [j, j+1)): a triangle, or
// the quadrilateral the near plane leaves of one. Each vertex carries a value
// that is affine in buffer coordinates over the polygon: 1/z for a
// perspective view (the reciprocal of camera depth is affine on the screen
// over any plane) and the depth itself for an orthographic grid.
type polygon struct {
	n          int
	x, y, val  [4]float64
	reciprocal bool // the depth is 1/val rather than val
}

// bounds returns the pixels whose centres the polygon's bounding box holds,
// clipped to a width x height buffer.
func (p *polygon) bounds(width, height int) rect {
	xLo, yLo := math.Inf(1), math.Inf(1)
	xHi, yHi := math.Inf(-1), math.Inf(-1)
	for i := range p.n {
		xLo, xHi = min(xLo, p.x[i]), max(xHi, p.x[i])
		yLo, yHi = min(yLo, p.y[i]), max(yHi, p.y[i])
	}
	return clampRect(xLo, xHi, yLo, yHi, width, height)
}

// polygonEdge is one edge as the inside test evaluates it at a pixel centre
// (px, py). Its end points are put in a canonical order, a before b by x then
// y, whatever the polygon's winding, so that two polygons that share the edge
// compute the same raw value
//
//	e(px, py) = dx (py - ay) - dy (px - ax),   (dx, dy) = b - a,
//
// bit for bit; sign is +1 or -1 so that sign e > 0 inside. A centre exactly on
// the edge (e = 0) belongs to the polygon whose sign is +1: of two polygons
// that share an edge, exactly one covers it, so a closed mesh has neither
// holes nor double hits along its edges (the top-left rule of GPUs, in
// another form).
type polygonEdge struct {
	ax, ay, dx, dy float64
	sign           float64
}

// inside reports whether the centre (px, py) is on the polygon's side of the edge;
// rowTerm is dx (py - ay).
func (e *polygonEdge) inside(rowTerm, px float64) bool {
	v := e.sign * (rowTerm - e.dy*(px-e.ax))
	return v > 0 || v == 0 && e.sign > 0
}

// minPolygonArea is the least area, in square pixels, of a polygon that is
// drawn; thinner ones (seen edge on) cover no pixel centre reliably.
const minPolygonArea = 1e-9

// rasterize depth-tests the polygon over the pixels of r (within its bounds):
// at every pixel centre inside it, the depth z = val or 1/val from the affine
// val(px, py) = A px + B py + C is kept, with id, where it is strictly nearer
// than the buffer's. A, B and C come from the vertex triangle (0, k, k+1) of
// largest area: with d1 = v_k - v_0 and d2 = v_{k+1} - v_0 and the values'
// differences f1, f2,
//
//	A = (f1 d2.y - f2 d1.y)/det,  B = (f2 d1.x - f1 d2.x)/det,  det = d1.x d2.y - d2.x d1.y.
//
// Every value depends on the pixel and the polygon alone, not on r, so a
// polygon drawn in bands gives the same buffer as drawn whole.
func (p *polygon) rasterize(r rect, buf *depthBuffer, id int32) {
	area := 0.0
	for i := 1; i+1 < p.n; i++ {
		area += (p.x[i]-p.x[0])*(p.y[i+1]-p.y[0]) - (p.x[i+1]-p.x[0])*(p.y[i]-p.y[0])
	}
	if !(math.Abs(area) >= 2*minPolygonArea) { // also NaN
		return
	}
	winding := math.Copysign(1, area)
	var edges [4]polygonEdge
	for i := range p.n {
		j := (i + 1) % p.n
		ax, ay, bx, by, sign := p.x[i], p.y[i], p.x[j], p.y[j], winding
		if bx < ax || bx == ax && by < ay {
			ax, ay, bx, by, sign = bx, by, ax, ay, -sign
		}
		edges[i] = polygonEdge{ax: ax, ay: ay, dx: bx - ax, dy: by - ay, sign: sign}
	}
	a, b, c := p.valuePlane()
	var rowTerms [4]float64
	for y := r.y0; y <= r.y1; y++ {
		py := float64(y) + 0.5
		for i := range p.n {
			rowTerms[i] = edges[i].dx * (py - edges[i].ay)
		}
		rowVal := b*py + c
		row := int(y) * buf.width
	pixels:
		for x := r.x0; x <= r.x1; x++ {
			px := float64(x) + 0.5
			for i := range p.n {
				if !edges[i].inside(rowTerms[i], px) {
					continue pixels
				}
			}
			z := a*px + rowVal // the value; the depth itself unless reciprocal
			if p.reciprocal {
				if !(z > 0) { // only a hair outside a polygon clipped at the near plane
					continue
				}
				z = 1 / z
			}
			if k := row + int(x); float32(z) < buf.depth[k] {
				buf.depth[k] = float32(z)
				if buf.id != nil {
					buf.id[k] = id
				}
			}
		}
	}
}

// valuePlane returns A, B and C of val(px, py) = A px + B py + C (see rasterize).
func (p *polygon) valuePlane() (a, b, c float64) {
	best, bestDet := 1, 0.0
	for k := 1; k+1 < p.n; k++ {
		det := (p.x[k]-p.x[0])*(p.y[k+1]-p.y[0]) - (p.x[k+1]-p.x[0])*(p.y[k]-p.y[0])
		if math.Abs(det) > math.Abs(bestDet) {
			best, bestDet = k, det
		}
	}
	k := best
	d1x, d1y := p.x[k]-p.x[0], p.y[k]-p.y[0]
	d2x, d2y := p.x[k+1]-p.x[0], p.y[k+1]-p.y[0]
	f1, f2 := p.val[k]-p.val[0], p.val[k+1]-p.val[0]
	a = (f1*d2y - f2*d1y) / bestDet
	b = (f2*d1x - f1*d2x) / bestDet
	return a, b, p.val[0] - a*p.x[0] - b*p.y[0]
}
