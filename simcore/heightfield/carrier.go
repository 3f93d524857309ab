package heightfield

import (
	"math"
	"math/rand/v2"

	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// The paper picks material up with the object's triangles: "Each triangle of the
// object that is in contact with the ground picks up a volume of the ground material
// during contact ... When the triangle is no longer in contact with the ground, it
// drops the attached material as particles according to an exponential decay rate."
// Our colliders are signed distances, not triangle meshes, so the triangles are
// made from the contact itself: a cell whose four corner columns touch the same
// object gives a carrier, the quad of the object's underside over that cell (two
// triangles through the four points where the columns' rays met the object). From
// then on the carrier rides on the object: each step its corners move with the
// object's velocity and are put back on its surface (x - phi n).
//
// A carrier is matched to a contact cell by where its centre is now, so a foot that
// stays down, slides or comes down again keeps its carriers, and a wheel's leave the
// ground at the back as it rolls.

// carrier is a piece of an object's surface that carries ground material.
type carrier struct {
	collider int          // index into Config.Colliders
	corner   [4]geom.Vec3 // (i, j), (i+1, j), (i+1, j+1), (i, j+1) of its cell, on the object
	cell     [2]int       // the cell it last touched
	touching bool
	left     float64 // t_c: when it last touched the ground
	load     float64 // volume on it now (m^3)
	full     float64 // v of (3): the load when it left the ground
	due      float64 // volume (3) has released that is not yet a whole particle
}

// contactCell is a cell whose four corner columns touch the same object, with the
// height of the object's underside over each corner, in carrier corner order.
type contactCell struct {
	collider int
	surface  [4]float64
}

// cellCorners are the offsets of a cell's corners in carrier corner order.
var cellCorners = [4][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}}

// contactCells adds the window's contact cells to cells and its contact columns to
// touched.
func (w *window) contactCells(cells map[[2]int]contactCell, touched map[[2]int]bool) {
	for k, c := range w.contact {
		if c == 0 {
			continue
		}
		i, j := w.column(k)
		touched[[2]int{i, j}] = true
		cc := contactCell{collider: int(c - 1)}
		whole := true
		for n, o := range cellCorners {
			q, ok := w.index(i+o[0], j+o[1])
			if !ok || w.contact[q] != c {
				whole = false
				break
			}
			cc.surface[n] = w.surface[q]
		}
		if whole {
			cells[[2]int{i, j}] = cc
		}
	}
}

// area returns the area of the carrier's two triangles, (0, 1, 2) and (0, 2, 3).
func (c *carrier) area() (float64, float64) {
	a := triangleArea(c.corner[0], c.corner[1], c.corner[2])
	b := triangleArea(c.corner[0], c.corner[2], c.corner[3])
	return a, b
}

func triangleArea(a, b, c geom.Vec3) float64 { return 0.5 * b.Sub(a).Cross(c.Sub(a)).Norm() }

// centreCell returns the cell under the centre of the carrier.
func (c *carrier) centreCell(g Grid) [2]int {
	return g.cellUnder(c.at([4]float64{0.25, 0.25, 0.25, 0.25}))
}

// cellUnder returns the cell whose corners are the columns around x's (x, z).
func (g Grid) cellUnder(x geom.Vec3) [2]int {
	return [2]int{int(math.Floor((x[0] - g.OriginX) / g.Cell)), int(math.Floor((x[2] - g.OriginZ) / g.Cell))}
}

// ride moves the carrier's corners with its object from time t to t + dt: a step of
// the object's velocity, then back onto its surface.
func (c *carrier) ride(col collider.Collider, t, dt, cell float64) {
	for n, p := range c.corner {
		_, _, v := col.Sample(p, t)
		q := p.Add(v.Scale(dt))
		if phi, normal, _ := col.Sample(q, t+dt); math.Abs(phi) < cell {
			q = q.Sub(normal.Scale(phi))
		}
		c.corner[n] = q
	}
}

// place puts the carrier on contact cell (i, j).
func (c *carrier) place(g Grid, cell [2]int, cc contactCell) {
	for n, o := range cellCorners {
		i, j := cell[0]+o[0], cell[1]+o[1]
		c.corner[n] = geom.Vec3{g.X(i), cc.surface[n], g.Z(j)}
	}
	c.cell, c.collider, c.touching = cell, cc.collider, true
}

// pointOn returns a point uniform over the carrier's quad: a triangle chosen by
// area, then the paper's barycentric coordinates (4)-(7),
//
//	b_a = 1 - sqrt(rho_a),  b_b = rho_b (1 - b_a),  b_c = 1 - (b_a + b_b),
//
// returned as the weights of the four corners, so that the same point can be taken
// on the carrier at the start and at the end of a step.
func (c *carrier) pointOn(rng *rand.Rand) [4]float64 {
	a0, a1 := c.area()
	tri := [3]int{0, 1, 2}
	if rng.Float64()*(a0+a1) >= a0 {
		tri = [3]int{0, 2, 3}
	}
	ba := 1 - math.Sqrt(rng.Float64())
	bb := rng.Float64() * (1 - ba)
	bc := 1 - (ba + bb)
	var wts [4]float64
	wts[tri[0]], wts[tri[1]], wts[tri[2]] = ba, bb, bc
	return wts
}

// at returns the point with corner weights wts.
func (c *carrier) at(wts [4]float64) geom.Vec3 {
	var p geom.Vec3
	for n, w := range wts {
		p = p.Add(c.corner[n].Scale(w))
	}
	return p
}
