// Package colormap turns numbers into colours: the colours of point clouds, PRT
// Color channels and preview pictures when a user colours particles by a channel
// (speed, packing, hardening).
package colormap

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// A Map is a colour ramp: control colours at evenly spaced positions from 0 to 1,
// interpolated linearly in sRGB between them.
type Map struct {
	Name  string
	stops [][3]uint8
}

// The maps a user can choose. viridis, magma and inferno are matplotlib's perceptually
// uniform ramps (sampled at nine points, which keeps them within a few levels of the
// originals), readable by colour-blind viewers and in grey; ice runs from deep blue to
// white and suits snow; gray is for masks and hardness.
var maps = map[string][][3]uint8{
	"viridis": {{68, 1, 84}, {71, 44, 122}, {59, 81, 139}, {44, 113, 142}, {33, 144, 141},
		{39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37}},
	"magma": {{0, 0, 4}, {28, 16, 68}, {79, 18, 123}, {129, 37, 129}, {181, 54, 122},
		{229, 80, 100}, {251, 135, 97}, {254, 194, 135}, {252, 253, 191}},
	"inferno": {{0, 0, 4}, {31, 12, 72}, {85, 15, 109}, {136, 34, 106}, {186, 54, 85},
		{227, 89, 51}, {249, 140, 10}, {249, 201, 50}, {252, 255, 164}},
	"ice":  {{8, 24, 58}, {22, 64, 128}, {60, 120, 190}, {130, 180, 225}, {200, 225, 245}, {255, 255, 255}},
	"gray": {{0, 0, 0}, {255, 255, 255}},
}

// Names lists the maps, sorted.
func Names() []string {
	names := make([]string, 0, len(maps))
	for n := range maps {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the map called name.
func Lookup(name string) (Map, error) {
	stops, ok := maps[name]
	if !ok {
		return Map{}, fmt.Errorf("colormap %q: use one of %s", name, strings.Join(Names(), ", "))
	}
	return Map{Name: name, stops: stops}, nil
}

// At returns the colour at t in [0, 1]; t outside is clamped and NaN is the low end.
func (m Map) At(t float64) [3]uint8 {
	if !(t > 0) {
		return m.stops[0]
	}
	if t >= 1 {
		return m.stops[len(m.stops)-1]
	}
	x := t * float64(len(m.stops)-1)
	i := int(x)
	f := x - float64(i)
	a, b := m.stops[i], m.stops[i+1]
	var c [3]uint8
	for k := range c {
		c[k] = uint8(math.Round(float64(a[k]) + f*(float64(b[k])-float64(a[k]))))
	}
	return c
}

// A Range maps values linearly onto [0, 1]: Lo to 0, Hi to 1.
type Range struct{ Lo, Hi float64 }

// Normalize returns (v - Lo)/(Hi - Lo), or 0.5 for an empty range.
func (r Range) Normalize(v float64) float64 {
	if !(r.Hi > r.Lo) {
		return 0.5
	}
	return (v - r.Lo) / (r.Hi - r.Lo)
}

// ParseRange reads "lo:hi".
func ParseRange(s string) (Range, error) {
	a, b, ok := strings.Cut(s, ":")
	var r Range
	var err1, err2 error
	if ok {
		_, err1 = fmt.Sscan(a, &r.Lo)
		_, err2 = fmt.Sscan(b, &r.Hi)
	}
	if !ok || err1 != nil || err2 != nil || !(r.Hi > r.Lo) || math.IsInf(r.Lo, 0) || math.IsInf(r.Hi, 0) {
		return Range{}, fmt.Errorf("range %q: use lo:hi with lo < hi", s)
	}
	return r, nil
}

// Robust returns the range from the 1st to the 99th percentile of the finite values,
// so that a few stray particles do not wash out the colours of the rest.
func Robust(values []float32) Range {
	finite := make([]float32, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) {
			finite = append(finite, v)
		}
	}
	if len(finite) == 0 {
		return Range{0, 1}
	}
	slices.Sort(finite)
	at := func(q float64) float64 { return float64(finite[int(q*float64(len(finite)-1))]) }
	return Range{at(0.01), at(0.99)}
}
