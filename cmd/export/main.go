// Command export turns snowsim's PRT particle frames into what renderers and DCCs
// load: PLY point clouds, OpenVDB density volumes, PRT files with other channels, an
// Alembic points archive, and PNG previews with a contact sheet or an animated GIF; lays several runs side by side
// in one picture; and reports how the snow breaks into lumps and powder.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"

	"snowtools/cmd/internal/budget"
	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/colormap"
	"snowtools/cmd/internal/seq"
	"snowtools/formats/vdb"
	"snowtools/levelset/geom"
)

const usage = `export converts particle frames (Krakatoa PRT, as snowsim writes them) into
PLY point clouds, OpenVDB volumes, PRT files with other channels, one Alembic
archive of points for the whole sequence, or PNG previews,
or into the snow's surface (a level set and a density cut by it, or a mesh);
compares runs side by side in one picture, or reports their clusters: lumps and
powder.

Usage:
  export -to ply|vdb|prt|png|clusters|abc [flags] input output
  export -to surface [flags] input output...
  export -to compare [flags] output.png input...

From bash, run it by its path (bin/export) or as "env export ...": a bare "export"
is the shell's builtin.

input is a PRT file, a pattern (sim/snow.####.prt, snow.%04d.prt) or any one file of
a numbered sequence (but one numbered file to one output file converts that file
alone); output names the files to write, with #### or %04d for the frame number, or
for clusters the one CSV report (- for stdout), for abc the one .abc archive (a
Points object: positions, ids, velocities, widths and the float channels, a sample
per frame at the frames' FrameRate; or, for an input of meshes such as snowsim's
ground.####.ply or .obj, a PolyMesh object in metres, Y up, at the frame rate that
their header comments give, else -fps). surface writes an output per pattern, by its
extension: .vdb (the level set "surface" and the density "density" cut by it), .obj
or .ply (the closed mesh of the surface), or one .abc archive of the meshes. compare writes one
PNG: a row per input (a run), a column per frame, all seen by one camera, and logs
how far each run's shape in the last column is from the first run's (-differences:
in every column, as CSV). Frames are converted in parallel; files are replaced only when
complete.

Flags:
`

