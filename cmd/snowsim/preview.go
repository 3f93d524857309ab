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

func newPreviewer(sc *Scene, p *simcore.Particles) *previewer {
	d := sc.Config.Domain
	return &previewer{
		dir:     sc.OutDir,
		pattern: strings.TrimSuffix(sc.Pattern, filepath.Ext(sc.Pattern)) + ".png",
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

// write renders frame f.
func (pv *previewer) write(f int, p *simcore.Particles) error {
	pv.pos = pv.pos[:0]
	for _, x := range p.X {
		pv.pos = append(pv.pos, float32(x[0]), float32(x[1]), float32(x[2]))
	}
	img := preview.Render(preview.Points{Pos: pv.pos, Radius: pv.radius}, pv.camera, pv.opt)
	path := filepath.Join(pv.dir, frameName(pv.pattern, f))
	return cli.WriteFileAtomic(path, func(w io.Writer) error { return png.Encode(w, img) })
}
