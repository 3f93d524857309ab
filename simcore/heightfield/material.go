package heightfield

import (
	"fmt"
	"math"
	"slices"
)

// Material holds the five parameters of the Sumner paper's section "Animation
// Parameters". Angles are in radians, as in Table 1; pi/2 (1.57) switches a slope
// test off, since no finite height difference reaches it.
type Material struct {
	// Liquidity theta_stop: erosion repeats, each time step, until no slope that it
	// may move material down is steeper than this. Larger: fewer passes per step, so
	// the material seems to flow out over several steps.
	Liquidity float64
	// Roughness sigma: the fraction of the mean height difference (2) that one pass
	// moves off a column. Larger: rougher mounds.
	Roughness float64
	// InsideSlope theta_in: the steepest slope down to a column in contact with the
	// object (the wall of the print).
	InsideSlope float64
	// OutsideSlope theta_out: the steepest slope elsewhere (the outside of the rim).
	OutsideSlope float64
	// Compression alpha: the fraction of the displaced material pushed out to the
	// first ring of free columns; 1 - alpha of it is compressed (vanishes).
	Compression float64
}

// Table 1 of the paper.
var (
	Sand = Material{Liquidity: 0.8, Roughness: 0.2, InsideSlope: 0.8, OutsideSlope: 0.436, Compression: 0.3}
	Mud  = Material{Liquidity: 1.1, Roughness: 0.2, InsideSlope: 1.57, OutsideSlope: 1.1, Compression: 0.41}
	Snow = Material{Liquidity: 1.57, Roughness: 0.2, InsideSlope: 1.57, OutsideSlope: 1.57, Compression: 0}
)

var presets = map[string]Material{"sand": Sand, "mud": Mud, "snow": Snow}

// Preset returns the Table 1 material of that name: sand, mud or snow.
func Preset(name string) (Material, error) {
	m, ok := presets[name]
	if !ok {
		return Material{}, fmt.Errorf("ground material %q: use one of %v", name, PresetNames())
	}
	return m, nil
}

// PresetNames lists the presets in alphabetical order.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Validate reports a parameter outside its range.
func (m Material) Validate() error {
	for _, a := range []struct {
		name string
		v    float64
	}{{"liquidity (theta_stop)", m.Liquidity}, {"inside slope (theta_in)", m.InsideSlope}, {"outside slope (theta_out)", m.OutsideSlope}} {
		if !(a.v > 0 && a.v <= math.Pi/2) {
			return fmt.Errorf("%s %g: must be in (0, pi/2] radians", a.name, a.v)
		}
	}
	if !(m.Roughness > 0 && m.Roughness <= 1) {
		return fmt.Errorf("roughness (sigma) %g: must be in (0, 1]", m.Roughness)
	}
	if !(m.Compression >= 0 && m.Compression <= 1) {
		return fmt.Errorf("compression (alpha) %g: must be in [0, 1]", m.Compression)
	}
	return nil
}

// steepness returns tan(theta), the height difference per unit of horizontal
// distance at which the slope of equation (1), atan(dh/d), exceeds theta; +Inf for a
// threshold that no finite difference exceeds (theta within 0.001 of pi/2, as the
// paper's 1.57 is meant).
func steepness(theta float64) float64 {
	if theta >= math.Pi/2-1e-3 {
		return math.Inf(1)
	}
	return math.Tan(theta)
}