const examples = `
Examples:
  export -to ply 'sim/snow.####.prt' 'ply/snow.####.ply'
  export -to ply -ascii -color Velocity -normals sim/snow.0042.prt snow42.ply          (that frame alone)
  export -to vdb -velocity 'sim/snow.####.prt' 'vdb/snow.####.vdb'
  export -to ply -for houdini -velocity 'sim/snow.####.prt' 'houdini/snow.####.ply'   (id, pscale, vx vy vz)
  export -to vdb -for houdini -velocity 'sim/snow.####.prt' 'houdini/snow.####.vdb'   (grids density, vel)
  export -to vdb -for blender -velocity 'sim/snow.####.prt' 'blender/snow.####.vdb'   (grids density, velocity)
  export -to prt -for krakatoa -color Velocity 'sim/snow.####.prt' 'krakatoa/snow.####.prt'   (Color float16)
  export -to vdb -for houdini -velocity -rename Velocity=v in.prt out.vdb       (-rename wins over -for)
  export -to vdb -voxel 0.005 -filter 2 -half density 'sim/snow.####.prt' 'vdb/fine.####.vdb'
  export -to prt -drop Mass,PlasticJ -half Velocity,Density 'sim/snow.####.prt' 'krakatoa/snow.####.prt'
  export -to prt -rename PlasticJ=Hardening -color PlasticJ -colormap ice in.prt out.prt
  export -to png -color Velocity 'sim/snow.####.prt' 'preview/snow.####.png'
  export -to png -sheet sheet.png -gif snow.gif 'sim/snow.####.prt'
  export -to png -frames 1-48 -eye 3,2,4 -target 0,0.5,0 'sim/snow.####.prt' 'shot/snow.####.png'
  export -to png -ground ground.####.ply -sheet sheet.png 'sim/spray.####.prt' 'png/spray.####.png'  (sim/ground.####.ply)
  export -to surface 'sim/snow.####.prt' 'surface/snow.####.vdb' 'surface/snow.####.obj'
  export -to surface -velocity -smooth 2 'sim/snow.####.prt' 'mesh/snow.####.ply'   (vertex velocities)
  export -to png -mesh colliders.####.obj -gif snow.gif 'sim/snow.####.prt'   (snowsim's [output] colliders, beside the frames)
  export -to png -surface -mesh colliders.####.obj 'sim/snow.####.prt' 'png/surface.####.png'   (the snow's surface mesh)
  export -to abc 'sim/snow.####.prt' snow.abc                 (one archive: Points /snow, a sample per frame)
  export -to surface -velocity 'sim/snow.####.prt' surface.abc   (one archive: PolyMesh /surface)
  export -to abc 'sim/ground.####.ply' ground.abc             (snowsim's ground meshes: PolyMesh /ground)
  export -to clusters 'sim/snow.####.prt' clusters.csv
  export -to clusters -link 0.015 -powder 20 -frames 24-96 'sim/snow.####.prt' -
  export -to compare -frames 20,40,60,80,100 -labels '1 kPa,3 kPa' cmp.png 'p1/snow.####.prt' 'p3/snow.####.prt'
  export -to compare -frames 0-120 -every 24 -color Velocity cmp.png runs/*/snow.0001.prt
  export -to compare -differences shapes.csv cmp.png 'explicit/snow.####.prt' 'auto/snow.####.prt'   (how far auto's shape is from explicit's, in h)

-for names what the files hold as a program reads them: houdini (PLY: id and
pscale, the radius from Mass and PhysicalDensity or -radius; VDB: density, vel; it
reads no PRT), blender (VDB: density, velocity; PLY: x y z, red green blue; no PRT)
or krakatoa (PRT: Position, Velocity, Density, ID, Color as float16; PLY: x y z,
nx ny nz, red green blue; no VDB). Without it, the names are export's own. -rename
names a channel's property or grid over -for's; the names are checked (none twice,
PRT and PLY names identifiers, Position kept). The particle ID is int32 in every file.

Colours (-color) come from a channel: its value, or its length for vectors
(Velocity: speed), through -colormap over -color-range; without a range each frame
uses its own 1st to 99th percentile, so give one for a sequence that should not
flicker. compare colours every picture over one range: -color-range, or else one
that spans each picture's own.
`

// settings is what the flags say.
type settings struct {
	to            string
	input, output string // output "": png with only -sheet or -gif, clusters (clusters.report) and compare
	first, last   int    // the frame range; 0, 0 for all (compare: compare.frames)
	selection     string // the -frames text, for messages
	skipExisting  bool   // -skip-existing: leave out frames whose outputs all exist
	threads       int
	memory        budget.Flag
	budget        budget.Budget // -memory, or the default

	color      string // channel to colour by; "" for none
	colormap   colormap.Map
	colorRange *colormap.Range // nil: each frame's robust range

	// ply
	ascii, normals bool
	// ply and vdb
	velocity bool
	props    []string // more channels: PLY properties, VDB grids
	// vdb and surface
	voxel, filter, mass float64
	filterGiven         bool // surface: else the filter spans the simulation's h
	upGiven             bool // -up was given: else -for's program decides a PLY's up axis
	// prt and vdb
	half []string
	// vdb and surface: -vdb-codec
	vdbOptions vdb.Options
	// prt
	keep, drop []string
	// prt, ply, vdb and surface
	rename map[string]string // input channel -> the name its output takes
	target *target           // -for: the names the files take; ownNames without it
	// png
	view viewSettings
	// clusters
	clusters clusterSettings
	// compare
	compare compareSettings
	// surface
	surface surfaceSettings
	// ply and surface
	axes axesSettings
	// abc, and an .abc output of surface
	abc abcSettings
}

