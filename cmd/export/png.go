package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/preview"
	"snowtools/cmd/internal/seq"
	"snowtools/levelset/geom"
)

// viewSettings are the flags of -to png: the picture, the camera and the
// whole-sequence outputs; -to compare shares the picture and camera ones.
type viewSettings struct {
	size                string
	width, height       int
	supersample         int
	azimuth, elevation  float64
	fov                 float64
	eyeText, targetText string
	eye, target         *geom.Vec3
	radius              float64
	ground              string // the flag: auto, none, a height or a mesh
	groundMesh          string // the mesh file or sequence of -ground; "" for a plane
	mesh                string // -mesh: a mesh file or sequence drawn as objects; "" for none
	surface             bool   // -surface: draw the snow's surface mesh instead of its particles
	sheet, gif          string
	columns             int
	gifFPS              float64
	gifWidth            int
}

func (v *viewSettings) flags(fs *flag.FlagSet) {
	fs.StringVar(&v.size, "size", "1280x720", "png: picture size `WxH` in pixels; compare: each picture's size, "+compareCellSize+" unless given")
	fs.IntVar(&v.supersample, "ss", 2, "png, compare: supersampling: `N`xN samples per pixel")
	fs.Float64Var(&v.azimuth, "azimuth", preview.DefaultAzimuth, "png, compare: automatic camera: `degrees` about +Y from +Z towards +X")
	fs.Float64Var(&v.elevation, "elevation", preview.DefaultElevation, "png, compare: automatic camera: `degrees` above the horizon")
	fs.Float64Var(&v.fov, "fov", preview.DefaultFov, "png, compare: vertical field of view in `degrees`")
	fs.StringVar(&v.eyeText, "eye", "", "png, compare: camera position `x,y,z` (default: framed from the sequence's bounds)")
	fs.StringVar(&v.targetText, "target", "", "png, compare: point `x,y,z` the camera looks at (default: the centre of the bounds)")
	fs.Float64Var(&v.radius, "radius", 0, "png, compare: particle radius in `metres` (default: half the particle spacing); surface: one radius for all particles (default: each from its Mass and PhysicalDensity); ply: the radius -for houdini writes as pscale (same default); abc: widths, twice it (same default)")
	fs.StringVar(&v.ground, "ground", "auto", "png, compare: the `ground`: auto (a plane under the sequence's lowest particle, or -mesh's lowest point), none, a plane's height y, "+
		"or a mesh file or sequence (.ply .obj .stl .gltf .glb; #### for the frame number; a bare name is beside the particles) drawn with the particles")
	fs.StringVar(&v.mesh, "mesh", "", "png: also draw this mesh `file` or sequence with the particles, in clay, such as snowsim's [output] colliders "+
		"(.ply .obj .stl .gltf .glb; #### for the frame number; a bare name is beside the particles); the camera frames the particles")
	fs.BoolVar(&v.surface, "surface", false, "png: draw each frame's snow as its surface in snow white instead of particles: the closed mesh -to surface writes "+
		"with its defaults (not with -color)")
	fs.StringVar(&v.sheet, "sheet", "", "png: also write a contact sheet of every frame to `file`")
	fs.IntVar(&v.columns, "columns", 6, "png: contact sheet `columns`")
	fs.StringVar(&v.gif, "gif", "", "png: also write an animated GIF of the sequence to `file`")
	fs.Float64Var(&v.gifFPS, "gif-fps", 24, "png: GIF frame `rate`")
	fs.IntVar(&v.gifWidth, "gif-width", 480, "png: GIF width in `pixels`")
}

