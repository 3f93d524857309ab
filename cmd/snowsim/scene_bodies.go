package main

import (
	"fmt"
	"math"
	"path/filepath"

	"snowtools/cmd/internal/meshfile"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/vdb"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
	"snowtools/simcore"
	"snowtools/simcore/collider"
)

// builtinSceneName is what parseScene is called for the built-in demo.
const builtinSceneName = "built-in demo"

// sceneDir is the folder a scene's relative file paths start from: the scene file's.
func sceneDir(name string) string {
	if name == builtinSceneName {
		return "."
	}
	return filepath.Dir(name)
}

// file returns the path key's file, resolved against the scene's folder.
func (k *shapeKeys) file(key, dir string) (string, error) {
	if k.Path == nil || *k.Path == "" {
		return "", fmt.Errorf("%s.path: required for shape %q", key, k.Shape)
	}
	if filepath.IsAbs(*k.Path) {
		return *k.Path, nil
	}
	return filepath.Join(dir, *k.Path), nil
}

// snowFromFile is a snow volume read from a file: a closed mesh (shape "mesh": OBJ,
// STL or a glTF scene's rest pose) filled exactly, or a level set (shape "vdb").
func (k *shapeKeys) snowFromFile(key, dir string) (geom.Shape, geom.Box, error) {
	path, err := k.file(key, dir)
	if err != nil {
		return nil, geom.Box{}, err
	}
	if k.Shape == "mesh" {
		m, err := k.mesh(key, path)
		if err != nil {
			return nil, geom.Box{}, fmt.Errorf("%s.path: %v", key, err)
		}
		shape, err := voxelize.NewMeshShape(m)
		if err != nil {
			return nil, geom.Box{}, fmt.Errorf("%s.path: %s: %v", key, path, err)
		}
		return shape, shape.Bounds(), nil
	}
	shape, err := k.levelSet(key, path)
	if err != nil {
		return nil, geom.Box{}, err
	}
	lo, hi, ok := shape.Grid().ActiveBounds()
	if !ok {
		return nil, geom.Box{}, fmt.Errorf("%s.path: %s: the level set has no active voxels", key, path)
	}
	tr := shape.Grid().Transform
	return shape, geom.Box{Min: tr.IndexToWorld(lo), Max: tr.IndexToWorld(hi)}, nil
}

// levelSet reads the level set grid of a VDB file: the grid named by the grid key,
// else "surface" (what voxelize writes), else the file's first level set.
func (k *shapeKeys) levelSet(key, path string) (*levelset.GridShape, error) {
	file, err := vdb.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s.path: %s: %v", key, path, err)
	}
	var g *vdb.Grid
	switch {
	case k.Grid != nil:
		if g = file.Grid(*k.Grid); g == nil {
			return nil, fmt.Errorf("%s.grid: %s has no grid %q", key, path, *k.Grid)
		}
	case file.Grid("surface") != nil:
		g = file.Grid("surface")
	default:
		for _, c := range file.Grids {
			if c.Class == vdb.LevelSet && c.Float != nil {
				g = c
				break
			}
		}
	}
	if g == nil || g.Float == nil {
		return nil, fmt.Errorf("%s.path: %s has no float level set grid", key, path)
	}
	shape, err := levelset.NewGridShape(g.Float)
	if err != nil {
		return nil, fmt.Errorf("%s.path: %s: grid %q: %v", key, path, g.Name, err)
	}
	return shape, nil
}

// variation reads the section 10 keys of a snow volume: noise-varied stiffness and
// critical stretch, and a harder shell. The noise seed defaults to the volume's seed.
func (sk *snowKeys) variation(seed uint64) (simcore.Variation, error) {
	v := simcore.Variation{NoiseSeed: seed}
	setFloat(&v.NoiseScale, sk.NoiseScale)
	if sk.NoiseSeed != nil {
		v.NoiseSeed = uint64(*sk.NoiseSeed)
	}
	setFloat(&v.StiffnessNoise, sk.StiffnessNoise)
	setFloat(&v.StretchNoise, sk.StretchNoise)
	setFloat(&v.ShellThickness, sk.ShellThickness)
	setFloat(&v.ShellStiffness, sk.ShellStiffness)
	setFloat(&v.ShellDensity, sk.ShellDensity)
	return v, v.Validate()
}