// flagModes says which -to modes a flag applies to; flags not listed apply to all.
var flagModes = map[string]string{
	"ascii": "ply", "normals": "ply",
	"velocity": "ply vdb surface", "props": "ply vdb surface",
	"voxel": "vdb surface", "filter": "vdb surface", "mass": "vdb clusters surface ply abc",
	"half": "prt vdb surface", "vdb-codec": "vdb surface",
	"keep": "prt abc", "drop": "prt abc", "rename": "prt ply vdb surface", "for": "prt ply vdb surface",
	"size": "png compare", "ss": "png compare", "azimuth": "png compare", "elevation": "png compare",
	"fov": "png compare", "eye": "png compare", "target": "png compare", "radius": "png compare surface ply abc",
	"ground": "png compare", "mesh": "png", "sheet": "png", "columns": "png", "gif": "png",
	"gif-fps": "png", "gif-width": "png", "surface": "png",
	"link": "clusters", "powder": "clusters",
	"labels": "compare", "every": "compare", "differences": "compare", "cell": "compare",
	"smooth": "surface", "closing": "surface", "radius-scale": "surface",
	"up": "ply surface", "scale": "ply surface",
	"fps":           "abc surface",
	"skip-existing": "ply vdb prt png surface",
}

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

func run(args []string, stderr io.Writer) int {
	return cli.Run("export", stderr,
		func() (*settings, error) { return parseFlags(args, stderr) },
		func(s *settings) error { return exportAll(s, stderr) })
}