// check validates the flags and parses the ones that are text.
func (v *viewSettings) check() error {
	w, h, ok := strings.Cut(v.size, "x")
	var err1, err2 error
	v.width, err1 = strconv.Atoi(w)
	v.height, err2 = strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || v.width < 16 || v.height < 16 || v.width > 16384 || v.height > 16384 {
		return fmt.Errorf("-size %q: use WxH, 16 to 16384 pixels each", v.size)
	}
	switch {
	case v.supersample < 1 || v.supersample > 8:
		return fmt.Errorf("-ss %d: use 1 to 8", v.supersample)
	case !(v.fov > 0 && v.fov < 180):
		return fmt.Errorf("-fov %g: use 0 to 180 degrees", v.fov)
	case v.radius < 0 || math.IsNaN(v.radius):
		return fmt.Errorf("-radius %g: must be positive", v.radius)
	case v.columns < 1:
		return fmt.Errorf("-columns %d: must be at least 1", v.columns)
	case !(v.gifFPS > 0 && v.gifFPS <= 100):
		return fmt.Errorf("-gif-fps %g: use 0 to 100", v.gifFPS)
	case v.gifWidth < 16 || v.gifWidth > 4096:
		return fmt.Errorf("-gif-width %d: use 16 to 4096", v.gifWidth)
	}
	if v.mesh != "" {
		if err := checkMeshName("-mesh", v.mesh, ""); err != nil {
			return err
		}
	}
	if !isGroundPlane(v.ground) {
		if err := checkGroundMesh(v.ground); err != nil {
			return err
		}
		v.groundMesh = v.ground
	}
	for _, p := range []struct {
		text string
		dst  **geom.Vec3
		name string
	}{{v.eyeText, &v.eye, "-eye"}, {v.targetText, &v.target, "-target"}} {
		if p.text == "" {
			continue
		}
		vec, err := parseVec3(p.text)
		if err != nil {
			return fmt.Errorf("%s %v", p.name, err)
		}
		*p.dst = &vec
	}
	return nil
}

// pngConverter renders every frame with one camera, so that a sequence does not
// jump, and keeps small copies for the contact sheet and the GIF.
type pngConverter struct {
	s       *settings
	camera  preview.Camera
	opt     preview.Options
	radius  float32
	ground  *meshSequence // -ground's mesh; nil for none
	objects *meshSequence // -mesh's; nil for none

	sheet  []image.Image // by job index
	gif    []image.Image
	labels []string
}

// sheetCellWidth is the width of a contact sheet's pictures.
const sheetCellWidth = 320

func newPNGConverter(s *settings, jobs []job) (*pngConverter, error) {
	c := &pngConverter{s: s}
	if s.view.groundMesh != "" { // a missing mesh frame fails before anything is read
		var err error
		if c.ground, err = findMeshes("-ground", s.view.groundMesh, s.input); err != nil {
			return nil, err
		}
		if err := c.ground.check(jobs); err != nil {
			return nil, err
		}
	}
	if s.view.mesh != "" {
		var err error
		if c.objects, err = findMeshes("-mesh", s.view.mesh, s.input); err != nil {
			return nil, err
		}
		c.objects.solid = true
		if err := c.objects.check(jobs); err != nil {
			return nil, err
		}
	}
	// The whole sequence's bounds, not just the selected frames', so that runs split
	// over several machines frame the same; likewise the whole ground sequence's.
	all, err := seq.Find(s.input)
	if err != nil {
		return nil, err
	}
	lo, hi, err := s.sequenceBounds(all)
	if err != nil {
		return nil, err
	}
	if c.radius, err = particleRadius(s, jobPaths(jobs)); err != nil {
		return nil, err
	}
	floor := lo[1] - float64(c.radius)
	if c.objects != nil {
		// Colliders stand on the ground rather than through it: snow resting on a
		// wall's foot or a step is not above the plane, as it seems with the plane
		// under the lowest particle. (The camera still frames the particles alone.)
		olo, _, _, err := c.objects.bounds(nil, s.threads)
		if err != nil {
			return nil, err
		}
		floor = math.Min(floor, olo[1])
	}
	if c.ground != nil {
		mlo, mhi, rim, err := groundOf(c.ground, nil, s.threads)
		if err != nil {
			return nil, err
		}
		lo, hi = lo.Min(mlo), hi.Max(mhi)
		if !math.IsNaN(rim) {
			floor = rim
		}
	}
	c.camera, c.opt = s.view.scene(lo, hi, floor)
	c.sheet = make([]image.Image, len(jobs))
	c.gif = make([]image.Image, len(jobs))
	c.labels = make([]string, len(jobs))
	return c, nil
}

