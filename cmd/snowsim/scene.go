package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"snowtools/cmd/internal/seq"
	"snowtools/levelset/geom"
	"snowtools/simcore"
	"snowtools/simcore/collider"
)

// sceneFile is the TOML scene format; README.md documents every key. Pointers mark
// keys that have a default, so that "absent" and "zero" differ.
type sceneFile struct {
	Domain struct {
		Min          *[3]float64 `toml:"min"`
		Max          *[3]float64 `toml:"max"`
		H            *float64    `toml:"h"`
		Wall         *string     `toml:"wall"`
		WallFriction *float64    `toml:"wall_friction"`
	} `toml:"domain"`
	Time struct {
		FPS       *float64 `toml:"fps"`
		Frames    *int     `toml:"frames"`
		CFL       *float64 `toml:"cfl"`
		WaveCells *float64 `toml:"wave_cells"`
		MaxDt     *float64 `toml:"max_dt"`
		MinDt     *float64 `toml:"min_dt"`
	} `toml:"time"`
	Solver struct {
		Gravity      *[3]float64 `toml:"gravity"`
		GravityStart *float64    `toml:"gravity_start"` // s: no gravity before
		FlipAlpha    *float64    `toml:"flip_alpha"`
		Threads      *int        `toml:"threads"`
		// Stage 6, section 6.1.
		Integrator    *string  `toml:"integrator"`
		Beta          *float64 `toml:"beta"`
		Tolerance     *float64 `toml:"tolerance"`
		MaxIterations *int     `toml:"max_iterations"`
	} `toml:"solver"`
	Output struct {
		Dir     *string `toml:"dir"`
		Pattern *string `toml:"pattern"`
		groundOutputKeys
	} `toml:"output"`
	Ground    *groundKeys             `toml:"ground"`    // a ground scene (scene_ground.go)
	Sintering windowKeys              `toml:"sintering"` // when sintering materials sinter
	Materials map[string]materialKeys `toml:"materials"`
	Snow      []snowKeys              `toml:"snow"`
	Collider  []colliderKeys          `toml:"collider"`
	Press     []pressKeys             `toml:"press"`
}

// materialKeys are Table 2's names; absent keys keep the preset's values (Table 2's
// unless preset names another).
type materialKeys struct {
	Preset *string  `toml:"preset"`
	ThetaC *float64 `toml:"theta_c"`
	ThetaS *float64 `toml:"theta_s"`
	Xi     *float64 `toml:"xi"`
	Rho0   *float64 `toml:"rho0"`
	E0     *float64 `toml:"E0"`
	Nu     *float64 `toml:"nu"`
	// Sintering, when present (even empty), lets the material sinter under pressure.
	Sintering *sinteringLawKeys `toml:"sintering"`
}

type shapeKeys struct {
	Shape  string      `toml:"shape"`
	Center *[3]float64 `toml:"center"`
	Radius *float64    `toml:"radius"`
	Min    *[3]float64 `toml:"min"`
	Max    *[3]float64 `toml:"max"`
	Point  *[3]float64 `toml:"point"`
	Normal *[3]float64 `toml:"normal"`
	A      *[3]float64 `toml:"a"` // cylinder axis ends
	B      *[3]float64 `toml:"b"`
	Path   *string     `toml:"path"`  // mesh or VDB file, relative to the scene's folder
	Grid   *string     `toml:"grid"`  // VDB level set grid name (default "surface", else the first level set)
	Voxel  *float64    `toml:"voxel"` // a mesh collider is voxelized at this size (default h/2)
	Clip   *string     `toml:"clip"`  // a glTF mesh posed by this animation (default the first)...
	Time   *float64    `toml:"time"`  // ... at this time (s); without, its rest pose
}