func parseFlags(args []string, stderr io.Writer) (*settings, error) {
	s := &settings{}
	fs := cli.NewFlagSet("export", stderr, usage, examples)
	raw := s.define(fs.FlagSet)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch s.to {
	case "ply", "vdb", "prt", "png", "clusters", "compare", "surface", "abc":
	case "":
		return nil, errors.New("-to is required: ply, vdb, prt, png, clusters, compare, surface or abc")
	default:
		return nil, fmt.Errorf("-to %q: use ply, vdb, prt, png, clusters, compare, surface or abc", s.to)
	}
	given, err := s.flagsGiven(fs.FlagSet)
	if err != nil {
		return nil, err
	}
	s.upGiven = given["up"]
	if err := s.arguments(fs.FlagSet, raw.frames, given); err != nil {
		return nil, err
	}
	if err := s.convert(raw); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// rawFlags are the flag values that settings takes after parsing and checking.
type rawFlags struct {
	frames, cmap, crange, props, half, keep, drop, rename, target, vdbCodec *string
}

// define declares the flags on fs: most straight into s, the rest into the rawFlags
// that convert reads.
func (s *settings) define(fs *flag.FlagSet) *rawFlags {
	fs.StringVar(&s.to, "to", "", "output `format`: ply, vdb, prt, png, clusters, compare, surface or abc (required)")
	raw := &rawFlags{frames: fs.String("frames", "", "export only frames `A-B` (or a single frame A) of the sequence; compare: the columns, a list such as 20,40,60-80")}
	fs.BoolVar(&s.skipExisting, "skip-existing", false, "leave out the frames whose outputs all exist already (written atomically, so complete): "+
		"a farm task run again, or a sequence to complete; not with what needs every frame (-sheet, -gif, an .abc output)")
	fs.IntVar(&s.threads, "threads", 0, "worker threads `N` (default: all cores)")
	fs.Var(&s.memory, "memory", budget.FlagUsage+"; surface: fewer frames run in parallel when they would take more")
	fs.StringVar(&s.color, "color", "", "colour particles by `channel` (ply: red green blue; prt: a Color channel; png; compare)")
	raw.cmap = fs.String("colormap", "viridis", "colour `map`: "+strings.Join(colormap.Names(), ", "))
	raw.crange = fs.String("color-range", "", "channel values `lo:hi` mapped to the ends of the colour map (default: per frame; compare: one for all)")
	fs.BoolVar(&s.ascii, "ascii", false, "ply: write ASCII instead of binary little-endian")
	fs.BoolVar(&s.normals, "normals", false, "ply: add nx ny nz, the outward normal of the snow (minus the density gradient)")
	fs.BoolVar(&s.velocity, "velocity", false, "ply: add vx vy vz; vdb: add a mass-weighted \"velocity\" grid (m/s); surface: that grid in the .vdb, vx vy vz per vertex in the .ply")
	raw.props = fs.String("props", "", "ply: more float properties; vdb, surface: more mass-weighted grids; from these `channels` (comma-separated)")
	fs.Float64Var(&s.voxel, "voxel", 0, "vdb: voxel size in `metres` (default: the simulation's h, from the PRT metadata); surface: default h/2")
	fs.Float64Var(&s.filter, "filter", 1, "vdb, surface: the density's kernel width in `voxels`, 1 to 8; above 1 smooths aliasing on fine grids (surface: default h / voxel)")
	fs.Float64Var(&s.mass, "mass", 0, "vdb, clusters, surface, ply (-for houdini's pscale), abc (widths): particle mass in `kg` for files without a Mass channel")
	raw.half = fs.String("half", "", "prt: store these `channels` as float16; vdb, surface: these grids (density, velocity, ...) as half floats")
	raw.vdbCodec = fs.String("vdb-codec", "zip", "vdb, surface: compress the .vdb with `codec`: "+strings.Join(vdb.CodecNames, ", ")+" (blosc-lz4 is what Houdini writes; zip the smallest)")
	raw.keep = fs.String("keep", "", "prt, abc: keep only these `channels` (default: all)")
	raw.drop = fs.String("drop", "", "prt, abc: drop these `channels`")
	raw.rename = fs.String("rename", "", "prt: rename channels, `Old=New,...`; ply, vdb, surface: name the property or grid of a channel (ID, Velocity, -props channels), over -for's name")
	raw.target = fs.String("for", "", "ply, vdb, prt, surface: name channels, properties and grids as `program` reads them: "+strings.Join(targetNames(), ", ")+" (default: export's own names)")
	s.view.flags(fs)
	s.clusters.flags(fs)
	s.compare.flags(fs)
	s.surface.flags(fs)
	s.axes.flags(fs)
	s.abc.flags(fs)
	return raw
}

// flagsGiven returns the flags on the command line, or an error for the first that
// does not apply to the -to mode (flagModes).
func (s *settings) flagsGiven(fs *flag.FlagSet) (map[string]bool, error) {
	var misplaced error
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		given[f.Name] = true
		if modes, ok := flagModes[f.Name]; ok && !appliesTo(f.Name, s.to) && misplaced == nil {
			misplaced = fmt.Errorf("-%s applies to -to %s, not -to %s", f.Name, strings.ReplaceAll(modes, " ", " and "), s.to)
		}
	})
	return given, misplaced
}

// appliesTo reports whether flag applies to the -to mode (flagModes).
func appliesTo(flag, mode string) bool {
	modes, ok := flagModes[flag]
	return !ok || strings.Contains(" "+modes+" ", " "+mode+" ")
}

