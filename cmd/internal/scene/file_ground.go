package scene

// The [ground] table makes a scene a ground scene: instead of MPM snow, the height
// field of Sumner, O'Brien and Hodgins (simcore/heightfield), pressed by the scene's
// colliders.

// groundKeys is the [ground] table.
type groundKeys struct {
	Material *string     `toml:"material"` // a Table 1 preset: sand, mud or snow
	Cell     *float64    `toml:"cell"`
	Min      *[2]float64 `toml:"min"` // x, z of the virtual grid's corners
	Max      *[2]float64 `toml:"max"`
	Bottom   *float64    `toml:"bottom"`
	Margin   *float64    `toml:"margin"`
	Dt       *float64    `toml:"dt"`
	// The five parameters, replacing the preset's.
	Liquidity    *float64 `toml:"liquidity"`
	Roughness    *float64 `toml:"roughness"`
	InsideSlope  *float64 `toml:"inside_slope"`
	OutsideSlope *float64 `toml:"outside_slope"`
	Compression  *float64 `toml:"compression"`
	// The initial surface: flat at height, noise, or a height map.
	Height    *float64         `toml:"height"`
	Noise     *groundNoiseKeys `toml:"noise"`
	HeightMap *heightMapKeys   `toml:"height_map"`
	Spray     *sprayKeys       `toml:"spray"`
}

type groundNoiseKeys struct {
	Amplitude *float64 `toml:"amplitude"`
	Scale     *float64 `toml:"scale"`
	Octaves   *int     `toml:"octaves"`
	Seed      *int64   `toml:"seed"`
}

// heightMapKeys name a 16-bit PNG height map; the mapping keys are needed only for
// a PNG that does not carry its own (one that snowsim did not write).
type heightMapKeys struct {
	Path  string      `toml:"path"`
	Min   *[2]float64 `toml:"min"`   // x, z of the first sample
	Cell  *float64    `toml:"cell"`  // sample spacing (m)
	Range *[2]float64 `toml:"range"` // the heights of grey 0 and grey 65535 (m)
}

type sprayKeys struct {
	Adhesion       *float64 `toml:"adhesion"`
	ReleaseTime    *float64 `toml:"release_time"`
	ParticleVolume *float64 `toml:"particle_volume"`
	DropSpeed      *float64 `toml:"drop_speed"`
	Gamma          *float64 `toml:"gamma"`
	Perturbation   *float64 `toml:"perturbation"`
	Seed           *int64   `toml:"seed"`
}

// groundOutputKeys are the [output] keys of a ground scene, beside dir and pattern
// (the spray's PRT files).
type groundOutputKeys struct {
	Mesh      *string     `toml:"ground_mesh"`       // .ply or .obj per frame; "" for none
	HeightMap *string     `toml:"ground_height_map"` // .png per frame; "" for none
	Area      *string     `toml:"ground_area"`       // "all" (default) or "touched"
	Range     *[2]float64 `toml:"ground_range"`      // heights of grey 0 and 65535 in the PNGs
}
