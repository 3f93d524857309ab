package preview

import (
	"math"
	"runtime"

	"snowtools/levelset/geom"
	"snowtools/levelset/parallel"
)

// Points is one particle frame to render.
type Points struct {
	// Pos holds x y z per particle, interleaved, in metres (Y up). Particles with
	// a NaN or infinite coordinate are not drawn.
	Pos []float32
	// Color holds r g b (sRGB, 0-255) per particle, interleaved. Nil, or shorter
	// than three bytes per particle, draws every particle as snow: a slightly
	// blue white, sRGB (236, 241, 250).
	Color []uint8
	// Radius is every particle's radius in metres; about half the particle
	// spacing makes dense snow read as a closed surface. Without a positive
	// radius nothing is drawn.
	Radius float32
}

// snowColor is the sRGB albedo of particles without a colour.
var snowColor = [3]uint8{236, 241, 250}

// Len returns the number of particles, len(Pos)/3.
func (p Points) Len() int { return len(p.Pos) / 3 }

// position returns particle i's centre and whether it is finite.
func (p Points) position(i int) (geom.Vec3, bool) {
	c := geom.Vec3{float64(p.Pos[3*i]), float64(p.Pos[3*i+1]), float64(p.Pos[3*i+2])}
	return c, c.IsFinite()
}

// hasColor reports whether Color holds a colour for every particle.
func (p Points) hasColor() bool { return len(p.Color) >= 3*p.Len() && p.Len() > 0 }

// Bounds returns the smallest box that holds every drawable particle's sphere:
// the finite centres' box grown by Radius on each side. ok is false when no
// particle is drawable. Framing a sequence with the union of its frames' Bounds
// keeps the camera still.
func (p Points) Bounds() (lo, hi geom.Vec3, ok bool) {
	return p.bounds(runtime.GOMAXPROCS(0))
}

// boundsChunk is the number of particles one worker reduces at a time.
const boundsChunk = 1 << 16

func (p Points) bounds(workers int) (lo, hi geom.Vec3, ok bool) {
	n := p.Len()
	chunks := (n + boundsChunk - 1) / boundsChunk
	los := make([][3]float32, chunks)
	his := make([][3]float32, chunks)
	parallel.Ranges(workers, n, boundsChunk, func(_, a, b int) {
		inf := float32(math.Inf(1))
		l, h := [3]float32{inf, inf, inf}, [3]float32{-inf, -inf, -inf}
		for i := a; i < b; i++ {
			x, y, z := p.Pos[3*i], p.Pos[3*i+1], p.Pos[3*i+2]
			if s := x + y + z; s-s != 0 { // NaN or infinite
				continue
			}
			l = [3]float32{min(l[0], x), min(l[1], y), min(l[2], z)}
			h = [3]float32{max(h[0], x), max(h[1], y), max(h[2], z)}
		}
		los[a/boundsChunk], his[a/boundsChunk] = l, h
	})
	lo = geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Scale(-1)
	for c := range los {
		lo, hi = lo.Min(vec3Of(los[c])), hi.Max(vec3Of(his[c]))
	}
	if lo[0] > hi[0] {
		return lo, hi, false
	}
	r := geom.Vec3{float64(p.Radius), float64(p.Radius), float64(p.Radius)}
	return lo.Sub(r), hi.Add(r), true
}
