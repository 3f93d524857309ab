package simcore

import (
	"fmt"
	"slices"
)

// The material presets. Section 5 of Stomakhin et al. 2013 gives the intuition
// they follow:
//
//   - "theta_c and theta_s determine when the material starts breaking (larger =
//     chunky, smaller = powdery)";
//   - "The hardening coefficient determines how fast the material breaks once it is
//     plastic (larger = brittle, smaller = ductile)";
//   - "Dry and powdery snow has smaller critical compression and stretch constants,
//     while the opposite is true for wet and chunky snow";
//   - "Icy snow has a higher hardening coefficient and Young's modulus, with the
//     opposite producing muddy snow";
//
// and Figure 8 shows a block breaking over a wedge as one parameter at a time is
// lowered or raised from Table 2. Each preset below changes only the parameters
// that the quoted sentence names, by factors of about 1.3-2 (large enough to see in
// a Figure 8 style test, small enough to stay "snow"); density and Poisson's ratio
// stay at Table 2 because the paper ties no snow type to them, except in snowball.
// The exact factors are this package's choice, not the paper's.
//
//	preset    theta_c  theta_s  xi   E_0 (Pa)  rho_0  nu    why
//	default   2.5e-2   7.5e-3   10   1.4e5     400    0.2   Table 2, "a useful starting point"
//	powder    1.9e-2   5.0e-3   10   1.4e5     400    0.2   dry, powdery: smaller theta_c, theta_s (x0.75, x0.67)
//	wet       3.5e-2   1.0e-2   10   1.4e5     400    0.2   wet, chunky, packing: larger theta_c, theta_s (x1.4, x1.33)
//	icy       2.5e-2   7.5e-3   15   2.8e5     400    0.2   icy, brittle: higher xi (x1.5) and E_0 (x2)
//	slush     2.5e-2   7.5e-3   5    4.8e4     400    0.2   muddy, ductile: lower xi (x0.5) and E_0 (x0.34)
//	snowball  2.5e-2   7.5e-3   10   1.4e5     400    0.3   thrown snowballs that break (Figures 2-4): nu 0.3
//
// "packing" is another name for "wet": the sticky, packing snow of section 10 comes
// from large critical thresholds with the default hardening (stronger when pressed).
// snowball is Table 2 with Poisson's ratio 0.3: a ball squeezed along one axis by
// theta_c then stretches sideways by nu theta_c = theta_s, exactly the threshold where
// the model softens and cracks, so weaker seams cross it first; at 0.2 it only packs
// (docs/fracture.md, point 1). With a chunk pattern (chunk_size) and flip_alpha_step
// 5e-4 the ball breaks along the seams into chunks and powder (the figure scenes);
// without either it stays whole.
// A stiffer preset needs a smaller time step (the elastic wave speed grows as
// sqrt(E_0 / rho_0)): icy about 1/sqrt(2) of default's.
var presets = map[string]Material{
	"default": DefaultMaterial,
	"powder": {CriticalCompression: 1.9e-2, CriticalStretch: 5.0e-3, Hardening: 10,
		Density: 4.0e2, YoungsModulus: 1.4e5, PoissonRatio: 0.2},
	"wet": {CriticalCompression: 3.5e-2, CriticalStretch: 1.0e-2, Hardening: 10,
		Density: 4.0e2, YoungsModulus: 1.4e5, PoissonRatio: 0.2},
	"icy": {CriticalCompression: 2.5e-2, CriticalStretch: 7.5e-3, Hardening: 15,
		Density: 4.0e2, YoungsModulus: 2.8e5, PoissonRatio: 0.2},
	"slush": {CriticalCompression: 2.5e-2, CriticalStretch: 7.5e-3, Hardening: 5,
		Density: 4.0e2, YoungsModulus: 4.8e4, PoissonRatio: 0.2},
	"snowball": {CriticalCompression: 2.5e-2, CriticalStretch: 7.5e-3, Hardening: 10,
		Density: 4.0e2, YoungsModulus: 1.4e5, PoissonRatio: 0.3},
}

// presetAliases maps other accepted names to presets.
var presetAliases = map[string]string{"packing": "wet"}

// PresetNames returns the names Preset accepts, sorted, aliases included.
func PresetNames() []string {
	names := make([]string, 0, len(presets)+len(presetAliases))
	for n := range presets {
		names = append(names, n)
	}
	for n := range presetAliases {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Preset returns the named material (see the table above). An unknown name is an
// error that lists the valid ones.
func Preset(name string) (Material, error) {
	if a, ok := presetAliases[name]; ok {
		name = a
	}
	if m, ok := presets[name]; ok {
		return m, nil
	}
	return Material{}, fmt.Errorf("material preset %q: must be one of %q", name, PresetNames())
}