// arguments takes the input and output names, or compare's inputs and frames.
func (s *settings) arguments(fs *flag.FlagSet, frames *string, given map[string]bool) error {
	wholeSequence := s.to == "png" && (s.view.sheet != "" || s.view.gif != "")
	switch {
	case s.to == "compare":
		s.compare.cellGiven = given["cell"]
		if err := s.compare.check(fs.Args(), *frames); err != nil {
			return err
		}
		if !given["size"] {
			s.view.size = compareCellSize // a cell, not a whole picture
		}
	case s.to == "surface" && fs.NArg() >= 2:
		s.input, s.output, s.surface.outputs = fs.Arg(0), fs.Arg(1), fs.Args()[1:]
		s.filterGiven = given["filter"]
	case fs.NArg() == 2:
		s.input, s.output = fs.Arg(0), fs.Arg(1)
	case fs.NArg() == 1 && wholeSequence:
		s.input = fs.Arg(0)
	default:
		return fmt.Errorf("-to %s: give the input and the output, not %q", s.to, fs.Args())
	}
	if *frames != "" && s.to != "compare" {
		var err error
		if s.first, s.last, err = seq.ParseRange(*frames); err != nil {
			if strings.Contains(*frames, ",") {
				return fmt.Errorf("-frames %q: a list of frames is for -to compare; use A-B or a single frame", *frames)
			}
			return fmt.Errorf("-frames %v", err)
		}
		s.selection = *frames
	}
	return nil
}

// convert reads the flags that need parsing: the colour map and range, the channel
// lists and the renames.
func (s *settings) convert(raw *rawFlags) error {
	var err error
	if s.colormap, err = colormap.Lookup(*raw.cmap); err != nil {
		return fmt.Errorf("-colormap: %v", err)
	}
	if *raw.crange != "" {
		r, err := colormap.ParseRange(*raw.crange)
		if err != nil {
			return fmt.Errorf("-color-range: %v", err)
		}
		s.colorRange = &r
	}
	s.props, s.half, s.keep, s.drop = list(*raw.props), list(*raw.half), list(*raw.keep), list(*raw.drop)
	if s.rename, err = parseRenames(*raw.rename); err != nil {
		return err
	}
	s.vdbOptions = vdb.DefaultOptions
	if err := s.vdbOptions.SetCodec(*raw.vdbCodec); err != nil {
		return fmt.Errorf("-vdb-codec: %v", err)
	}
	s.target, err = lookupTarget(*raw.target)
	return err
}

