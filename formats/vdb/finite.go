package vdb

import (
	"fmt"
	"math"

	"snowtools/levelset"
)

// checkFinite returns an error naming the grid and the voxel of the first value
// that is NaN or infinite: the background, then the tiles and the leaves in Coord
// order (inactive values too, since the file stores them). OpenVDB reads such a
// file without complaint and every renderer then shows a hole or a streak, so a
// NaN velocity from a broken simulation must stop the writer, not reach the DCC.
func (g *Grid) checkFinite() error {
	if g.Float != nil {
		return firstNonFinite(g.Name, g.Float, func(v float32) bool { return isFinite(v) })
	}
	return firstNonFinite(g.Name, g.Vec3, func(v levelset.Vec3f) bool {
		return isFinite(v[0]) && isFinite(v[1]) && isFinite(v[2])
	})
}

func isFinite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func firstNonFinite[T levelset.Value](name string, g *levelset.Grid[T], finite func(T) bool) error {
	if !finite(g.Background) {
		return fmt.Errorf("vdb: grid %q: background %v is not finite", name, g.Background)
	}
	for _, t := range g.Tiles() {
		if !finite(t.Value) {
			return fmt.Errorf("vdb: grid %q: the tile of %d voxels at voxel %v holds %v, not a finite value",
				name, t.Voxels(), t.Origin, t.Value)
		}
	}
	for _, l := range g.Leaves() {
		for n, v := range l.Values {
			if !finite(v) {
				c := levelset.LeafCoord(l.Origin, n)
				return fmt.Errorf("vdb: grid %q: voxel %v (at %v m) holds %v, not a finite value",
					name, c, g.IndexToWorld(c), v)
			}
		}
	}
	return nil
}