// collider builds a collider: an analytic shape, still, moving at a velocity or on
// keys; a mesh voxelized on load or a VDB level set, still or on keys; or a VDB
// sequence written by voxelize (a path with a frame placeholder), which deforms.
func (ck *colliderKeys) collider(key, dir string, h float64) (collider.Collider, *colliderFrames, error) {
	contact := collider.Surface{Mode: collider.Separate, Friction: 0.2}
	if ck.Friction != nil {
		if !(*ck.Friction >= 0) || math.IsInf(*ck.Friction, 0) {
			return nil, nil, fmt.Errorf("%s.friction: %g: must be >= 0", key, *ck.Friction)
		}
		contact.Friction = *ck.Friction
	}
	if ck.Mode != nil {
		var err error
		if contact.Mode, err = parseMode(*ck.Mode); err != nil {
			return nil, nil, fmt.Errorf("%s.mode: %v", key, err)
		}
	}
	if ck.Velocity != nil && len(ck.Keys) > 0 {
		return nil, nil, fmt.Errorf("%s: give velocity or [[%s.key]], not both", key, key)
	}
	if (ck.FPS != nil || ck.Start != nil) && ck.Shape != "vdb" {
		return nil, nil, fmt.Errorf("%s: fps and start are for a \"vdb\" sequence", key)
	}

	var body geom.Shape
	switch ck.Shape {
	case "vdb":
		path, err := ck.file(key, dir)
		if err != nil {
			return nil, nil, err
		}
		if _, isSequence, _ := seq.ParsePattern(path); isSequence {
			frames, err := ck.sequence(key, path, contact)
			if err != nil {
				return nil, nil, err
			}
			return frames.collider, frames, nil
		}
		if body, err = ck.levelSet(key, path); err != nil {
			return nil, nil, err
		}
	case "mesh":
		path, err := ck.file(key, dir)
		if err != nil {
			return nil, nil, err
		}
		m, err := ck.mesh(key, path)
		if err != nil {
			return nil, nil, err
		}
		if body, err = voxelizeCollider(key, path, m, ck.Voxel, h); err != nil {
			return nil, nil, err
		}
	default:
		var err error
		if body, _, err = ck.build(key); err != nil {
			return nil, nil, err
		}
	}
	if len(ck.Keys) == 0 {
		col := &collider.MovingShape{Shape: body, Contact: contact}
		if ck.Velocity != nil {
			col.Velocity = *ck.Velocity
			if !col.Velocity.IsFinite() {
				return nil, nil, fmt.Errorf("%s.velocity: %v: must be finite", key, col.Velocity)
			}
		}
		return col, nil, nil
	}
	trans, rot, err := ck.rigidKeys(key)
	if err != nil {
		return nil, nil, err
	}
	col, err := collider.NewRigidBody(body, trans, rot, contact)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", key, err)
	}
	return col, nil, nil
}

// sequence finds a voxelize sequence's files and their times. The first file is read
// here, for its frame rate, and kept as the first keyframe.
func (ck *colliderKeys) sequence(key, pattern string, contact collider.Surface) (*colliderFrames, error) {
	frames, err := seq.Find(pattern)
	if err != nil {
		return nil, fmt.Errorf("%s.path: %v", key, err)
	}
	first, err := vdb.ReadFile(frames[0].Path)
	if err != nil {
		return nil, fmt.Errorf("%s.path: %s: %v", key, frames[0].Path, err)
	}
	kf, err := keyframeOf(first)
	if err != nil {
		return nil, fmt.Errorf("%s.path: %s: %v", key, frames[0].Path, err)
	}
	fps, ok := first.Meta["fps"].(float64)
	if ck.FPS != nil {
		fps = *ck.FPS
	} else if !ok {
		return nil, fmt.Errorf("%s.path: %s has no \"fps\" metadata: give %s.fps", key, frames[0].Path, key)
	}
	if !(fps > 0) || math.IsInf(fps, 0) {
		return nil, fmt.Errorf("%s.fps: %g: must be > 0", key, fps)
	}
	start := 0.0
	if ck.Start != nil {
		start = *ck.Start
		if math.IsNaN(start) || math.IsInf(start, 0) {
			return nil, fmt.Errorf("%s.start: %g: must be finite", key, start)
		}
	}
	c := newColliderFrames(key, frames, fps, start, contact)
	c.loaded[0] = kf
	return c, nil
}