// sequenceBounds returns the box of the particles of frames (empty, lo > hi, when
// they have none), from their headers where they can tell.
func (s *settings) sequenceBounds(frames []seq.Frame) (lo, hi geom.Vec3, err error) {
	lo = geom.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Scale(-1)
	for _, f := range frames {
		flo, fhi, n, err := s.fileBounds(f.Path)
		if err != nil {
			return lo, hi, fmt.Errorf("frame %d (%s): %v", f.Number, f.Path, err)
		}
		if n > 0 {
			lo, hi = lo.Min(geom.Vec3(flo)), hi.Max(geom.Vec3(fhi))
		}
	}
	return lo, hi, nil
}

// scene returns the camera and the render options the flags ask for, for
// particles (and ground meshes) in the box [lo, hi]: a camera that frames the box
// unless -eye and -target place it, and the ground at floor for -ground auto or a
// mesh (the bottom of the lowest sphere: its y minus the radius, or -mesh's lowest
// point if lower; or the ground meshes' rim). One box and one floor for every picture give one still camera and
// ground; a non-finite floor (no particles anywhere) leaves each picture its own
// ground.
func (v *viewSettings) scene(lo, hi geom.Vec3, floor float64) (preview.Camera, preview.Options) {
	aspect := float64(v.width) / float64(v.height)
	camera := preview.Frame(lo, hi, aspect, v.azimuth, v.elevation, v.fov)
	if v.target != nil {
		camera.Target = *v.target
	}
	if v.eye != nil {
		camera.Eye = *v.eye
	}
	opt := preview.Options{Width: v.width, Height: v.height, Supersample: v.supersample, Ground: preview.GroundAt}
	switch v.ground {
	case "none":
		opt.Ground = preview.GroundNone
	case "auto", v.groundMesh:
		opt.GroundHeight = floor
		if math.IsInf(floor, 0) || math.IsNaN(floor) {
			opt.Ground = preview.GroundAuto
		}
	default:
		opt.GroundHeight, _ = strconv.ParseFloat(v.ground, 64)
	}
	return camera, opt
}

// particleRadius is -radius, or half the particle spacing of the first of the frames
// at paths that has particles or the GridSpacing metadata: the cube root of a
// particle's volume m/rho (from the Mass and PhysicalDensity channels snowsim
// writes), else of h^3/8 (eight particles per cell, snowsim's default). Empty
// frames before it (a spray that has not started) are skipped; when every frame is
// empty without GridSpacing there is nothing to size, and the radius is 0.
func particleRadius(s *settings, paths []string) (float32, error) {
	if s.view.radius > 0 {
		return float32(s.view.radius), nil
	}
	for _, path := range paths {
		f, err := s.readFrame(path)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", path, err)
		}
		if _, ok := f.gridSpacing(); ok || f.Len() > 0 {
			return frameRadius(f)
		}
	}
	return 0, nil
}

// jobPaths returns the input files of jobs.
func jobPaths(jobs []job) []string {
	paths := make([]string, len(jobs))
	for i, j := range jobs {
		paths[i] = j.in.Path
	}
	return paths
}

// frameRadius is particleRadius for one frame that has particles or GridSpacing.
func frameRadius(f *frame) (float32, error) {
	path := f.path
	m, errM := f.floats("Mass", 1)
	rho, errR := f.floats("PhysicalDensity", 1)
	if errM == nil && errR == nil && f.Len() > 0 {
		vols := make([]float64, 0, len(m))
		for i := range m {
			if rho[i] > 0 && m[i] > 0 {
				vols = append(vols, float64(m[i]/rho[i]))
			}
		}
		if len(vols) > 0 {
			slices.Sort(vols)
			return float32(0.5 * math.Cbrt(vols[len(vols)/2])), nil
		}
	}
	if h, ok := f.gridSpacing(); ok {
		return float32(0.5 * h / 2), nil
	}
	return 0, fmt.Errorf("%s: no Mass and PhysicalDensity channels nor GridSpacing to size the particles: give -radius", path)
}

