package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"snowtools/formats/heightpng"
	"snowtools/simcore/heightfield"
)

// The [ground] table makes a scene a ground scene: instead of MPM snow, the height
// field of Sumner, O'Brien and Hodgins (simcore/heightfield), pressed by the scene's
// colliders. README.md documents every key.

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

// GroundScene is what a ground scene adds to Scene.
type GroundScene struct {
	Config    heightfield.Config
	Mesh      string // file pattern of the ground meshes; "" for none
	HeightMap string // file pattern of the height maps; "" for none
	Touched   bool   // write only the columns the simulation created
	Low, High float64
}

// parse reads the [ground] table and the ground's [output] keys; dir is the scene's
// folder, where a height map's path starts.
func (k *groundKeys) parse(dir string, out groundOutputKeys) (*GroundScene, error) {
	cfg := heightfield.DefaultConfig()
	g := &GroundScene{Mesh: "ground.####.ply", HeightMap: "ground.####.png"}
	name := "sand"
	if k.Material != nil {
		name = *k.Material
	}
	m, err := heightfield.Preset(name)
	if err != nil {
		return nil, fmt.Errorf("ground.material: %v", err)
	}
	setFloat(&m.Liquidity, k.Liquidity)
	setFloat(&m.Roughness, k.Roughness)
	setFloat(&m.InsideSlope, k.InsideSlope)
	setFloat(&m.OutsideSlope, k.OutsideSlope)
	setFloat(&m.Compression, k.Compression)
	cfg.Material = m
	// The paper sprays sand only: mud and snow "appear to generate clumps rather than
	// particles". A [ground.spray] table turns it on for them.
	if name != "sand" {
		cfg.Spray.Adhesion = 0
	}
	if s := k.Spray; s != nil {
		if name != "sand" && s.Adhesion == nil {
			cfg.Spray.Adhesion = heightfield.DefaultSpray.Adhesion
		}
		setFloat(&cfg.Spray.Adhesion, s.Adhesion)
		setFloat(&cfg.Spray.ReleaseTime, s.ReleaseTime)
		setFloat(&cfg.Spray.ParticleVolume, s.ParticleVolume)
		setFloat(&cfg.Spray.DropSpeed, s.DropSpeed)
		setFloat(&cfg.Spray.Gamma, s.Gamma)
		setFloat(&cfg.Spray.Perturbation, s.Perturbation)
		if s.Seed != nil {
			cfg.Spray.Seed = uint64(*s.Seed)
		}
	}
	setFloat(&cfg.Cell, k.Cell)
	if !(cfg.Cell > 0) || math.IsInf(cfg.Cell, 0) {
		return nil, fmt.Errorf("ground.cell: %g: must be > 0 (m)", cfg.Cell)
	}
	if k.Min == nil || k.Max == nil {
		return nil, fmt.Errorf("ground: min and max (x, z of the ground's corners) are required")
	}
	lo, hi := *k.Min, *k.Max
	if !(hi[0] > lo[0] && hi[1] > lo[1]) {
		return nil, fmt.Errorf("ground.max: %v must exceed ground.min %v in x and z", hi, lo)
	}
	cfg.OriginX, cfg.OriginZ = lo[0], lo[1]
	ni, nj := math.Floor((hi[0]-lo[0])/cfg.Cell)+1, math.Floor((hi[1]-lo[1])/cfg.Cell)+1
	if ni*nj > 1<<34 {
		return nil, fmt.Errorf("ground: %g x %g columns: more than 2^34; use a coarser cell", ni, nj)
	}
	cfg.Extent = heightfield.Rect{I1: int(ni), J1: int(nj)}

	if err := k.terrain(&cfg, dir); err != nil {
		return nil, err
	}
	cfg.Bottom = cfg.Terrain.Top() - 0.5
	setFloat(&cfg.Bottom, k.Bottom)
	setFloat(&cfg.Margin, k.Margin)
	setFloat(&cfg.Dt, k.Dt)
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("ground: %v", err)
	}
	g.Config = cfg

	if out.Mesh != nil {
		g.Mesh = *out.Mesh
	}
	if out.HeightMap != nil {
		g.HeightMap = *out.HeightMap
	}
	for key, p := range map[string]string{"output.ground_mesh": g.Mesh, "output.ground_height_map": g.HeightMap} {
		if p == "" {
			continue
		}
		if err := checkPattern(p); err != nil {
			return nil, fmt.Errorf("%s: %v", key, err)
		}
		ext := filepath.Ext(p)
		if (key == "output.ground_mesh" && ext != ".ply" && ext != ".obj") || (key == "output.ground_height_map" && ext != ".png") {
			return nil, fmt.Errorf("%s: %q: use a .ply or .obj mesh, or a .png height map", key, p)
		}
	}
	if out.Area != nil {
		switch *out.Area {
		case "all":
		case "touched":
			g.Touched = true
		default:
			return nil, fmt.Errorf("output.ground_area: %q: use \"all\" or \"touched\"", *out.Area)
		}
	}
	// By default the PNGs span the column bottoms to half as far above the terrain:
	// 0.75 m in 65535 greys for the default 0.5 m columns, 11 micrometres a grey.
	top := cfg.Terrain.Top()
	g.Low, g.High = cfg.Bottom, top+0.5*(top-cfg.Bottom)
	if out.Range != nil {
		g.Low, g.High = out.Range[0], out.Range[1]
		if !(g.High > g.Low) || math.IsInf(g.High-g.Low, 0) {
			return nil, fmt.Errorf("output.ground_range: %v: need low < high", *out.Range)
		}
	}
	return g, nil
}