// check validates the numbers and the mode's own settings.
func (s *settings) check() error {
	if s.threads < 0 {
		return fmt.Errorf("-threads %d: must be positive", s.threads)
	}
	if err := budget.CheckThreads("-threads", s.threads); err != nil {
		return err
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	s.budget = s.memory.Budget()
	if err := s.archiveOutput(); err != nil {
		return err
	}
	s.surface.memory = float64(s.budget.Bytes) / 1e9 // -to surface runs fewer frames at once when they would take more
	switch {
	case s.voxel < 0 || s.voxel != s.voxel:
		return fmt.Errorf("-voxel %g: must be positive", s.voxel)
	case !(s.filter >= 1 && s.filter <= 8):
		return fmt.Errorf("-filter %g: must be between 1 and 8 voxels", s.filter)
	case s.mass < 0 || s.mass != s.mass:
		return fmt.Errorf("-mass %g: must be positive", s.mass)
	}
	if s.to == "png" || s.to == "compare" {
		if err := s.view.check(); err != nil {
			return err
		}
		if err := s.checkRenderMemory(); err != nil {
			return err
		}
	}
	if s.view.surface && s.color != "" {
		return fmt.Errorf("-color %s: -surface draws the snow's surface in snow white, not coloured particles: give one or the other", s.color)
	}
	if s.to == "ply" || s.to == "surface" {
		if err := s.axes.check(s.surface.outputs, s.to, s.target, s.upGiven); err != nil {
			return err
		}
	}
	if s.to == "surface" {
		if s.view.radius < 0 || math.IsNaN(s.view.radius) || math.IsInf(s.view.radius, 0) {
			return fmt.Errorf("-radius %g: must be positive", s.view.radius)
		}
		if err := s.surface.check(); err != nil {
			return err
		}
		if s.velocity && !s.wants(surfaceVDB) && !s.wants(surfacePLY) && s.abc.output == "" {
			return errors.New("-velocity: an .obj has no place for velocities; add a .ply, .vdb or .abc output")
		}
	}
	if err := s.checkTarget(); err != nil {
		return err
	}
	if s.to == "abc" && isMeshInput(s.input) {
		if err := s.checkMeshInput(); err != nil {
			return err
		}
	}
	if s.to == "clusters" {
		s.clusters.report, s.output = s.output, "" // one report, not a file per frame
		if err := s.clusters.check(); err != nil {
			return err
		}
	}
	if s.output != "" {
		if err := checkOutputPattern(s.output); err != nil {
			return err
		}
	}
	if end := s.endFiles(); s.skipExisting && len(end) > 0 {
		return fmt.Errorf("-skip-existing: %s is written from every frame, skipped ones too: give one or the other", end[0])
	}
	return nil
}

// checkTarget refuses a -for target that does not load what the command writes,
// -radius and -mass for a PLY without radii, and -rename names that no reader of
// the format could take.
func (s *settings) checkTarget() error {
	if !appliesTo("for", s.to) {
		return nil
	}
	formats := []string{s.to}
	if s.to == "surface" {
		formats = nil
		if s.wants(surfaceVDB) {
			formats = append(formats, "vdb")
		} else if len(s.rename) > 0 {
			return fmt.Errorf("-rename: -to surface names only the grids of a .vdb output, and there is none")
		}
		if s.wants(surfacePLY) {
			formats = append(formats, "ply")
		}
	}
	for _, format := range formats {
		if err := s.target.reads(format); err != nil {
			return err
		}
	}
	if s.to == "ply" {
		sized := s.target.ply.radius != ""
		switch {
		case !sized && (s.view.radius != 0 || s.mass != 0):
			flag := map[bool]string{true: "-radius", false: "-mass"}[s.view.radius != 0]
			return fmt.Errorf("%s: -to ply writes radii only for a program that reads them (-for houdini: pscale)", flag)
		case s.view.radius < 0 || math.IsNaN(s.view.radius) || math.IsInf(s.view.radius, 0):
			return fmt.Errorf("-radius %g: must be positive", s.view.radius)
		}
	}
	kind := map[string]string{"prt": "PRT channel", "ply": "PLY property"}[s.to] // their names are identifiers
	for _, from := range mapKeys(s.rename) {
		if to := s.rename[from]; kind != "" && !isIdentifier(to) {
			return fmt.Errorf("-rename %s=%s: %q cannot name a %s: use letters, digits and _, not starting with a digit", from, to, to, kind)
		}
	}
	return nil
}

// list splits a comma-separated flag value, dropping empty items.
func list(text string) []string {
	var items []string
	for _, item := range strings.Split(text, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items
}

// parseRenames reads "Old=New,...".
func parseRenames(text string) (map[string]string, error) {
	renames := map[string]string{}
	for _, item := range list(text) {
		from, to, ok := strings.Cut(item, "=")
		if !ok || from == "" || to == "" {
			return nil, fmt.Errorf("-rename %q: use Old=New, comma-separated", item)
		}
		if _, dup := renames[from]; dup {
			return nil, fmt.Errorf("-rename: %s is renamed twice", from)
		}
		renames[from] = to
	}
	return renames, nil
}

// checkOutputPattern refuses an output name whose frame placeholder is malformed.
func checkOutputPattern(output string) error {
	if _, _, err := seq.ParsePattern(output); err != nil {
		return fmt.Errorf("output %s: %v", output, err)
	}
	return nil
}

// parseVec3 reads "x,y,z".
func parseVec3(text string) (geom.Vec3, error) {
	var v geom.Vec3
	parts := strings.Split(text, ",")
	if len(parts) != 3 {
		return v, fmt.Errorf("%q: use x,y,z", text)
	}
	for i, p := range parts {
		if _, err := fmt.Sscan(strings.TrimSpace(p), &v[i]); err != nil {
			return v, fmt.Errorf("%q: use x,y,z", text)
		}
	}
	if !v.IsFinite() {
		return v, fmt.Errorf("%q: not finite", text)
	}
	return v, nil
}