func (c *pngConverter) convert(j job, threads int) result {
	opt := c.opt
	opt.Workers = threads
	var f *frame
	var pts preview.Points
	var err error
	if c.s.view.surface {
		f, opt.Snow, err = c.s.surfaceForPreview(j.in.Path, threads)
		pts.Radius = c.radius // the scale of the ambient occlusion
	} else {
		f, pts, err = c.s.points(j.in.Path, c.radius)
	}
	if err != nil {
		return result{err: err}
	}
	if c.ground != nil {
		if opt.Mesh, err = c.ground.load(j.in.Number); err != nil {
			return result{err: err}
		}
	}
	if c.objects != nil {
		if opt.Objects, err = c.objects.load(j.in.Number); err != nil {
			return result{err: err}
		}
	}
	var size int64
	if j.out != "" {
		img := preview.Render(pts, c.camera, opt)
		if size, err = writeOutput(j.out, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
			return result{err: err}
		}
	}
	// The small pictures are rendered at their own size rather than shrunk: the
	// supersampling then filters them as well as the full one.
	small := func(width int) image.Image {
		o := opt
		o.Width, o.Height = width, max(1, width*opt.Height/opt.Width)
		return preview.Render(pts, c.camera, o)
	}
	var cell, gifFrame image.Image
	if c.s.view.sheet != "" {
		cell = small(sheetCellWidth)
	}
	if c.s.view.gif != "" {
		gifFrame = small(c.s.view.gifWidth)
	}
	// Each job has its own index, so concurrent conversions never write the same slot.
	c.labels[j.index] = fmt.Sprintf("frame %d", j.in.Number)
	c.sheet[j.index], c.gif[j.index] = cell, gifFrame
	return result{particles: f.Len(), bytes: size}
}

// points reads the frame at path as the renderer's spheres of the given radius,
// coloured by -color.
func (s *settings) points(path string, radius float32) (*frame, preview.Points, error) {
	f, pos, err := s.readPositions(path)
	if err != nil {
		return nil, preview.Points{}, err
	}
	rgb, err := s.colors(f)
	if err != nil {
		return nil, preview.Points{}, err
	}
	return f, preview.Points{Pos: pos, Color: rgb, Radius: radius}, nil
}

// surfaceForPreview reads the frame at path and meshes its surface (surfaceMesh)
// for the renderer.
func (s *settings) surfaceForPreview(path string, threads int) (*frame, *preview.Mesh, error) {
	f, err := s.readFrame(path)
	if err != nil {
		return nil, nil, err
	}
	m, err := s.surfaceMesh(f, threads)
	if err != nil {
		return nil, nil, fmt.Errorf("surface: %v", err)
	}
	pm, err := preview.NewMesh(m)
	return f, pm, err
}

func (c *pngConverter) finish(log io.Writer) error {
	v := &c.s.view
	if v.sheet != "" {
		sheet := preview.ContactSheet(c.sheet, c.labels, min(v.columns, len(c.sheet)))
		if err := cli.WriteFileAtomic(v.sheet, func(w io.Writer) error { return png.Encode(w, sheet) }); err != nil {
			return err
		}
		fmt.Fprintf(log, "export: contact sheet of %d frames -> %s\n", len(c.sheet), v.sheet)
	}
	if v.gif != "" {
		delay := max(1, int(math.Round(100/v.gifFPS)))
		if err := cli.WriteFileAtomic(v.gif, func(w io.Writer) error { return preview.WriteGIF(w, c.gif, delay) }); err != nil {
			return err
		}
		fmt.Fprintf(log, "export: animated GIF of %d frames at %g fps -> %s\n", len(c.gif), 100/float64(delay), v.gif)
	}
	return nil
}
