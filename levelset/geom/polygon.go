package geom

import "math"

// FanCorners is the most corners a polygon may have for TriangulatePolygon to split
// it as a fan around its first corner: triangles, quads and pentagons, the polygons
// DCCs write, keep the triangles that readers have always made of them.
const FanCorners = 5

// TriangulatePolygon appends to triangles the n - 2 triangles of the polygon whose
// corners are positions[corners[0]], positions[corners[1]], ..., in the polygon's
// winding, and returns the extended slice.
//
// A polygon of up to FanCorners corners becomes a fan around its first corner. A
// larger one is cut by ear clipping in its best-fit plane (the plane normal to
// Newell's vector, sum over the edges of p_i x p_i+1, which is the polygon's area
// vector), in rounds: each round cuts off ears that do not touch each other all
// around the polygon, so that every round roughly halves it and the triangles stay
// local (the ears of the first round join neighbouring corners, those of the next
// one every other corner, and so on). A fan of a polygon with 450,000 corners would
// make 450,000 slivers across the whole polygon, and each of them costs a voxelizer
// as much as the polygon does.
//
// A triangle (a, b, c) is an ear when b is not a reflex corner and no reflex or
// straight corner lies inside it or on its edges: a simple polygon always has one
// (Meisters' two-ears theorem), so ear clipping stops with corners left over only
// when the polygon is not simple (it crosses or touches itself), or when its
// projection onto the plane is not (a polygon far from flat), or so close to it that
// float64 cannot tell. Such a polygon has no right triangulation: what is left of it
// gets the fan, as before. The fan is also the answer for a polygon without area.
// The search for blocking corners uses a grid over the reflex corners and visits
// only the cells a triangle crosses; should it visit more than a bound linear in the
// corners (a polygon built to defeat the grid), the rest gets the fan too.
func TriangulatePolygon(positions []Vec3, corners []int32, triangles [][3]int32) [][3]int32 {
	n := len(corners)
	if n < 3 {
		return triangles
	}
	if n > FanCorners {
		if c := newEarClipper(positions, corners); c != nil {
			triangles = c.clip(triangles)
			return c.fanRest(triangles)
		}
	}
	return appendFan(corners, triangles)
}

// appendFan appends the fan of the polygon around its first corner.
func appendFan(corners []int32, triangles [][3]int32) [][3]int32 {
	for k := 1; k+1 < len(corners); k++ {
		triangles = append(triangles, [3]int32{corners[0], corners[k], corners[k+1]})
	}
	return triangles
}

// earClipper is a polygon being cut into triangles: its corners projected onto its
// best-fit plane, in a doubly linked ring from which ears are removed.
type earClipper struct {
	corners    []int32
	xy         [][2]float64 // corner i in the plane, counter-clockwise for a simple polygon
	prev, next []int32
	removed    []bool
	blocking   []bool // reflex or straight: the corners that may lie inside an ear
	touched    []int32
	left       int // corners still in the ring
	grid       cornerGrid
	work       int // grid cells and corners visited so far
	workLimit  int
	stuck      bool // no ear was found, or the work ran out: the rest gets the fan
}

// newEarClipper projects the polygon onto its best-fit plane; it returns nil for a
// polygon without area.
func newEarClipper(positions []Vec3, corners []int32) *earClipper {
	n := len(corners)
	origin := positions[corners[0]]
	var normal Vec3 // Newell's vector, twice the area vector, about origin for precision
	for i := range n {
		p, q := positions[corners[i]].Sub(origin), positions[corners[(i+1)%n]].Sub(origin)
		normal = normal.Add(p.Cross(q))
	}
	if !(normal.Norm() > 0) || !normal.IsFinite() {
		return nil
	}
	w := normal.Unit()
	u := anyPerpendicular(w)
	v := w.Cross(u) // (u, v, w) right-handed: the polygon turns counter-clockwise in (u, v)
	c := &earClipper{corners: corners, xy: make([][2]float64, n), prev: make([]int32, n), next: make([]int32, n),
		removed: make([]bool, n), blocking: make([]bool, n), touched: make([]int32, n), left: n,
		workLimit: 1000*n + 1_000_000}
	for i := range n {
		d := positions[corners[i]].Sub(origin)
		c.xy[i] = [2]float64{d.Dot(u), d.Dot(v)}
		c.prev[i], c.next[i] = int32((i+n-1)%n), int32((i+1)%n)
		c.touched[i] = -1
	}
	var reflex []int32
	for i := range n {
		if c.blocking[i] = c.turn(int32(i)) <= 0; c.blocking[i] {
			reflex = append(reflex, int32(i))
		}
	}
	c.grid = newCornerGrid(c.xy, reflex)
	return c
}

// anyPerpendicular returns a unit vector perpendicular to the unit vector w.
func anyPerpendicular(w Vec3) Vec3 {
	axis := Vec3{1, 0, 0}
	if math.Abs(w[0]) > 0.6 {
		axis = Vec3{0, 1, 0}
	}
	return w.Cross(axis).Unit()
}