// mesh reads a mesh file: a glTF scene posed at the time key (by the clip key's
// animation, default the first), else in its rest pose.
func (k *shapeKeys) mesh(key, path string) (*geom.Mesh, error) {
	clip, t := "", -1.0
	if k.Clip != nil {
		clip = *k.Clip
	}
	if k.Time != nil {
		if t = *k.Time; !(t >= 0) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("%s.time: %g: must be >= 0", key, t)
		}
	}
	m, err := meshfile.ReadAt(path, clip, t)
	if err != nil {
		return nil, fmt.Errorf("%s.path: %v", key, err)
	}
	return m, nil
}

// voxelizeCollider turns a static mesh into the level set a rigid collider carries,
// with voxels of the given size (default h/2, so that the trilinear level set is
// finer than the simulation grid).
func voxelizeCollider(key, path string, m *geom.Mesh, voxel *float64, h float64) (*levelset.GridShape, error) {
	size := h / 2
	if voxel != nil {
		if size = *voxel; !(size > 0) || math.IsInf(size, 0) {
			return nil, fmt.Errorf("%s.voxel: %g: must be > 0", key, size)
		}
	}
	// The band reaches the solver's kernel (two cells of h) around the surface.
	band := int(math.Ceil(2*h/size)) + 1
	c, err := voxelize.Mesh(m, voxelize.Options{VoxelSize: size, HalfWidth: band})
	if err != nil {
		return nil, fmt.Errorf("%s.path: %s: %v", key, path, err)
	}
	return levelset.NewGridShape(c.Surface)
}

// rigidKeys reads the [[collider.key]] tables: times in increasing order, each with
// a translation, a rotation, or both.
func (ck *colliderKeys) rigidKeys(key string) ([]collider.TranslationKey, []collider.RotationKey, error) {
	var trans []collider.TranslationKey
	var rot []collider.RotationKey
	for i, k := range ck.Keys {
		kk := fmt.Sprintf("%s.key[%d]", key, i+1)
		if k.Time == nil {
			return nil, nil, fmt.Errorf("%s.time: required", kk)
		}
		t := *k.Time
		if k.Translation == nil && k.Rotation == nil && k.Axis == nil {
			return nil, nil, fmt.Errorf("%s: give a translation, a rotation (x, y, z, w) or an axis and angle", kk)
		}
		if k.Translation != nil {
			trans = append(trans, collider.TranslationKey{T: t, P: *k.Translation})
		}
		switch {
		case k.Rotation != nil && k.Axis != nil:
			return nil, nil, fmt.Errorf("%s: give rotation or axis and angle, not both", kk)
		case k.Rotation != nil:
			q := *k.Rotation
			rot = append(rot, collider.RotationKey{T: t, Q: collider.Quat{W: q[3], X: q[0], Y: q[1], Z: q[2]}})
		case k.Axis != nil:
			if k.Angle == nil {
				return nil, nil, fmt.Errorf("%s.angle: required with axis (degrees)", kk)
			}
			axis := geom.Vec3(*k.Axis)
			if !(axis.Norm() > 0) || !axis.IsFinite() {
				return nil, nil, fmt.Errorf("%s.axis: %v: must be a finite, non-zero vector", kk, axis)
			}
			rot = append(rot, collider.RotationKey{T: t, Q: collider.QuatAxisAngle(axis, *k.Angle*math.Pi/180)})
		case k.Angle != nil:
			return nil, nil, fmt.Errorf("%s.axis: required with angle", kk)
		}
	}
	return trans, rot, nil
}