type snowKeys struct {
	shapeKeys
	Material         *string     `toml:"material"`
	ParticlesPerCell *int        `toml:"particles_per_cell"`
	Pattern          *string     `toml:"pattern"`
	Seed             *int64      `toml:"seed"`
	Velocity         *[3]float64 `toml:"velocity"`
	Spin             *[3]float64 `toml:"spin"`
	NoiseScale       *float64    `toml:"noise_scale"`
	NoiseSeed        *int64      `toml:"noise_seed"`
	StiffnessNoise   *float64    `toml:"stiffness_noise"`
	StretchNoise     *float64    `toml:"stretch_noise"`
	ShellThickness   *float64    `toml:"shell_thickness"`
	ShellStiffness   *float64    `toml:"shell_stiffness"`
	ShellDensity     *float64    `toml:"shell_density"`
}

type colliderKeys struct {
	shapeKeys
	Velocity *[3]float64 `toml:"velocity"`
	Friction *float64    `toml:"friction"`
	Mode     *string     `toml:"mode"`
	FPS      *float64    `toml:"fps"`   // a VDB sequence's frame rate (default: the files' own)
	Start    *float64    `toml:"start"` // the scene time of a VDB sequence's first file
	Keys     []keyKeys   `toml:"key"`   // a rigid motion
}

// keyKeys place a rigid collider at a time: a translation and a rotation, given as a
// quaternion (x, y, z, w, as glTF writes it) or as an axis and an angle in degrees.
type keyKeys struct {
	Time        *float64    `toml:"time"`
	Translation *[3]float64 `toml:"translation"`
	Rotation    *[4]float64 `toml:"rotation"`
	Axis        *[3]float64 `toml:"axis"`
	Angle       *float64    `toml:"angle"`
}

// Scene is a parsed, validated scene, ready to simulate.
type Scene struct {
	Config    simcore.Config
	FPS       float64
	Frames    int // frames after the first (frame 0 is the initial state)
	OutDir    string
	Pattern   string // file name with #### or %04d for the frame number
	Sources   []simcore.Source
	Materials map[string]simcore.Material
	// Sequences are the deforming colliders read from voxelize's files; they are in
	// Config.Colliders too, and the frame loop hands them their keyframes.
	Sequences []*colliderFrames
	// Ground, when not nil, makes this a ground scene: Config holds only the
	// colliders and the gravity, and the snow fields are empty.
	Ground *GroundScene
}

// sceneError names the scene and the key at fault.
func sceneError(name, key, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %s", name, key, fmt.Sprintf(format, args...))
}

