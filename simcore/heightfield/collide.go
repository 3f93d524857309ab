package heightfield

import (
	"snowtools/levelset/geom"
	"snowtools/simcore/collider"
)

// Collision, the first stage of the paper's step: "For each column, a ray is cast
// from the bottom of the column through the vertex at the top. If the ray intersects
// a rigid object before it hits the vertex, then the rigid object has penetrated the
// surface and the top of the column is moved down to the intersection point. A flag
// is set to indicate that the column was moved, and the change in height is stored."
//
// Any simcore collider serves: the ray is marched through its signed distance phi,
// which changes no faster than distance (the Collider contract), so a step of phi
// along the ray never passes the surface. A column whose object's underside lies just
// above its top (within contactGap) is in contact too, without moving: an object
// resting in its print still holds the columns it pressed down.

// contactGap, in cells, is how far above a column's top an object may be and still
// touch it.
const contactGap = 1e-3

// minMarch, in cells, is the least step of the march: phi near a voxelized surface
// may be a small positive floor rather than the distance, and a sliver of an object
// thinner than this may be missed.
const minMarch = 0.05

// refineSteps bisections place a hit to within minMarch 2^-refineSteps cells.
const refineSteps = 16

// collide finds the contacts of every column of the window at time t: it lowers the
// pushed columns and records contact, surface, pushed and loose. It returns the
// material pushed down, as a sum of heights.
func (w *window) collide(g Grid, bottom, t float64) float64 {
	total := 0.0
	gap := contactGap * g.Cell
	for k := range w.h {
		w.contact[k], w.pushed[k], w.loose[k] = 0, 0, 0
		i, j := w.column(k)
		x, z := g.X(i), g.Z(j)
		top := w.h[k]
		lowest, hit := 0.0, int32(0)
		for _, b := range w.colliders {
			if x < b.box.Min[0] || x > b.box.Max[0] || z < b.box.Min[2] || z > b.box.Max[2] {
				continue
			}
			y0, y1 := max(bottom, b.box.Min[1]), min(top+gap, b.box.Max[1])
			if y0 > y1 {
				continue
			}
			if y, ok := firstHit(b.c, x, z, y0, y1, t, minMarch*g.Cell); ok && (hit == 0 || y < lowest) {
				lowest, hit = y, int32(b.index+1)
			}
		}
		if hit == 0 {
			continue
		}
		w.contact[k], w.surface[k] = hit, lowest
		if lowest < top {
			w.pushed[k] = top - lowest
			w.loose[k] = max(0, top-max(lowest, w.settled[k]))
			w.h[k] = lowest
			w.settled[k] = min(w.settled[k], lowest)
			total += top - lowest
		}
	}
	return total
}

// firstHit returns the lowest y in [y0, y1] where the vertical line through (x, z)
// is inside c at time t (phi <= 0), and whether there is one. It marches up by
// max(phi, minStep), then bisects the last step.
func firstHit(c collider.Collider, x, z, y0, y1, t, minStep float64) (float64, bool) {
	phiAt := func(y float64) float64 {
		phi, _, _ := c.Sample(geom.Vec3{x, y, z}, t)
		return phi
	}
	below, y := y0, y0
	for {
		phi := phiAt(y)
		if phi <= 0 {
			if y == y0 {
				return y0, true
			}
			break
		}
		if y >= y1 {
			return 0, false
		}
		below, y = y, min(y+max(phi, minStep), y1)
	}
	// phi(below) > 0 >= phi(y): bisect.
	for range refineSteps {
		mid := 0.5 * (below + y)
		if phiAt(mid) <= 0 {
			y = mid
		} else {
			below = mid
		}
	}
	return y, true
}
