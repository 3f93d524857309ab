package scene

import (
	"math"
	"path/filepath"
	"strings"

	"snowtools/cmd/internal/meshfile"
	"snowtools/formats/vdb"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

// The files a body's shape keys name: a mesh (OBJ, STL, PLY, glTF or Alembic, shape
// "mesh") or an OpenVDB level set (shape "vdb").

// file returns the path key's file, resolved against the scene's folder.
func (l *loader) file(k *shapeKeys, key string) (string, error) {
	if k.Path == nil || *k.Path == "" {
		return "", keyError(key+".path", "required for shape %q", k.Shape)
	}
	return l.path(*k.Path), nil
}

// mesh reads a mesh file: a glTF scene posed at the time key (by the clip key's
// animation, default all of them together, as voxelize plays them), else in its
// rest pose; an Alembic archive's meshes at the time key, else at its first sample.
func (k *shapeKeys) mesh(key, path string) (*geom.Mesh, error) {
	clip, t := "", -1.0
	set(&clip, k.Clip)
	if k.Time != nil {
		if t = *k.Time; !(t >= 0) || math.IsInf(t, 0) {
			return nil, keyError(key+".time", "%g: must be >= 0", t)
		}
	}
	axes, err := k.axes(key, path)
	if err != nil {
		return nil, err
	}
	m, err := meshfile.ReadAt(path, clip, t)
	if err != nil {
		return nil, keyError(key+".path", "%v", err)
	}
	axes.Apply(m)
	return m, nil
}

// axes reads a mesh file's up and scale keys, as voxelize's -up and -scale: a Z-up
// OBJ, STL or PLY (Blender's STL default) and a file in centimetres come in upright
// and in metres. glTF is Y up and in metres by definition.
func (k *shapeKeys) axes(key, path string) (geom.Axes, error) {
	if ext := strings.ToLower(filepath.Ext(path)); k.Up != nil && *k.Up == "z" && (ext == ".gltf" || ext == ".glb") {
		return geom.Axes{}, keyError(key+".up", "\"z\": glTF is Y up by definition")
	}
	return axesKeys(key, k.Up, k.Scale)
}

// axesKeys reads an up key ("y" or "z") and a scale key (the file's unit in metres)
// under key.
func axesKeys(key string, up *string, scale *float64) (geom.Axes, error) {
	var a geom.Axes
	if up != nil {
		switch *up {
		case "y":
		case "z":
			a.ZUp = true
		default:
			return a, keyError(key+".up", "%q: use \"y\" or \"z\"", *up)
		}
	}
	if scale != nil {
		if a.Scale = *scale; !(a.Scale > 0) || math.IsInf(a.Scale, 0) {
			return a, keyError(key+".scale", "%g: must be > 0", a.Scale)
		}
	}
	return a, nil
}

// meshKeysOnly refuses the keys that only a mesh file reads on a body of another
// shape, where they would be ignored.
func (k *shapeKeys) meshKeysOnly(key string) error {
	switch {
	case k.Up != nil:
		return keyError(key+".up", "is for shape \"mesh\", not %q", k.Shape)
	case k.Scale != nil:
		return keyError(key+".scale", "is for shape \"mesh\", not %q", k.Shape)
	}
	return nil
}

// levelSet reads the level set grid of a VDB file: the grid named by the grid key,
// else "surface" (what voxelize writes), else the file's first level set.
func (k *shapeKeys) levelSet(key, path string) (*levelset.GridShape, error) {
	if err := k.meshKeysOnly(key); err != nil {
		return nil, err
	}
	file, err := vdb.ReadFile(path)
	if err != nil {
		return nil, keyError(key+".path", "%s: %v", path, err)
	}
	var g *vdb.Grid
	switch {
	case k.Grid != nil:
		if g = file.Grid(*k.Grid); g == nil {
			return nil, keyError(key+".grid", "%s has no grid %q", path, *k.Grid)
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
		return nil, keyError(key+".path", "%s has no float level set grid", path)
	}
	shape, err := levelset.NewGridShape(g.Float)
	if err != nil {
		return nil, keyError(key+".path", "%s: grid %q: %v", path, g.Name, err)
	}
	return shape, nil
}

// snowFromFile is a snow volume read from a file: a closed mesh filled exactly, or a
// level set; with the box that bounds it.
func (l *loader) snowFromFile(k *shapeKeys, key string) (geom.Shape, geom.Box, error) {
	path, err := l.file(k, key)
	if err != nil {
		return nil, geom.Box{}, err
	}
	if k.Shape == "mesh" {
		m, err := k.mesh(key, path)
		if err != nil {
			return nil, geom.Box{}, err
		}
		shape, err := voxelize.NewMeshShape(m)
		if err != nil {
			return nil, geom.Box{}, keyError(key+".path", "%s: %v", path, err)
		}
		return shape, shape.Bounds(), nil
	}
	shape, err := k.levelSet(key, path)
	if err != nil {
		return nil, geom.Box{}, err
	}
	lo, hi, ok := shape.Grid().ActiveBounds()
	if !ok {
		return nil, geom.Box{}, keyError(key+".path", "%s: the level set has no active voxels", path)
	}
	tr := shape.Grid().Transform
	return shape, geom.Box{Min: tr.IndexToWorld(lo), Max: tr.IndexToWorld(hi)}, nil
}

// meshCollider reads a collider's mesh and turns it into the level set a rigid
// collider carries, with voxels of the voxel key's size (default h/2, so that the
// trilinear level set is finer than the simulation grid). It returns the mesh too,
// for pictures.
func (l *loader) meshCollider(k *shapeKeys, key string, h float64) (*levelset.GridShape, *geom.Mesh, error) {
	path, err := l.file(k, key)
	if err != nil {
		return nil, nil, err
	}
	m, err := k.mesh(key, path)
	if err != nil {
		return nil, nil, err
	}
	size := h / 2
	if k.Voxel != nil {
		if size = *k.Voxel; !(size > 0) || math.IsInf(size, 0) {
			return nil, nil, keyError(key+".voxel", "%g: must be > 0", size)
		}
	}
	// The band reaches the solver's kernel (two cells of h) around the surface.
	band := int(math.Ceil(2*h/size)) + 1
	c, err := voxelize.Mesh(m, voxelize.Options{VoxelSize: size, HalfWidth: band})
	if err != nil {
		return nil, nil, keyError(key+".path", "%s: %v", path, err)
	}
	shape, err := levelset.NewGridShape(c.Surface)
	return shape, m, err
}

// vdbCollider reads a collider's level set from a VDB file.
func (l *loader) vdbCollider(k *shapeKeys, key string) (*levelset.GridShape, error) {
	path, err := l.file(k, key)
	if err != nil {
		return nil, err
	}
	return k.levelSet(key, path)
}
