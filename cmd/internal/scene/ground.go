package scene

import (
	"math"
	"path/filepath"
	"slices"
	"strings"

	"snowtools/simcore/heightfield"
)

// groundScene loads a scene with a [ground] table: the ground, the time, the output
// and the colliders that press into it. The MPM tables do not apply to it.
func (l *loader) groundScene(f *sceneFile) (*Scene, error) {
	switch {
	case len(f.Snow) > 0:
		return nil, keyError("snow", "a [ground] scene simulates the ground, not [[snow]]: use one method per scene")
	case len(f.Press) > 0 || len(f.Materials) > 0 || f.Domain.H != nil:
		return nil, keyError("ground", "[domain], [materials] and [[press]] are for [[snow]] scenes")
	case f.Output.Channels != nil:
		return nil, keyError("output.channels", "for [[snow]] scenes: a ground's spray has no rest position or orientation")
	}
	sc, err := framesAndOutput(f, "spray.####.prt")
	if err != nil {
		return nil, err
	}
	cfg, err := l.groundConfig(f.Ground)
	if err != nil {
		return nil, err
	}
	set(&cfg.Gravity, f.Solver.Gravity)
	if err := threads(&cfg.Threads, f.Solver.Threads); err != nil {
		return nil, err
	}
	if err := cfg.Validate(); err != nil {
		return nil, keyError("ground", "%v", err)
	}
	if sc.Ground, err = groundOutput(f.Output.groundOutputKeys, cfg); err != nil {
		return nil, err
	}
	if sc.ColliderMesh != "" && sc.ColliderMesh == sc.Ground.Mesh {
		return nil, keyError("output.colliders", "%q is output.ground_mesh's name too: each frame would overwrite the other", sc.ColliderMesh)
	}
	if len(f.Collider) == 0 {
		return nil, keyError("collider", "a ground scene needs a [[collider]] to press into it")
	}
	if sc.Bodies, sc.Sequences, err = l.colliders(f.Collider, cfg.Cell); err != nil {
		return nil, err
	}
	sc.Ground.Config.Colliders = colliderList(sc.Bodies)
	return sc, nil
}

// groundConfig loads the [ground] table: the material, the grid and the terrain.
func (l *loader) groundConfig(k *groundKeys) (heightfield.Config, error) {
	cfg := heightfield.DefaultConfig()
	if err := k.material(&cfg); err != nil {
		return cfg, err
	}
	if k.Cell != nil {
		cfg.Cell = *k.Cell * l.resolution
	}
	if !(cfg.Cell > 0) || math.IsInf(cfg.Cell, 0) {
		return cfg, keyError("ground.cell", "%g: must be > 0 (m)", cfg.Cell)
	}
	if k.Min == nil || k.Max == nil {
		return cfg, keyError("ground", "min and max (x, z of the ground's corners) are required")
	}
	lo, hi := *k.Min, *k.Max
	if !(hi[0] > lo[0] && hi[1] > lo[1]) {
		return cfg, keyError("ground.max", "%v must exceed ground.min %v in x and z", hi, lo)
	}
	cfg.OriginX, cfg.OriginZ = lo[0], lo[1]
	ni, nj := math.Floor((hi[0]-lo[0])/cfg.Cell)+1, math.Floor((hi[1]-lo[1])/cfg.Cell)+1
	if ni*nj > 1<<34 {
		return cfg, keyError("ground", "%g x %g columns: more than 2^34; use a coarser cell", ni, nj)
	}
	cfg.Extent = heightfield.Rect{I1: int(ni), J1: int(nj)}
	var err error
	if cfg.Terrain, err = l.terrain(k); err != nil {
		return cfg, err
	}
	cfg.Bottom = cfg.Terrain.Top() - 0.5
	set(&cfg.Bottom, k.Bottom)
	set(&cfg.Margin, k.Margin)
	set(&cfg.Dt, k.Dt)
	return cfg, nil
}

// material sets the ground's material, a preset with the parameters the keys
// replace, and its spray.
func (k *groundKeys) material(cfg *heightfield.Config) error {
	name := "sand"
	set(&name, k.Material)
	m, err := heightfield.Preset(name)
	if err != nil {
		return keyError("ground.material", "%v", err)
	}
	set(&m.Liquidity, k.Liquidity)
	set(&m.Roughness, k.Roughness)
	set(&m.InsideSlope, k.InsideSlope)
	set(&m.OutsideSlope, k.OutsideSlope)
	set(&m.Compression, k.Compression)
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
		set(&cfg.Spray.Adhesion, s.Adhesion)
		set(&cfg.Spray.ReleaseTime, s.ReleaseTime)
		set(&cfg.Spray.ParticleVolume, s.ParticleVolume)
		set(&cfg.Spray.DropSpeed, s.DropSpeed)
		set(&cfg.Spray.Gamma, s.Gamma)
		set(&cfg.Spray.Perturbation, s.Perturbation)
		if s.Seed != nil {
			cfg.Spray.Seed = uint64(*s.Seed)
		}
	}
	return nil
}

// groundOutput loads the ground's [output] keys: which files to write per frame, of
// which columns, and the heights of the height maps' darkest and lightest greys.
func groundOutput(out groundOutputKeys, cfg heightfield.Config) (*GroundScene, error) {
	g := &GroundScene{Config: cfg, Mesh: "ground.####.ply", HeightMap: "ground.####.png"}
	set(&g.Mesh, out.Mesh)
	set(&g.HeightMap, out.HeightMap)
	if err := checkFilePattern("output.ground_mesh", g.Mesh, ".ply", ".obj"); err != nil {
		return nil, err
	}
	if err := checkFilePattern("output.ground_height_map", g.HeightMap, ".png"); err != nil {
		return nil, err
	}
	if out.Area != nil {
		switch *out.Area {
		case "all":
		case "touched":
			g.Touched = true
		default:
			return nil, keyError("output.ground_area", "%q: use \"all\" or \"touched\"", *out.Area)
		}
	}
	// By default the PNGs span the column bottoms to half as far above the terrain:
	// 0.75 m in 65535 greys for the default 0.5 m columns, 11 micrometres a grey.
	top := cfg.Terrain.Top()
	g.Low, g.High = cfg.Bottom, top+0.5*(top-cfg.Bottom)
	if out.Range != nil {
		g.Low, g.High = out.Range[0], out.Range[1]
		if !(g.High > g.Low) || math.IsInf(g.High-g.Low, 0) {
			return nil, keyError("output.ground_range", "%v: need low < high", *out.Range)
		}
	}
	return g, nil
}

// checkFilePattern checks the pattern of a file to write per frame ("" for none),
// whose extension must be one of exts.
func checkFilePattern(key, pattern string, exts ...string) error {
	if pattern == "" {
		return nil
	}
	if err := checkPattern(pattern); err != nil {
		return keyError(key, "%v", err)
	}
	if !slices.Contains(exts, filepath.Ext(pattern)) {
		return keyError(key, "%q: use a %s file", pattern, strings.Join(exts, " or "))
	}
	return nil
}
