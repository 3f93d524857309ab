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
	"snowtools/levelset"
	"snowtools/simcore"
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
		FPS    *float64 `toml:"fps"`
		Frames *int     `toml:"frames"`
		CFL    *float64 `toml:"cfl"`
		MaxDt  *float64 `toml:"max_dt"`
		MinDt  *float64 `toml:"min_dt"`
	} `toml:"time"`
	Solver struct {
		Gravity   *[3]float64 `toml:"gravity"`
		FlipAlpha *float64    `toml:"flip_alpha"`
		Threads   *int        `toml:"threads"`
	} `toml:"solver"`
	Output struct {
		Dir     *string `toml:"dir"`
		Pattern *string `toml:"pattern"`
	} `toml:"output"`
	Materials map[string]materialKeys `toml:"materials"`
	Snow      []snowKeys              `toml:"snow"`
	Collider  []colliderKeys          `toml:"collider"`
}

// materialKeys are Table 2's names; absent keys keep Table 2's values.
type materialKeys struct {
	ThetaC *float64 `toml:"theta_c"`
	ThetaS *float64 `toml:"theta_s"`
	Xi     *float64 `toml:"xi"`
	Rho0   *float64 `toml:"rho0"`
	E0     *float64 `toml:"E0"`
	Nu     *float64 `toml:"nu"`
}

type shapeKeys struct {
	Shape  string      `toml:"shape"`
	Center *[3]float64 `toml:"center"`
	Radius *float64    `toml:"radius"`
	Min    *[3]float64 `toml:"min"`
	Max    *[3]float64 `toml:"max"`
	Point  *[3]float64 `toml:"point"`
	Normal *[3]float64 `toml:"normal"`
}

type snowKeys struct {
	shapeKeys
	Material         *string     `toml:"material"`
	ParticlesPerCell *int        `toml:"particles_per_cell"`
	Seed             *int64      `toml:"seed"`
	Velocity         *[3]float64 `toml:"velocity"`
	Spin             *[3]float64 `toml:"spin"`
}

