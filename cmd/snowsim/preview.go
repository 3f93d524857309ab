package main

import (
	"image/png"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/preview"
	"snowtools/cmd/internal/scene"
	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// previewSize is the size of the pictures -preview writes.
const previewWidth, previewHeight = 960, 540

// A previewer renders a picture of every frame while the simulation runs, from one
// camera that frames the scene's domain (the box the snow cannot leave), with the
// ground on the domain's floor.
type previewer struct {
	dir, pattern string // pattern: the frames' pattern with the extension .png
	camera       preview.Camera
	opt          preview.Options
	radius       float32
	pos          []float32
}

func newPreviewer(sc *scene.Scene, p *simcore.Particles) *previewer {
	d := sc.Config.Domain
	return &previewer{
		dir:     sc.OutDir,
		pattern: previewPattern(sc.Pattern),
		camera:  preview.Frame(d.Min, d.Max, float64(previewWidth)/previewHeight, preview.DefaultAzimuth, preview.DefaultElevation, preview.DefaultFov),
		opt: preview.Options{Width: previewWidth, Height: previewHeight, Ground: preview.GroundAt,
			GroundHeight: d.Min[1], Workers: sc.Config.Threads},
		radius: particleRadius(p, sc.Config.H),
	}
}

// particleRadius is half the particle spacing: the cube root of the median particle
// volume, or h/2 (eight particles per cell) before volumes are known.
func particleRadius(p *simcore.Particles, h float64) float32 {
	vols := make([]float32, 0, p.Len())
	for _, v := range p.Vol0 {
		if v > 0 {
			vols = append(vols, v)
		}
	}
	if len(vols) == 0 {
		return float32(h / 4)
	}
	slices.Sort(vols)
	return float32(0.5 * math.Cbrt(float64(vols[len(vols)/2])))
}

// newGroundPreviewer frames a ground scene's whole ground, from the column bottoms
// to as high above the terrain, with the spray drawn as grains of its volume.
func newGroundPreviewer(sc *scene.Scene) *previewer {
	cfg := sc.Ground.Config
	e := cfg.Extent
	top := cfg.Terrain.Top()
	lo := geom.Vec3{cfg.X(e.I0), top - 0.1, cfg.Z(e.J0)}
	hi := geom.Vec3{cfg.X(e.I1 - 1), top + 0.1, cfg.Z(e.J1 - 1)}
	return &previewer{
		dir:     sc.OutDir,
		pattern: previewPattern(sc.Pattern),
		camera:  preview.Frame(lo, hi, float64(previewWidth)/previewHeight, preview.DefaultAzimuth, preview.DefaultElevation, preview.DefaultFov),
		opt:     preview.Options{Width: previewWidth, Height: previewHeight, Ground: preview.GroundAuto, Workers: cfg.Threads},
		radius:  float32(0.5 * math.Cbrt(max(cfg.Spray.ParticleVolume, 1e-12))),
	}
}

// render draws particles at xs and, when not nil, the ground mesh and the
// colliders' mesh, as frame f's picture.
func (pv *previewer) render(f int, xs []geom.Vec3, ground, colliders *geom.Mesh) error {
	pv.pos = pv.pos[:0]
	for _, x := range xs {
		pv.pos = append(pv.pos, float32(x[0]), float32(x[1]), float32(x[2]))
	}
	opt := pv.opt
	for _, m := range []struct {
		mesh    *geom.Mesh
		prepare func(*geom.Mesh) (*preview.Mesh, error)
		dst     **preview.Mesh
	}{{ground, preview.NewMesh, &opt.Mesh}, {colliders, preview.NewSolidMesh, &opt.Objects}} {
		if m.mesh == nil {
			continue
		}
		pm, err := m.prepare(m.mesh)
		if err != nil {
			return err
		}
		*m.dst = pm
	}
	img := preview.Render(preview.Points{Pos: pv.pos, Radius: pv.radius}, pv.camera, opt)
	path := filepath.Join(pv.dir, frameName(pv.pattern, f))
	return cli.WriteFileAtomic(path, func(w io.Writer) error { return png.Encode(w, img) })
}

// previewPattern is the pattern of the pictures of the frames of pattern: its
// extension replaced by .png.
func previewPattern(pattern string) string {
	return strings.TrimSuffix(pattern, filepath.Ext(pattern)) + ".png"
}
