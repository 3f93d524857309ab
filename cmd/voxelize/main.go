// Command voxelize turns an animated mesh cache into one OpenVDB file per frame
// holding the collider that snowsim reads: the signed distance to the surface, the
// surface's velocity and its normal.
package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/vdb"
	"snowtools/levelset/geom"
	"snowtools/levelset/voxelize"
)

const usage = `voxelize turns an animated mesh into per-frame collider volumes for snowsim:
one OpenVDB file per frame with the grids "surface" (narrow-band signed distance,
negative inside), "velocity" (m/s) and "normal".

Usage:
  voxelize -voxel h [flags] mesh

The mesh is a glTF 2.0 file (.gltf or .glb; its animation is sampled at -fps), an
Alembic archive (.abc, Ogawa: its PolyMesh and SubD objects in world space, at its
own frame rate; -objects chooses some), or OBJ or STL files: a single file, a
pattern (name.####.obj, name.%04d.stl), or any one file of a numbered sequence
(cube1.obj, cube_000001.obj: the whole sequence is read). Vertex velocities come
from the neighbouring frames, or from an archive's stored .velocities.

Flags:
`

const examples = `
Examples:
  voxelize -voxel 0.02 -o colliders/char.####.vdb character.glb
  voxelize -voxel 0.02 -clip Walk -frames 1-48 -o walk.####.vdb fox.glb
  voxelize -res 128 -o spot.vdb spot.obj                 a static mesh, 128 voxels across
  voxelize -voxel 0.01 -fps 25 -o plough.####.vdb plough.####.obj
  voxelize -voxel 0.02 -objects '/rig/*,plough*' -scale 0.01 -o col.####.vdb shot.abc
  voxelize -voxel 0.02 -up z -scale 0.01 -o wall.vdb wall.stl   a Z-up STL in centimetres

Frame n is at n/fps seconds, as in snowsim and in Blender: a glTF's frames are
numbered by their times (Blender's frame 1 is at 1/24 s at 24 fps, and is written
as 0001), as an Alembic archive's are, an OBJ or STL sequence's by its files; -start renumbers them. -frames
selects part of the sequence (by those numbers) and gives the same files as a full
run, so a long cache can be split over machines.
`

// settings is what the flags say.
type settings struct {
	input      string
	output     string // file name, with a frame placeholder when there are several frames
	voxel      float64
	res        int
	fps        float64
	first      int // the frame range; 0, 0 for all
	last       int
	clip       string
	objects    []string // -objects: Alembic mesh patterns; nil for every mesh
	band       int      // 0: automatic
	maxBand    int      // the most the automatic band may be
	weld       float64
	normals    voxelize.NormalMethod
	sign       voxelize.SignMethod
	threads    int
	memory     budget.Flag
	selection  string    // the -frames text, for messages
	axes       geom.Axes // -up and -scale
	fpsGiven   bool      // -fps was on the command line
	start      int       // -start: the first frame's number
	startGiven bool
	vdbOptions vdb.Options // -vdb-codec
	// skipExisting leaves out the frames whose output file exists already.
	skipExisting bool
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	return cli.Run("voxelize", stderr,
		func() (*settings, error) { return parseFlags(args, stderr) },
		func(s *settings) error { return voxelizeAll(s, stderr) })
}

func parseFlags(args []string, stderr io.Writer) (*settings, error) {
	s := &settings{}
	fs := cli.NewFlagSet("voxelize", stderr, usage, examples)
	fs.StringVar(&s.output, "o", "", "output `file`, with #### or %04d for the frame number (default: <mesh name>.####.vdb)")
	fs.Float64Var(&s.voxel, "voxel", 0, "voxel size `h` in metres")
	fs.IntVar(&s.res, "res", 0, "instead of -voxel: `N` voxels across the longest side of the first frame's bounding box")
	fs.Float64Var(&s.fps, "fps", 24, "frame `rate`, in frames per second")
	fs.IntVar(&s.start, "start", 0, "number the first frame `N`, the others after it (default: the source's numbers: frame n of a glTF is the one at n/fps s, as Blender numbers it; an OBJ or STL sequence keeps its file numbers)")
	frames := fs.String("frames", "", "voxelize only frames `A-B` (or a single frame A) of the sequence")
	fs.BoolVar(&s.skipExisting, "skip-existing", false, "leave out the frames whose output file exists already (written atomically, so complete): a farm task run again, or a sequence to complete")
	fs.StringVar(&s.clip, "clip", "", "glTF animation `name` to play alone (default: every animation of the file, together)")
	objects := fs.String("objects", "", "Alembic: the meshes at or below the objects these `patterns` match, comma-separated: /path/* or name* (default: every mesh)")
	fs.IntVar(&s.band, "band", 0, "band half-width in `voxels` (default: 3 plus the frame's largest vertex displacement, at most -max-band)")
	fs.IntVar(&s.maxBand, "max-band", defaultMaxBand, "the most `voxels` the automatic band may be: a faster frame is capped, and the log says so")
	fs.Float64Var(&s.weld, "weld", 0, "weld vertices within `D` metres before the closed-mesh test (default 0: at exactly the same position)")
	normals := fs.String("normals", "gradient", "normal `method`: gradient (of the exact distance) or sum26 (the 26-neighbour sum of Umenhoffer et al.)")
	sign := fs.String("sign", "auto", "inside test `method`: auto, pseudonormal (closed meshes) or winding (meshes with holes)")
	fs.IntVar(&s.threads, "threads", 0, "worker threads `N` (default: all cores)")
	fs.Var(&s.memory, "memory", budget.FlagUsage)
	up := fs.String("up", "y", "the mesh files' up `axis`: y, or z for Z-up exports (Blender's STL default; its OBJ export is Y up); glTF is Y up by definition")
	fs.Float64Var(&s.axes.Scale, "scale", 1, "`factor` from the files' unit to metres (0.01 for centimetres)")
	codec := fs.String("vdb-codec", "zip", "compress the .vdb with `codec`: "+strings.Join(vdb.CodecNames, ", ")+" (blosc-lz4 is what Houdini writes; zip the smallest)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 1 {
		return nil, fmt.Errorf("give one mesh, not %q", fs.Args())
	}
	s.input = fs.Arg(0)
	s.objects = splitPatterns(*objects)
	if err := s.checkNumbers(fs.Given()); err != nil {
		return nil, err
	}
	s.vdbOptions = vdb.DefaultOptions
	if err := s.vdbOptions.SetCodec(*codec); err != nil {
		return nil, fmt.Errorf("-vdb-codec: %v", err)
	}
	s.fpsGiven = fs.Given()["fps"]
	s.startGiven = fs.Given()["start"]
	if err := s.methods(*normals, *sign); err != nil {
		return nil, err
	}
	if err := s.upAxis(*up); err != nil {
		return nil, err
	}
	if *frames != "" {
		var err error
		if s.first, s.last, err = seq.ParseRange(*frames); err != nil {
			return nil, fmt.Errorf("-frames %v", err)
		}
		s.selection = *frames
	}
	if s.output == "" {
		s.output = defaultOutput(s.input)
	}
	if _, _, err := seq.ParsePattern(s.output); err != nil {
		return nil, fmt.Errorf("-o %s: %v", s.output, err)
	}
	return s, nil
}

