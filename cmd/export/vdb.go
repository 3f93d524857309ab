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
	f, err := readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	file, err := c.s.volumeFile(f, threads)
	if err != nil {
		return result{err: err}
	}
	size, err := writeOutput(j.out, func(w io.Writer) error { return vdb.Write(w, file, nil) })
	return result{particles: f.Len(), bytes: size, err: err}
}

func (c *vdbConverter) finish(io.Writer) error { return nil }

// volumeAttributes returns the particle channels that -velocity and -props turn
// into grids beside the density.
func (s *settings) volumeAttributes(f *frame) ([]particles.PointAttribute, error) {
	var attrs []particles.PointAttribute
	if s.velocity {
		v, err := f.floats("Velocity", 3)
		if err != nil {
			return nil, err
		}
		attrs = append(attrs, particles.PointAttribute{Name: "velocity", Arity: 3, Values: v})
	}
	for _, name := range s.props {
		c, ok := f.Header.Channel(name)
		if !ok {
			return nil, fmt.Errorf("-props %s: no such channel (channels: %s)", name, channelNames(f.Header))
		}
		if g := gridName(name); g == "density" || g == "surface" || (g == "velocity" && s.velocity) {
			return nil, fmt.Errorf("-props %s: its grid would be called %q, which the file already has (the %s); rename the channel first (export -to prt -rename %s=...)", name, g, map[string]string{"density": "particle density, kg/m^3", "surface": "level set", "velocity": "-velocity grid"}[g], name)
		}
		if !c.Type.IsFloat() || (c.Arity != 1 && c.Arity != 3) {
			return nil, fmt.Errorf("-props %s: a grid needs 1 or 3 floats per particle; the channel has %d %s", name, c.Arity, c.Type)
		}
		v, err := f.floats(name, 0)
		if err != nil {
			return nil, err
		}
		attrs = append(attrs, particles.PointAttribute{Name: gridName(name), Arity: c.Arity, Values: v})
	}
	return attrs, nil
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
	grids := append([]*vdb.Grid{{Name: "density", Class: vdb.FogVolume, Float: vol.Density}}, attributeGrids(vol)...)
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
func attributeGrids(vol *particles.Volume) []*vdb.Grid {
	var grids []*vdb.Grid
	for _, a := range vol.Attributes {
		g := &vdb.Grid{Name: a.Name, Float: a.Float, Vec3: a.Vec3}
		if a.Name == "velocity" {
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