// orient is twice the signed area of the triangle (a, b, c) in the plane: positive
// when it turns counter-clockwise.
func orient(a, b, c [2]float64) float64 {
	return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
}

// turn is orient at corner i with its neighbours in the ring: positive for a convex
// corner, negative for a reflex one, zero for a straight one.
func (c *earClipper) turn(i int32) float64 {
	return orient(c.xy[c.prev[i]], c.xy[i], c.xy[c.next[i]])
}

// clip cuts ears in rounds until three corners are left (the last triangle) or no
// ear is found. Round r tries the corners queued for it in ring order; a corner
// next to an ear cut in this round waits for the next one, as do the neighbours of
// every ear cut, whose triangles changed. A round with an empty queue tries every
// corner left, since a corner no longer blocked may have become an ear.
func (c *earClipper) clip(triangles [][3]int32) [][3]int32 {
	queue := make([]int32, len(c.corners))
	for i := range queue {
		queue[i] = int32(i)
	}
	queued := make([]int32, len(c.corners)) // the round a corner is queued for, or -1
	var nextQueue []int32
	for round := int32(0); c.left > 3; round++ {
		if len(queue) == 0 {
			queue = c.ring(queue)
		}
		nextQueue = nextQueue[:0]
		cut := 0
		for _, i := range queue {
			if c.removed[i] || c.left <= 3 {
				continue
			}
			if c.touched[i] == round {
				continue // queued for the next round when its neighbour was cut
			}
			ear, ok := c.isEar(i)
			if !ok {
				c.stuck = true
				return triangles
			}
			if !ear {
				continue
			}
			a, b := c.prev[i], c.next[i]
			triangles = append(triangles, [3]int32{c.corners[a], c.corners[i], c.corners[b]})
			c.remove(i)
			cut++
			for _, j := range [2]int32{a, b} {
				c.touched[j] = round
				if queued[j] != round+1 {
					queued[j] = round + 1
					nextQueue = append(nextQueue, j)
				}
			}
		}
		if cut == 0 && len(queue) == c.left {
			c.stuck = true // every corner left was tried: none is an ear
			return triangles
		}
		queue, nextQueue = nextQueue, queue
	}
	return triangles
}

// ring returns the corners left, in ring order from the lowest index, in buf.
func (c *earClipper) ring(buf []int32) []int32 {
	buf = buf[:0]
	first := int32(0)
	for c.removed[first] {
		first++
	}
	for i := first; ; {
		buf = append(buf, i)
		if i = c.next[i]; i == first {
			return buf
		}
	}
}

// remove takes corner i out of the ring and updates its neighbours' turns. A
// neighbour that becomes reflex is not in the grid: the polygon is not simple
// (cutting an ear off a simple polygon leaves its other corners' angles no wider),
// and the work limit is spent to end the clipping.
func (c *earClipper) remove(i int32) {
	a, b := c.prev[i], c.next[i]
	c.next[a], c.prev[b] = b, a
	c.removed[i] = true
	c.left--
	for _, j := range [2]int32{a, b} {
		blocking := c.turn(j) <= 0
		if blocking && !c.blocking[j] {
			c.work = c.workLimit + 1
		}
		c.blocking[j] = blocking
	}
}

// isEar reports whether corner i is the tip of an ear; ok is false when the work
// limit is reached.
func (c *earClipper) isEar(i int32) (ear, ok bool) {
	if c.work > c.workLimit {
		return false, false
	}
	if c.turn(i) < 0 {
		return false, true
	}
	a, b := c.prev[i], c.next[i]
	pa, pi, pb := c.xy[a], c.xy[i], c.xy[b]
	blocked := false
	c.work += c.grid.visit([3][2]float64{pa, pi, pb}, func(j int32) bool {
		if j == a || j == i || j == b || c.removed[j] || !c.blocking[j] {
			return false
		}
		blocked = insideOrOn(c.xy[j], pa, pi, pb)
		return blocked
	})
	return !blocked, true
}

// insideOrOn reports whether p lies inside or on the edges of the triangle (a, b, c),
// which turns counter-clockwise or is flat.
func insideOrOn(p, a, b, c [2]float64) bool {
	for k := range 2 {
		if p[k] < min(a[k], b[k], c[k]) || p[k] > max(a[k], b[k], c[k]) {
			return false
		}
	}
	return orient(a, b, p) >= 0 && orient(b, c, p) >= 0 && orient(c, a, p) >= 0
}

// fanRest appends the fan of what clipping left (nothing when it finished), around
// the lowest-index corner left.
func (c *earClipper) fanRest(triangles [][3]int32) [][3]int32 {
	if c.left < 3 {
		return triangles
	}
	rest := c.ring(nil)
	if !c.stuck && len(rest) == 3 {
		// The last ear: the triangle in ring order from the corner after the last
		// one cut, as a fan of three corners would be.
		return append(triangles, [3]int32{c.corners[rest[0]], c.corners[rest[1]], c.corners[rest[2]]})
	}
	corners := make([]int32, len(rest))
	for k, i := range rest {
		corners[k] = c.corners[i]
	}
	return appendFan(corners, triangles)
}