// terrain sets the initial surface: a height map, noise, or flat.
func (k *groundKeys) terrain(cfg *heightfield.Config, dir string) error {
	base := 0.0
	setFloat(&base, k.Height)
	switch {
	case k.HeightMap != nil && (k.Noise != nil || k.Height != nil):
		return fmt.Errorf("ground: give height_map, or height and noise, not both")
	case k.HeightMap != nil:
		hm, err := k.HeightMap.read(dir)
		if err != nil {
			return err
		}
		cfg.Terrain = hm
	case k.Noise != nil:
		n := heightfield.Noise{Base: base, Amplitude: 0.005, Scale: 0.1, Octaves: 1, Seed: 1}
		setFloat(&n.Amplitude, k.Noise.Amplitude)
		setFloat(&n.Scale, k.Noise.Scale)
		if k.Noise.Octaves != nil {
			n.Octaves = *k.Noise.Octaves
		}
		if k.Noise.Seed != nil {
			n.Seed = uint64(*k.Noise.Seed)
		}
		if err := n.Validate(); err != nil {
			return fmt.Errorf("ground.noise: %v", err)
		}
		cfg.Terrain = n
	default:
		if math.IsNaN(base) || math.IsInf(base, 0) {
			return fmt.Errorf("ground.height: %g: must be finite", base)
		}
		cfg.Terrain = heightfield.Flat(base)
	}
	return nil
}

// read loads the height map, with the mapping it carries or the one the keys give.
func (k *heightMapKeys) read(dir string) (*heightfield.HeightMap, error) {
	if k.Path == "" {
		return nil, fmt.Errorf("ground.height_map.path: required")
	}
	path := k.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ground.height_map.path: %v", err)
	}
	defer f.Close()
	m, err := heightpng.Read(f)
	if err != nil {
		return nil, fmt.Errorf("ground.height_map.path: %s: %v", path, err)
	}
	if !m.HasMapping && (k.Min == nil || k.Cell == nil || k.Range == nil) {
		return nil, fmt.Errorf("ground.height_map: %s carries no mapping to the world (snowsim did not write it): give min, cell and range", path)
	}
	if k.Min != nil {
		m.OriginX, m.OriginZ = k.Min[0], k.Min[1]
	}
	setFloat(&m.Cell, k.Cell)
	if k.Range != nil {
		m.Low, m.High = k.Range[0], k.Range[1]
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("ground.height_map: %s: %v", path, err)
	}
	hm := &heightfield.HeightMap{Width: m.Width, Depth: m.Height, Heights: m.Heights(),
		OriginX: m.OriginX, OriginZ: m.OriginZ, Cell: m.Cell}
	if err := hm.Validate(); err != nil {
		return nil, fmt.Errorf("ground.height_map: %s: %v", path, err)
	}
	return hm, nil
}

// parseGroundScene finishes parseScene for a scene with a [ground] table: the ground,
// the time, the output and the colliders. The MPM tables do not apply to it.
func parseGroundScene(name string, f *sceneFile, sc *Scene, resolution float64) (*Scene, error) {
	switch {
	case len(f.Snow) > 0:
		return nil, sceneError(name, "snow", "a [ground] scene simulates the ground, not [[snow]]: use one method per scene")
	case len(f.Press) > 0 || len(f.Materials) > 0 || f.Domain.H != nil:
		return nil, sceneError(name, "ground", "[domain], [materials] and [[press]] are for [[snow]] scenes")
	}
	if f.Ground.Cell != nil {
		c := *f.Ground.Cell * resolution
		f.Ground.Cell = &c
	}
	dir := sceneDir(name)
	g, err := f.Ground.parse(dir, f.Output.groundOutputKeys)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	sc.Ground = g
	sc.Pattern = "spray.####.prt"
	setFloat(&sc.FPS, f.Time.FPS)
	if !(sc.FPS > 0) || math.IsInf(sc.FPS, 0) {
		return nil, sceneError(name, "time.fps", "%g: must be > 0", sc.FPS)
	}
	if f.Time.Frames != nil {
		sc.Frames = *f.Time.Frames
	}
	if sc.Frames < 1 {
		return nil, sceneError(name, "time.frames", "%d: must be >= 1", sc.Frames)
	}
	if f.Solver.Gravity != nil {
		g.Config.Gravity = *f.Solver.Gravity
	}
	if f.Solver.Threads != nil {
		g.Config.Threads = *f.Solver.Threads
	}
	if f.Output.Dir != nil {
		sc.OutDir = *f.Output.Dir
	}
	if f.Output.Pattern != nil {
		sc.Pattern = *f.Output.Pattern
	}
	if err := checkPattern(sc.Pattern); err != nil {
		return nil, sceneError(name, "output.pattern", "%v", err)
	}
	for i, ck := range f.Collider {
		key := fmt.Sprintf("collider[%d]", i+1)
		col, frames, err := ck.collider(key, dir, g.Config.Cell)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if frames != nil {
			sc.Sequences = append(sc.Sequences, frames)
		}
		g.Config.Colliders = append(g.Config.Colliders, col)
	}
	if len(g.Config.Colliders) == 0 {
		return nil, sceneError(name, "collider", "a ground scene needs a [[collider]] to press into it")
	}
	return sc, nil
}
