package heightfield

import (
	"fmt"
	"math"

	"snowtools/simcore/hashrand"
)

// A Terrain gives the initial height of the ground at a point (x, z). A column is
// created at its terrain height the first time the simulation touches it, and the
// terrain is asked again whenever the material budget is counted, so Height must
// always return the same value for the same point. Top bounds Height from above:
// objects higher than that cannot touch ground that nothing has raised, so its
// columns need not be created.
type Terrain interface {
	Height(x, z float64) float64
	Top() float64
}

// Flat is level ground at one height.
type Flat float64

// Height implements Terrain.
func (f Flat) Height(x, z float64) float64 { return float64(f) }

// Top implements Terrain.
func (f Flat) Top() float64 { return float64(f) }

// Noise is the paper's initial surface: "noise generated on an integer lattice and
// interpolated with cubic Catmull-Rom splines". Each lattice point (i, j) holds a
// random value in [-1, 1]; between them n(u, v) is the Catmull-Rom spline through the
// 4 x 4 nearest values. Octaves add finer copies, each of half the scale and half
// the amplitude:
//
//	height(x, z) = Base + sum_k Amplitude 2^-k n(2^k x / Scale, 2^k z / Scale),  k < Octaves
type Noise struct {
	Base      float64 // mean height (m)
	Amplitude float64 // height of the first octave's bumps (m)
	Scale     float64 // lattice spacing of the first octave (m)
	Octaves   int     // at least 1
	Seed      uint64
}

// Validate reports a scale that is not positive or an amplitude that is not finite.
func (n Noise) Validate() error {
	switch {
	case !(n.Scale > 0) || !finite(n.Scale):
		return fmt.Errorf("noise scale %g: must be > 0 (m)", n.Scale)
	case !finite(n.Amplitude) || !finite(n.Base):
		return fmt.Errorf("noise base %g and amplitude %g: must be finite", n.Base, n.Amplitude)
	case n.Octaves < 1 || n.Octaves > 16:
		return fmt.Errorf("noise octaves %d: must be in [1, 16]", n.Octaves)
	}
	return nil
}

// Height implements Terrain.
func (n Noise) Height(x, z float64) float64 {
	h, amp, f := n.Base, n.Amplitude, 1/n.Scale
	for k := range n.Octaves {
		h += amp * n.lattice(uint64(k), x*f, z*f)
		amp, f = amp/2, f*2
	}
	return h
}

// Top implements Terrain. The Catmull-Rom weights' absolute values sum to at most
// 1.25 in one dimension, so an octave of amplitude a stays within 1.25^2 a.
func (n Noise) Top() float64 { return n.Base + 1.5625*2*math.Abs(n.Amplitude) }

// noiseTag is the stream tag of the terrain's lattice values.
const noiseTag = 0x6772_6f75_6e64_0000 // "ground"

// lattice returns the Catmull-Rom interpolant of octave k's lattice values at (u, v).
func (n Noise) lattice(k uint64, u, v float64) float64 {
	fu, fv := math.Floor(u), math.Floor(v)
	i0, j0 := int(fu)-1, int(fv)-1
	wu, wv := catmullRom(u-fu), catmullRom(v-fv)
	sum := 0.0
	for b := range 4 {
		row := 0.0
		for a := range 4 {
			r := hashrand.Lattice(n.Seed, noiseTag+k, i0+a, j0+b, 0)
			row += wu[a] * (float64(r>>11)*0x1p-52 - 1)
		}
		sum += wv[b] * row
	}
	return sum
}

// catmullRom returns the weights of the four points p_-1, p_0, p_1, p_2 in the
// Catmull-Rom spline at t in [0, 1) between p_0 and p_1:
//
//	p(t) = 1/2 [(-t^3 + 2t^2 - t) p_-1 + (3t^3 - 5t^2 + 2) p_0 + (-3t^3 + 4t^2 + t) p_1 + (t^3 - t^2) p_2]
func catmullRom(t float64) [4]float64 {
	t2, t3 := t*t, t*t*t
	return [4]float64{
		0.5 * (-t3 + 2*t2 - t),
		0.5 * (3*t3 - 5*t2 + 2),
		0.5 * (-3*t3 + 4*t2 + t),
		0.5 * (t3 - t2),
	}
}

// HeightMap is a terrain sampled on a regular grid, as a 16-bit PNG height map
// gives it: sample (c, r) is the height at x = OriginX + c Cell, z = OriginZ + r Cell.
// Between samples the height is bilinear; beyond the map, that of its nearest edge.
type HeightMap struct {
	Width, Depth     int       // samples along x and z
	Heights          []float64 // metres, row-major: (c, r) at r*Width + c
	OriginX, OriginZ float64
	Cell             float64
}

// Validate reports sizes that do not match or values that are not finite.
func (m *HeightMap) Validate() error {
	if m.Width < 1 || m.Depth < 1 || len(m.Heights) != m.Width*m.Depth {
		return fmt.Errorf("height map: %d heights for %d x %d samples", len(m.Heights), m.Width, m.Depth)
	}
	if !(m.Cell > 0) || !finite(m.Cell) || !finite(m.OriginX) || !finite(m.OriginZ) {
		return fmt.Errorf("height map: cell %g and origin (%g, %g): need a finite cell > 0 and a finite origin", m.Cell, m.OriginX, m.OriginZ)
	}
	for k, h := range m.Heights {
		if !finite(h) {
			return fmt.Errorf("height map: sample (%d, %d) is %g", k%m.Width, k/m.Width, h)
		}
	}
	return nil
}

// Height implements Terrain.
func (m *HeightMap) Height(x, z float64) float64 {
	c0, tx := m.cellOf((x-m.OriginX)/m.Cell, m.Width)
	r0, tz := m.cellOf((z-m.OriginZ)/m.Cell, m.Depth)
	c1, r1 := min(c0+1, m.Width-1), min(r0+1, m.Depth-1)
	at := func(c, r int) float64 { return m.Heights[r*m.Width+c] }
	a := at(c0, r0)*(1-tx) + at(c1, r0)*tx
	b := at(c0, r1)*(1-tx) + at(c1, r1)*tx
	return a*(1-tz) + b*tz
}

// Top implements Terrain.
func (m *HeightMap) Top() float64 {
	top := math.Inf(-1)
	for _, h := range m.Heights {
		top = max(top, h)
	}
	return top
}

// cellOf splits a continuous sample coordinate u into the sample below it and the
// fraction towards the next, clamped to [0, n-1].
func (m *HeightMap) cellOf(u float64, n int) (int, float64) {
	if !(u > 0) {
		return 0, 0
	}
	if u >= float64(n-1) {
		return n - 1, 0
	}
	f := math.Floor(u)
	return int(f), u - f
}
