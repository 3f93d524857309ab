package filter

import (
	"fmt"
	"math"

	"snowtools/levelset"
)

// Offset adds delta (metres) to every value of level set g, in place: leaves, tiles and
// the background. The surface moves to where phi was -delta: delta > 0 erodes the solid
// by delta, delta < 0 dilates it. Both are exact for a signed distance within the band,
// and a dilation followed by an erosion by the same distance is a morphological closing,
// which fills gaps and crevices narrower than twice the distance and never removes
// anything.
//
// |delta| must be less than the background (the band's half-width), or the surface
// would move beyond the band, where the grid knows only the sign. The values are no
// longer a band around the new surface: Redistance rebuilds it.
func Offset(g *levelset.FloatGrid, delta float64) error {
	if !(math.Abs(delta) < float64(g.Background)) {
		return fmt.Errorf("offset: %g m: must be less than the band's half-width, %g m", delta, g.Background)
	}
	d := float32(delta)
	for _, l := range g.Leaves() {
		for n := range l.Values {
			l.Values[n] += d
		}
	}
	for _, t := range g.Tiles() {
		t.Value += d
		g.AddTile(t) // the same region: replaces the tile
	}
	g.Background += d
	return nil
}