// checkNumbers checks the numeric flags; given says which the command line set.
func (s *settings) checkNumbers(given map[string]bool) error {
	switch {
	case given["voxel"] && given["res"]:
		return errors.New("-voxel and -res: give one")
	case !given["voxel"] && !given["res"]:
		return errors.New("-voxel h (metres) or -res N is required")
	case given["voxel"] && (!(s.voxel > 0) || math.IsInf(s.voxel, 0)):
		return fmt.Errorf("-voxel %g: must be > 0", s.voxel)
	case given["res"] && s.res <= 0:
		return fmt.Errorf("-res %d: must be > 0", s.res)
	case !(s.fps > 0) || math.IsInf(s.fps, 0):
		return fmt.Errorf("-fps %g: must be > 0", s.fps)
	case s.band < 0:
		return fmt.Errorf("-band %d: must be >= 0 (0: automatic)", s.band)
	case given["band"] && given["max-band"] && s.band > 0:
		return errors.New("-band and -max-band: give one (-max-band caps the automatic band)")
	case s.maxBand < kernelVoxels:
		return fmt.Errorf("-max-band %d: must be at least %d, the band without motion", s.maxBand, kernelVoxels)
	case !(s.weld >= 0) || math.IsInf(s.weld, 0):
		return fmt.Errorf("-weld %g: must be >= 0 metres", s.weld)
	case s.threads < 0:
		return fmt.Errorf("-threads %d: must be >= 0 (0: all cores)", s.threads)
	case s.threads > budget.MaxThreads:
		return budget.CheckThreads("-threads", s.threads)
	case s.start < 0:
		return fmt.Errorf("-start %d: must be >= 0", s.start)
	case !(s.axes.Scale > 0) || math.IsInf(s.axes.Scale, 0):
		return fmt.Errorf("-scale %g: must be > 0", s.axes.Scale)
	}
	return nil
}

// upAxis reads -up: y, or z for a Z-up mesh file; glTF files are Y up by the
// specification, so -up z does not apply to them.
func (s *settings) upAxis(up string) error {
	switch up {
	case "y":
	case "z":
		if ext := strings.ToLower(filepath.Ext(s.input)); ext == ".gltf" || ext == ".glb" {
			return fmt.Errorf("-up z: %s is glTF, which is Y up by definition (its exporters convert)", s.input)
		}
		s.axes.ZUp = true
	default:
		return fmt.Errorf("-up %q: use y or z", up)
	}
	return nil
}

// methods reads the -normals and -sign names.
func (s *settings) methods(normals, sign string) error {
	switch normals {
	case "gradient":
		s.normals = voxelize.NormalGradient
	case "sum26":
		s.normals = voxelize.NormalSum26
	default:
		return fmt.Errorf("-normals %q: use gradient or sum26", normals)
	}
	switch sign {
	case "auto":
		s.sign = voxelize.SignAuto
	case "pseudonormal":
		s.sign = voxelize.SignPseudonormal
	case "winding":
		s.sign = voxelize.SignWinding
	default:
		return fmt.Errorf("-sign %q: use auto, pseudonormal or winding", sign)
	}
	return nil
}

// defaultOutput names the output after the input: spot.obj -> spot.####.vdb,
// walk.####.obj and walk1.obj -> walk.####.vdb, in the current folder.
func defaultOutput(input string) string {
	base := seq.Stem(input)
	if base == "" {
		base = "collider"
	}
	return base + ".####.vdb"
}