// cornerGrid is a uniform grid over the plane's bounding box of some corners, about
// one cell per corner, listing the corners in each cell.
type cornerGrid struct {
	lo    [2]float64
	cell  float64 // side of a cell
	dims  [2]int
	start []int32 // cell k's corners are items[start[k]:start[k+1]]
	items []int32
}

func newCornerGrid(xy [][2]float64, corners []int32) cornerGrid {
	var g cornerGrid
	if len(corners) == 0 {
		return g
	}
	lo, hi := xy[corners[0]], xy[corners[0]]
	for _, i := range corners {
		for k := range 2 {
			lo[k], hi[k] = min(lo[k], xy[i][k]), max(hi[k], xy[i][k])
		}
	}
	g.lo = lo
	span := max(hi[0]-lo[0], hi[1]-lo[1])
	g.cell = max(math.Sqrt((hi[0]-lo[0])*(hi[1]-lo[1])/float64(len(corners))), span/float64(len(corners)), span/4096)
	if !(g.cell > 0) {
		g.cell = 1 // all in one point: one cell
	}
	for k := range 2 {
		g.dims[k] = min(int((hi[k]-lo[k])/g.cell)+1, 4096)
	}
	g.start = make([]int32, g.dims[0]*g.dims[1]+1)
	cellOf := make([]int32, len(corners))
	for n, i := range corners {
		x, y := g.cellAt(xy[i])
		cellOf[n] = int32(y*g.dims[0] + x)
		g.start[cellOf[n]+1]++
	}
	for k := 1; k < len(g.start); k++ {
		g.start[k] += g.start[k-1]
	}
	g.items = make([]int32, len(corners))
	fill := append([]int32(nil), g.start[:len(g.start)-1]...)
	for n, i := range corners {
		g.items[fill[cellOf[n]]] = i
		fill[cellOf[n]]++
	}
	return g
}

// cellAt returns the cell holding point p, clamped to the grid.
func (g *cornerGrid) cellAt(p [2]float64) (x, y int) {
	return g.index(p[0], 0), g.index(p[1], 1)
}

func (g *cornerGrid) index(v float64, axis int) int {
	k := math.Floor((v - g.lo[axis]) / g.cell)
	return int(min(max(k, 0), float64(g.dims[axis]-1)))
}

// visit calls f for the corners in the cells that the triangle t crosses, row by
// row of cells, each row from the least to the greatest x the triangle reaches in
// it, until f returns true. It returns the cells and corners visited.
func (g *cornerGrid) visit(t [3][2]float64, f func(int32) bool) int {
	if len(g.items) == 0 {
		return 1
	}
	work := 0
	ylo, yhi := min(t[0][1], t[1][1], t[2][1]), max(t[0][1], t[1][1], t[2][1])
	_, y0 := g.cellAt([2]float64{0, ylo})
	_, y1 := g.cellAt([2]float64{0, yhi})
	for y := y0; y <= y1; y++ {
		// The strip of the row, clamped to the triangle's extent (the first and last
		// rows also hold what lies beyond the grid).
		s0, s1 := g.lo[1]+float64(y)*g.cell, g.lo[1]+float64(y+1)*g.cell
		if y == y0 {
			s0 = ylo
		}
		if y == y1 {
			s1 = yhi
		}
		xlo, xhi, ok := stripExtent(t, max(s0, ylo), min(s1, yhi))
		if !ok {
			continue
		}
		// A corner on an edge at a cell's side must not be missed for the rounding
		// of the crossings.
		x0, _ := g.cellAt([2]float64{xlo - 1e-9*g.cell, 0})
		x1, _ := g.cellAt([2]float64{xhi + 1e-9*g.cell, 0})
		for x := x0; x <= x1; x++ {
			k := y*g.dims[0] + x
			work++
			for _, i := range g.items[g.start[k]:g.start[k+1]] {
				work++
				if f(i) {
					return work
				}
			}
		}
	}
	return work
}

// stripExtent returns the least and greatest x of the triangle's points with y in
// [s0, s1]: among its corners in the strip and its edges' crossings of the strip's
// two lines. ok is false when the triangle misses the strip.
func stripExtent(t [3][2]float64, s0, s1 float64) (xlo, xhi float64, ok bool) {
	xlo, xhi = math.Inf(1), math.Inf(-1)
	add := func(x float64) { xlo, xhi = min(xlo, x), max(xhi, x) }
	for k := range 3 {
		p, q := t[k], t[(k+1)%3]
		if p[1] >= s0 && p[1] <= s1 {
			add(p[0])
		}
		for _, s := range [2]float64{s0, s1} {
			if (p[1] < s) != (q[1] < s) { // the edge crosses the line y = s
				add(p[0] + (s-p[1])/(q[1]-p[1])*(q[0]-p[0]))
			}
		}
	}
	return xlo, xhi, xlo <= xhi
}
