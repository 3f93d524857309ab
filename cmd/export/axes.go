package main

import (
	"errors"
	"flag"
	"fmt"
	"math"

	"snowtools/levelset/geom"
)

// axesSettings are -up and -scale: the axes and unit of the geometry export writes
// (PLY point clouds, surface meshes), for DCCs that are Z up or not in metres, so
// that the snow lands upright and at its size without a hand fix (Blender's PLY
// importer has no axis option).
type axesSettings struct {
	up    string
	scale float64
	axes  geom.Axes // what they say, once checked
	// plyZUp writes PLY files Z up although -up was not given: the -for target's PLY
	// importer is Z up with no axis option (Blender's), while its OBJ importer turns
	// a Y-up file upright itself.
	plyZUp bool
}

func (a *axesSettings) flags(fs *flag.FlagSet) {
	fs.StringVar(&a.up, "up", "y", "ply, surface: the written files' up `axis`, y (ours) or z: our (x, y, z) is written (x, -z, y) (default y; with -for blender, z for .ply, which Blender's importer reads with no axis option)")
	fs.Float64Var(&a.scale, "scale", 1, "ply, surface: the written files' unit in metres (`factor`; 0.01 writes centimetres), as voxelize -scale reads them")
}

// check reads the flags; a .vdb keeps our axes, its grids' transform being a scale
// and a translation only. Without -up, the target's PLY importer decides the PLY
// files' up axis (upGiven: -up was on the command line).
func (a *axesSettings) check(outputs []string, to string, t *target, upGiven bool) error {
	a.plyZUp = !upGiven && t.ply != nil && t.ply.zUp
	switch a.up {
	case "y":
	case "z":
		if to == "surface" && hasExt(outputs, surfaceVDB) {
			return errors.New("-up z: a .vdb stays Y up (its transform holds no rotation); write it without -up, and the meshes in a second run, or turn the volume in the DCC")
		}
		a.axes.ZUp = true
	default:
		return fmt.Errorf("-up %q: use y or z", a.up)
	}
	if !(a.scale > 0) || math.IsInf(a.scale, 0) {
		return fmt.Errorf("-scale %g: must be > 0", a.scale)
	}
	if a.scale != 1 && to == "surface" && hasExt(outputs, surfaceVDB) {
		return errors.New("-scale: a .vdb stays in metres; write the meshes in a run of their own")
	}
	a.axes.Scale = a.scale // written with the inverse of what reads them back
	return nil
}

// of returns the axes and unit of the written files of a format (".ply", ".obj").
func (a *axesSettings) of(ext string) geom.Axes {
	axes := a.axes
	if ext == ".ply" && a.plyZUp {
		axes.ZUp = true
	}
	return axes
}

// toPLY returns points (x, y, z each) in the written PLY files' axes and unit, as a
// new slice; direction maps normals (turned, not scaled). The input is not changed.
func (a *axesSettings) toPLY(xyz []float32, direction bool) []float32 {
	axes := a.of(".ply")
	if axes.Identity() {
		return xyz
	}
	m := axes.Inverse()
	if direction {
		m = axes.InverseDirection
	}
	out := make([]float32, len(xyz))
	for i := 0; i+2 < len(xyz); i += 3 {
		p := m(geom.Vec3{float64(xyz[i]), float64(xyz[i+1]), float64(xyz[i+2])})
		out[i], out[i+1], out[i+2] = float32(p[0]), float32(p[1]), float32(p[2])
	}
	return out
}

// meshFor returns a mesh in the axes and unit of a format's written files (".obj",
// ".ply"): m itself when they are ours, else a copy.
func (a *axesSettings) meshFor(ext string, m *geom.Mesh) *geom.Mesh {
	return a.of(ext).Written(m)
}
