package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"snowtools/formats/vdb"
	"snowtools/simcore/particles"
)

// vdbConverter rasterizes particles into OpenVDB volumes (section 9 of the Stomakhin
// paper): a fog volume "density" in kg/m^3, and mass-weighted grids of velocity and
// other channels.
type vdbConverter struct{ s *settings }

func (c *vdbConverter) convert(j job, threads int) result {
	f, err := c.s.readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	file, err := c.s.volumeFile(f, threads)
	if err != nil {
		return result{err: err}
	}
	size, err := writeOutput(j.out, func(w io.Writer) error { return vdb.Write(w, file, &c.s.vdbOptions) })
	return result{particles: f.Len(), bytes: size, err: err}
}

func (c *vdbConverter) finish(io.Writer) error { return nil }

// volumeAttributes returns the particle channels that -velocity and -props turn
// into grids beside the density (and the level set of -to surface), each named as
// its grid will be: the -for target's name for the velocity, snake_case for -props
// channels, unless -rename names the channel. The names are checked: no grid twice.
func (s *settings) volumeAttributes(f *frame) ([]particles.PointAttribute, error) {
	names := s.vdbNames()
	taken := newOutputNames("grid", false, 0)
	if err := taken.add(names.density, s.target.origin("the density")); err != nil {
		return nil, err
	}
	if s.to == "surface" {
		if err := taken.add(names.surface, s.target.origin("the level set")); err != nil {
			return nil, err
		}
	}
	var attrs []particles.PointAttribute
	renamable := slices.Clone(s.props)
	if s.velocity {
		renamable = append(renamable, "Velocity")
		v, err := f.floats("Velocity", 3)
		if err != nil {
			return nil, err
		}
		name, from := s.renamed("Velocity", names.velocity, s.target.origin("-velocity"))
		if err := taken.add(name, from); err != nil {
			return nil, err
		}
		attrs = append(attrs, particles.PointAttribute{Name: name, Arity: 3, Values: v})
	}
	for _, channel := range s.props {
		c, ok := f.Header.Channel(channel)
		if !ok {
			return nil, fmt.Errorf("-props %s: no such channel (channels: %s)", channel, channelNames(f.Header))
		}
		if !c.Type.IsFloat() || (c.Arity != 1 && c.Arity != 3) {
			return nil, fmt.Errorf("-props %s: a grid needs 1 or 3 floats per particle; the channel has %d %s", channel, c.Arity, c.Type)
		}
		name, from := s.renamed(channel, gridName(channel), "-props "+channel)
		if err := taken.add(name, from); err != nil {
			return nil, err
		}
		v, err := f.floats(channel, 0)
		if err != nil {
			return nil, err
		}
		attrs = append(attrs, particles.PointAttribute{Name: name, Arity: c.Arity, Values: v})
	}
	return attrs, s.checkRenamesUsed(renamable)
}

// velocityGrid returns the name of the -velocity grid.
func (s *settings) velocityGrid() string {
	name, _ := s.renamed("Velocity", s.vdbNames().velocity, "")
	return name
}

// vdbNames returns the target's grid names, or export's own where the target reads
// no VDB and the grids are not written: -to surface rasterizes the velocity to sample
// it onto a mesh for such a target too.
func (s *settings) vdbNames() *vdbNaming {
	if s.target.vdb == nil {
		return ownNames.vdb
	}
	return s.target.vdb
}

// halfGrids marks the grids that -half names to be stored as half floats.
func (s *settings) halfGrids(grids []*vdb.Grid) error {
	for _, name := range s.half {
		i := slices.IndexFunc(grids, func(g *vdb.Grid) bool { return g.Name == name })
		if i < 0 {
			names := make([]string, len(grids))
			for k, g := range grids {
				names[k] = g.Name
			}
			return fmt.Errorf("-half %s: no such grid (grids: %s)", name, strings.Join(names, ", "))
		}
		grids[i].Half = true
	}
	return nil
}

// volumeFile rasterizes a frame into the grids the flags ask for.
func (s *settings) volumeFile(f *frame, threads int) (*vdb.File, error) {
	pos, mass, err := f.positionsAndMasses(s.mass)
	if err != nil {
		return nil, err
	}
	voxel := s.voxel
	if voxel == 0 {
		h, ok := f.gridSpacing()
		if !ok {
			return nil, fmt.Errorf("no GridSpacing metadata (the file is not from snowsim): give the voxel size with -voxel")
		}
		voxel = h
	}
	vol, err := s.rasterize(f, pos, mass, voxel, s.filter, threads)
	if err != nil {
		return nil, err
	}
	grids := append([]*vdb.Grid{{Name: s.vdbNames().density, Class: vdb.FogVolume, Float: vol.Density}}, s.attributeGrids(vol)...)
	if err := s.halfGrids(grids); err != nil {
		return nil, err
	}
	return &vdb.File{Meta: frameVDBMeta(f, s.filter), Grids: grids}, nil
}

// rasterize turns a frame into its density and the -velocity and -props grids.
func (s *settings) rasterize(f *frame, pos, mass []float32, voxel, filter float64, threads int) (*particles.Volume, error) {
	attrs, err := s.volumeAttributes(f)
	if err != nil {
		return nil, err
	}
	return particles.RasterizeVolume(pos, mass, attrs, particles.VolumeOptions{VoxelSize: voxel, Filter: filter, Threads: threads})
}

// attributeGrids returns the grids of a volume's attributes.
func (s *settings) attributeGrids(vol *particles.Volume) []*vdb.Grid {
	var grids []*vdb.Grid
	for _, a := range vol.Attributes {
		g := &vdb.Grid{Name: a.Name, Float: a.Float, Vec3: a.Vec3}
		if s.velocity && a.Name == s.velocityGrid() {
			g.VectorType = "contravariant relative" // what OpenVDB and Houdini use for velocities
		}
		grids = append(grids, g)
	}
	return grids
}

// frameVDBMeta is the file metadata of a frame's .vdb: where it came from.
func frameVDBMeta(f *frame, filter float64) vdb.Metadata {
	meta := vdb.Metadata{"source": f.path, "particles": int64(f.Len()), "filter": filter}
	if v, ok := f.Header.Int64Meta("", "Frame"); ok && len(v) == 1 {
		meta["frame"] = int32(v[0])
	}
	if v, ok := f.Header.Float64Meta("", "Time"); ok && len(v) == 1 {
		meta["time"] = v[0]
	}
	return meta
}

// frameComments are the header comments of the PLY and OBJ files made from a frame:
// where it comes from, and its frame number and time as the PRT says them (frame n
// at n/fps s), as a .vdb's metadata carries them.
func frameComments(f *frame) []string {
	comments := []string{"snowtools export of " + f.path}
	n, okN := f.Header.Int64Meta("", "Frame")
	t, okT := f.Header.Float64Meta("", "Time")
	if okN && okT && len(n) == 1 && len(t) == 1 {
		comments = append(comments, fmt.Sprintf("frame %d time %g", n[0], t[0]))
	}
	return comments
}

// gridName turns a PRT channel name (CamelCase, Krakatoa's convention) into the
// snake_case of VDB grid names: PlasticJ -> plastic_j, PhysicalDensity ->
// physical_density.
func gridName(channel string) string {
	var b strings.Builder
	runes := []rune(channel)
	for i, r := range runes {
		if unicode.IsUpper(r) {
			if i > 0 && (unicode.IsLower(runes[i-1]) || unicode.IsDigit(runes[i-1])) {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