// parseScene reads a TOML scene. resolution scales the grid spacing (0.5 doubles the
// resolution), for the -quality flag.
func parseScene(name string, r io.Reader, resolution float64) (*Scene, error) {
	var f sceneFile
	md, err := toml.NewDecoder(r).Decode(&f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s: line %d: %s", name, pe.Position.Line, pe.Message)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return nil, fmt.Errorf("%s: unknown key %s (see README.md for the scene keys)", name, strings.Join(keys, ", "))
	}

	sc := &Scene{Config: simcore.DefaultConfig(), FPS: 24, Frames: 48, OutDir: "snowsim-out", Pattern: "snow.####.prt"}
	if f.Ground != nil {
		return parseGroundScene(name, &f, sc, resolution)
	}
	cfg := &sc.Config
	if f.Domain.Min == nil || f.Domain.Max == nil || f.Domain.H == nil {
		return nil, sceneError(name, "domain", "min, max and h are required")
	}
	cfg.Domain = geom.Box{Min: *f.Domain.Min, Max: *f.Domain.Max}
	for a := 0; a < 3; a++ {
		if !(cfg.Domain.Max[a] > cfg.Domain.Min[a]) {
			return nil, sceneError(name, "domain.max", "%v must exceed domain.min %v on every axis", cfg.Domain.Max, cfg.Domain.Min)
		}
	}
	if !(*f.Domain.H > 0) || math.IsInf(*f.Domain.H, 0) {
		return nil, sceneError(name, "domain.h", "%g: must be > 0", *f.Domain.H)
	}
	cfg.H = *f.Domain.H * resolution
	if f.Domain.Wall != nil {
		if cfg.Walls.Mode, err = parseMode(*f.Domain.Wall); err != nil {
			return nil, sceneError(name, "domain.wall", "%v", err)
		}
	}
	if f.Domain.WallFriction != nil {
		if !(*f.Domain.WallFriction >= 0) {
			return nil, sceneError(name, "domain.wall_friction", "%g: must be >= 0", *f.Domain.WallFriction)
		}
		cfg.Walls.Friction = *f.Domain.WallFriction
	}

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
	setFloat(&cfg.CFL, f.Time.CFL)
	setFloat(&cfg.WaveCells, f.Time.WaveCells)
	setFloat(&cfg.MaxDt, f.Time.MaxDt)
	setFloat(&cfg.MinDt, f.Time.MinDt)
	if f.Solver.Gravity != nil {
		cfg.Gravity = *f.Solver.Gravity
	}
	setFloat(&cfg.GravityStart, f.Solver.GravityStart)
	setFloat(&cfg.FlipAlpha, f.Solver.FlipAlpha)
	f.Sintering.set(&cfg.SinterStart, &cfg.SinterEnd)
	for i := range f.Press {
		p, err := f.Press[i].press(fmt.Sprintf("press[%d]", i+1))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		cfg.Presses = append(cfg.Presses, p)
	}
	if f.Solver.Threads != nil {
		cfg.Threads = *f.Solver.Threads
	}
	if in := f.Solver.Integrator; in != nil {
		switch *in {
		case "explicit":
			cfg.Integrator = simcore.Explicit
		case "semi-implicit":
			cfg.Integrator = simcore.SemiImplicit
		default:
			return nil, sceneError(name, "solver.integrator", "%q: use explicit or semi-implicit", *in)
		}
	}
	setFloat(&cfg.Beta, f.Solver.Beta)
	setFloat(&cfg.SolverTolerance, f.Solver.Tolerance)
	if f.Solver.MaxIterations != nil {
		cfg.SolverMaxIterations = *f.Solver.MaxIterations
	}
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
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

	sc.Materials = map[string]simcore.Material{}
	for _, pname := range simcore.PresetNames() {
		sc.Materials[pname], _ = simcore.Preset(pname)
	}
	for mname, mk := range f.Materials {
		m := simcore.DefaultMaterial
		if mk.Preset != nil {
			if m, err = simcore.Preset(*mk.Preset); err != nil {
				return nil, sceneError(name, "materials."+mname+".preset", "%v", err)
			}
		}
		setFloat(&m.CriticalCompression, mk.ThetaC)
		setFloat(&m.CriticalStretch, mk.ThetaS)
		setFloat(&m.Hardening, mk.Xi)
		setFloat(&m.Density, mk.Rho0)
		setFloat(&m.YoungsModulus, mk.E0)
		setFloat(&m.PoissonRatio, mk.Nu)
		if mk.Sintering != nil {
			m.Sintering = mk.Sintering.law()
		}
		if err := m.Validate(); err != nil {
			return nil, sceneError(name, "materials."+mname, "%v", err)
		}
		sc.Materials[mname] = m
	}

	dir := sceneDir(name)
	for i, sk := range f.Snow {
		key := fmt.Sprintf("snow[%d]", i+1)
		var shape geom.Shape
		var bounds geom.Box
		switch sk.Shape {
		case "mesh", "vdb":
			shape, bounds, err = sk.shapeKeys.snowFromFile(key, dir)
		case "plane":
			err = fmt.Errorf("%s.shape: %q: a snow volume is a \"sphere\", \"box\", \"cylinder\", \"mesh\" or \"vdb\"", key, sk.Shape)
		default:
			shape, bounds, err = sk.shapeKeys.build(key)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		for a := 0; a < 3; a++ {
			if bounds.Min[a] < cfg.Domain.Min[a] || bounds.Max[a] > cfg.Domain.Max[a] {
				return nil, sceneError(name, key, "the %s from %v to %v reaches outside the domain %v to %v",
					sk.Shape, bounds.Min, bounds.Max, cfg.Domain.Min, cfg.Domain.Max)
			}
		}
		src := simcore.Source{Shape: shape, Bounds: bounds, Material: simcore.DefaultMaterial, PerCell: 8,
			Center: bounds.Min.Add(bounds.Max).Scale(0.5)}
		if sk.Material != nil {
			m, ok := sc.Materials[*sk.Material]
			if !ok {
				return nil, sceneError(name, key+".material", "%q is not defined (define [materials.%s] or use a preset: %s)",
					*sk.Material, *sk.Material, strings.Join(simcore.PresetNames(), ", "))
			}
			src.Material = m
		}
		if sk.Pattern != nil {
			src.Pattern = simcore.Pattern(*sk.Pattern)
			if err := src.Pattern.Validate(); err != nil {
				return nil, sceneError(name, key+".pattern", "%v", err)
			}
		}

		if sk.ParticlesPerCell != nil {
			src.PerCell = *sk.ParticlesPerCell
		}
		if src.PerCell < 1 || src.PerCell > 64 {
			return nil, sceneError(name, key+".particles_per_cell", "%d: must be in [1, 64] (the paper uses 4-10)", src.PerCell)
		}
		if sk.Seed != nil {
			src.Seed = uint64(*sk.Seed)
		} else {
			src.Seed = uint64(i + 1)
		}
		if src.Variation, err = sk.variation(src.Seed); err != nil {
			return nil, sceneError(name, key, "%v", err)
		}
		if sk.Velocity != nil {
			src.Velocity = *sk.Velocity
		}
		if sk.Spin != nil {
			src.Spin = *sk.Spin
		}
		if !src.Velocity.IsFinite() || !src.Spin.IsFinite() {
			return nil, sceneError(name, key, "velocity and spin must be finite")
		}
		sc.Sources = append(sc.Sources, src)
	}
	if len(sc.Sources) == 0 {
		return nil, sceneError(name, "snow", "the scene has no [[snow]] volume")
	}

	for i, ck := range f.Collider {
		key := fmt.Sprintf("collider[%d]", i+1)
		col, frames, err := ck.collider(key, dir, cfg.H)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if frames != nil {
			sc.Sequences = append(sc.Sequences, frames)
		}
		cfg.Colliders = append(cfg.Colliders, col)
	}
	return sc, nil
}

// setFloat copies an optional key's value into dst when the key is present.
func setFloat(dst, src *float64) {
	if src != nil {
		*dst = *src
	}
}

// build turns shape keys into a shape and the box that bounds it (infinite for a plane).
func (k *shapeKeys) build(key string) (geom.Shape, geom.Box, error) {
	need := func(field string, ok bool) error {
		if !ok {
			return fmt.Errorf("%s.%s: required for shape %q", key, field, k.Shape)
		}
		return nil
	}
	finite := func(field string, v [3]float64) error {
		if !geom.Vec3(v).IsFinite() {
			return fmt.Errorf("%s.%s: %v must be finite", key, field, v)
		}
		return nil
	}
	switch k.Shape {
	case "sphere":
		if err := errors.Join(need("center", k.Center != nil), need("radius", k.Radius != nil)); err != nil {
			return nil, geom.Box{}, err
		}
		if err := finite("center", *k.Center); err != nil {
			return nil, geom.Box{}, err
		}
		if !(*k.Radius > 0) || math.IsInf(*k.Radius, 0) {
			return nil, geom.Box{}, fmt.Errorf("%s.radius: %g must be > 0", key, *k.Radius)
		}
		c, r := geom.Vec3(*k.Center), *k.Radius
		rr := geom.Vec3{r, r, r}
		return geom.Sphere{Center: c, Radius: r}, geom.Box{Min: c.Sub(rr), Max: c.Add(rr)}, nil
	case "box":
		if err := errors.Join(need("min", k.Min != nil), need("max", k.Max != nil)); err != nil {
			return nil, geom.Box{}, err
		}
		if err := errors.Join(finite("min", *k.Min), finite("max", *k.Max)); err != nil {
			return nil, geom.Box{}, err
		}
		b := geom.Box{Min: *k.Min, Max: *k.Max}
		for a := 0; a < 3; a++ {
			if !(b.Max[a] > b.Min[a]) {
				return nil, b, fmt.Errorf("%s.max: %v must exceed min %v on every axis", key, b.Max, b.Min)
			}
		}
		return geom.Box{Min: b.Min, Max: b.Max}, b, nil
	case "plane":
		if err := errors.Join(need("point", k.Point != nil), need("normal", k.Normal != nil)); err != nil {
			return nil, geom.Box{}, err
		}
		if err := errors.Join(finite("point", *k.Point), finite("normal", *k.Normal)); err != nil {
			return nil, geom.Box{}, err
		}
		n := geom.Vec3(*k.Normal)
		if n.Norm() == 0 {
			return nil, geom.Box{}, fmt.Errorf("%s.normal: must not be zero", key)
		}
		inf := math.Inf(1)
		return geom.HalfSpace{Point: *k.Point, Normal: n.Unit()},
			geom.Box{Min: geom.Vec3{-inf, -inf, -inf}, Max: geom.Vec3{inf, inf, inf}}, nil
	case "cylinder":
		if err := errors.Join(need("a", k.A != nil), need("b", k.B != nil), need("radius", k.Radius != nil)); err != nil {
			return nil, geom.Box{}, err
		}
		if err := errors.Join(finite("a", *k.A), finite("b", *k.B)); err != nil {
			return nil, geom.Box{}, err
		}
		a, b, r := geom.Vec3(*k.A), geom.Vec3(*k.B), *k.Radius
		if !(r > 0) || math.IsInf(r, 0) {
			return nil, geom.Box{}, fmt.Errorf("%s.radius: %g must be > 0", key, r)
		}
		if a == b {
			return nil, geom.Box{}, fmt.Errorf("%s.b: the axis ends a and b must differ", key)
		}
		rr := geom.Vec3{r, r, r}
		return geom.Cylinder{A: a, B: b, Radius: r}, geom.Box{Min: a.Min(b).Sub(rr), Max: a.Max(b).Add(rr)}, nil
	case "":
		return nil, geom.Box{}, fmt.Errorf("%s.shape: required (%s)", key, shapeNames)
	}
	return nil, geom.Box{}, fmt.Errorf("%s.shape: %q is not one of %s", key, k.Shape, shapeNames)
}

// shapeNames lists the shapes a scene knows.
const shapeNames = `"plane", "box", "sphere", "cylinder", "mesh" or "vdb"`

func parseMode(s string) (collider.ContactMode, error) {
	for _, m := range []collider.ContactMode{collider.Separate, collider.Slip, collider.Sticky} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("%q: must be \"separate\", \"slip\" or \"sticky\"", s)
}

// checkPattern accepts a plain file name holding exactly one frame placeholder
// (see package seq: ####, %04d, or another padding).
func checkPattern(p string) error {
	if p != filepath.Base(p) {
		return fmt.Errorf("%q: a file name, without folders (set output.dir for the folder)", p)
	}
	_, ok, err := seq.ParsePattern(p)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%q: needs one #### or %%04d for the frame number", p)
	}
	return nil
}

// frameName returns the file name of frame f of a pattern that checkPattern
// accepted.
func frameName(pattern string, f int) string {
	p, _, _ := seq.ParsePattern(pattern)
	return p.Path(f)
}