type colliderKeys struct {
	shapeKeys
	Velocity *[3]float64 `toml:"velocity"`
	Friction *float64    `toml:"friction"`
	Mode     *string     `toml:"mode"`
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
	cfg := &sc.Config
	if f.Domain.Min == nil || f.Domain.Max == nil || f.Domain.H == nil {
		return nil, sceneError(name, "domain", "min, max and h are required")
	}
	cfg.Domain = levelset.Bounds{Min: *f.Domain.Min, Max: *f.Domain.Max}
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

	setFloat := func(dst *float64, src *float64) {
		if src != nil {
			*dst = *src
		}
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
	setFloat(&cfg.MaxDt, f.Time.MaxDt)
	setFloat(&cfg.MinDt, f.Time.MinDt)
	if f.Solver.Gravity != nil {
		cfg.Gravity = *f.Solver.Gravity
	}
	setFloat(&cfg.FlipAlpha, f.Solver.FlipAlpha)
	if f.Solver.Threads != nil {
		cfg.Threads = *f.Solver.Threads
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

	sc.Materials = map[string]simcore.Material{"default": simcore.DefaultMaterial}
	for mname, mk := range f.Materials {
		m := simcore.DefaultMaterial
		setFloat(&m.CriticalCompression, mk.ThetaC)
		setFloat(&m.CriticalStretch, mk.ThetaS)
		setFloat(&m.Hardening, mk.Xi)
		setFloat(&m.Density, mk.Rho0)
		setFloat(&m.YoungsModulus, mk.E0)
		setFloat(&m.PoissonRatio, mk.Nu)
		if err := m.Validate(); err != nil {
			return nil, sceneError(name, "materials."+mname, "%v", err)
		}
		sc.Materials[mname] = m
	}

	for i, sk := range f.Snow {
		key := fmt.Sprintf("snow[%d]", i+1)
		shape, bounds, err := sk.shapeKeys.build(key)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if sk.Shape == "plane" {
			return nil, sceneError(name, key+".shape", "%q: snow volumes are \"sphere\" or \"box\"", sk.Shape)
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
				return nil, sceneError(name, key+".material", "%q is not defined (define [materials.%s] or use \"default\")", *sk.Material, *sk.Material)
			}
			src.Material = m
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
		shape, _, err := ck.shapeKeys.build(key)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		col := &simcore.MovingShape{Shape: shape, Contact: simcore.Surface{Mode: simcore.Separate, Friction: 0.2}}
		if ck.Velocity != nil {
			col.Velocity = *ck.Velocity
			if !col.Velocity.IsFinite() {
				return nil, sceneError(name, key+".velocity", "%v: must be finite", col.Velocity)
			}
		}
		if ck.Friction != nil {
			if !(*ck.Friction >= 0) || math.IsInf(*ck.Friction, 0) {
				return nil, sceneError(name, key+".friction", "%g: must be >= 0", *ck.Friction)
			}
			col.Contact.Friction = *ck.Friction
		}
		if ck.Mode != nil {
			if col.Contact.Mode, err = parseMode(*ck.Mode); err != nil {
				return nil, sceneError(name, key+".mode", "%v", err)
			}
		}
		cfg.Colliders = append(cfg.Colliders, col)
	}
	return sc, nil
}

// build turns shape keys into a shape and the box that bounds it (infinite for a plane).
func (k *shapeKeys) build(key string) (levelset.Shape, levelset.Bounds, error) {
	need := func(field string, ok bool) error {
		if !ok {
			return fmt.Errorf("%s.%s: required for shape %q", key, field, k.Shape)
		}
		return nil
	}
	finite := func(field string, v [3]float64) error {
		if !levelset.Vec3(v).IsFinite() {
			return fmt.Errorf("%s.%s: %v must be finite", key, field, v)
		}
		return nil
	}
	switch k.Shape {
	case "sphere":
		if err := errors.Join(need("center", k.Center != nil), need("radius", k.Radius != nil)); err != nil {
			return nil, levelset.Bounds{}, err
		}
		if err := finite("center", *k.Center); err != nil {
			return nil, levelset.Bounds{}, err
		}
		if !(*k.Radius > 0) || math.IsInf(*k.Radius, 0) {
			return nil, levelset.Bounds{}, fmt.Errorf("%s.radius: %g must be > 0", key, *k.Radius)
		}
		c, r := levelset.Vec3(*k.Center), *k.Radius
		rr := levelset.Vec3{r, r, r}
		return levelset.Sphere{Center: c, Radius: r}, levelset.Bounds{Min: c.Sub(rr), Max: c.Add(rr)}, nil
	case "box":
		if err := errors.Join(need("min", k.Min != nil), need("max", k.Max != nil)); err != nil {
			return nil, levelset.Bounds{}, err
		}
		if err := errors.Join(finite("min", *k.Min), finite("max", *k.Max)); err != nil {
			return nil, levelset.Bounds{}, err
		}
		b := levelset.Bounds{Min: *k.Min, Max: *k.Max}
		for a := 0; a < 3; a++ {
			if !(b.Max[a] > b.Min[a]) {
				return nil, b, fmt.Errorf("%s.max: %v must exceed min %v on every axis", key, b.Max, b.Min)
			}
		}
		return levelset.Box{Min: b.Min, Max: b.Max}, b, nil
	case "plane":
		if err := errors.Join(need("point", k.Point != nil), need("normal", k.Normal != nil)); err != nil {
			return nil, levelset.Bounds{}, err
		}
		if err := errors.Join(finite("point", *k.Point), finite("normal", *k.Normal)); err != nil {
			return nil, levelset.Bounds{}, err
		}
		n := levelset.Vec3(*k.Normal)
		if n.Norm() == 0 {
			return nil, levelset.Bounds{}, fmt.Errorf("%s.normal: must not be zero", key)
		}
		inf := math.Inf(1)
		return levelset.HalfSpace{Point: *k.Point, Normal: n.Unit()},
			levelset.Bounds{Min: levelset.Vec3{-inf, -inf, -inf}, Max: levelset.Vec3{inf, inf, inf}}, nil
	case "":
		return nil, levelset.Bounds{}, fmt.Errorf("%s.shape: required (\"plane\", \"box\" or \"sphere\")", key)
	}
	return nil, levelset.Bounds{}, fmt.Errorf("%s.shape: %q is not \"plane\", \"box\" or \"sphere\"", key, k.Shape)
}

func parseMode(s string) (simcore.ContactMode, error) {
	for _, m := range []simcore.ContactMode{simcore.Separate, simcore.Slip, simcore.Sticky} {
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
