package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"slices"

	"snowtools/formats/ply"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/simcore/particles"
)

// plyConverter writes vertex-only PLY point clouds: x y z, the particle ID, and on
// request normals, colours (uchar, as Krakatoa divides by 255), velocities, radii
// and more float properties, named by the -for target (targets.go).
type plyConverter struct{ s *settings }

// A plyColumn is one property's values for every particle.
type plyColumn struct {
	prop   ply.Property
	floats []float32 // for float properties, arity values per particle
	bytes  []uint8   // for uchar properties
	ints   []int32   // for int properties
	arity  int       // properties of the column are consecutive: x y z, red green blue
	index  int       // which of them
}

func (c *plyConverter) convert(j job, threads int) result {
	f, err := c.s.readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	cols, err := c.s.plyColumns(f, threads)
	if err != nil {
		return result{err: err}
	}
	h := ply.Header{
		Format:   ply.BinaryLittleEndian,
		Comments: frameComments(f),
		Elements: []ply.Element{{Name: "vertex", Count: int64(f.Len())}},
	}
	if c.s.ascii {
		h.Format = ply.ASCII
	}
	recSize := 0
	for _, col := range cols {
		h.Elements[0].Properties = append(h.Elements[0].Properties, col.prop)
		recSize += col.prop.Type.Size()
	}
	size, err := writeOutput(j.out, func(w io.Writer) error {
		pw, err := ply.NewWriter(w, h)
		if err != nil {
			return err
		}
		const chunk = 4096 // records packed at a time
		buf := make([]byte, 0, chunk*recSize)
		n := f.Len()
		for start := 0; start < n; start += chunk {
			buf = buf[:0]
			for i := start; i < min(start+chunk, n); i++ {
				for _, col := range cols {
					switch {
					case col.bytes != nil:
						buf = append(buf, col.bytes[col.arity*i+col.index])
					case col.ints != nil:
						buf = binary.LittleEndian.AppendUint32(buf, uint32(col.ints[i]))
					default:
						buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(col.floats[col.arity*i+col.index]))
					}
				}
			}
			if err := pw.WriteRecords(buf); err != nil {
				return err
			}
		}
		return pw.Close()
	})
	return result{particles: f.Len(), bytes: size, err: err}
}

func (c *plyConverter) finish(io.Writer) error { return nil }

// plyColumns gathers the properties the flags ask for, named as the -for target
// reads them (export's own names without -for) unless -rename names the channel:
// x y z, the ID, -normals, -color, -velocity, the radius if the target sizes points
// by one, and the -props channels. The names are checked: none twice, each an
// identifier.
func (s *settings) plyColumns(f *frame, threads int) ([]plyColumn, error) {
	names := s.target.ply
	t := plyTable{taken: newOutputNames("PLY property", true, 0)}
	renamable := slices.Clone(s.props)
	pos, err := f.positions()
	if err != nil {
		return nil, err
	}
	t.floats(s.axes.toPLY(pos, false), "the positions", "x", "y", "z")
	ids, err := f.ids()
	if err != nil {
		return nil, err
	}
	if ids != nil {
		renamable = append(renamable, "ID")
		name, from := s.renamed("ID", names.id, s.target.origin("the particle IDs"))
		t.add(plyColumn{prop: ply.Scalar(name, idPLYType), ints: ids, arity: 1}, from)
	}
	if s.normals {
		n, err := surfaceNormals(f, pos, threads)
		if err != nil {
			return nil, err
		}
		t.floats(s.axes.toPLY(n, true), s.target.origin("-normals"), names.normal[:]...)
	}
	rgb, err := s.colors(f)
	if err != nil {
		return nil, err
	}
	for i, n := range names.color {
		if rgb != nil {
			t.add(plyColumn{prop: ply.Scalar(n, ply.Uchar), bytes: rgb, arity: 3, index: i}, s.target.origin("-color"))
		}
	}
	if s.velocity {
		renamable = append(renamable, "Velocity")
		v, err := f.floats("Velocity", 3)
		if err != nil {
			return nil, err
		}
		props, from := s.vectorNames("Velocity", names.velocity[:], s.target.origin("-velocity"))
		t.floats(s.axes.toPLY(v, false), from, props...)
	}
	if names.radius != "" {
		r, err := s.pointRadii(f)
		if err != nil {
			return nil, err
		}
		t.floats(r, s.target.origin("each particle's radius"), names.radius)
	}
	for _, name := range s.props {
		if err := s.plyProp(&t, f, name); err != nil {
			return nil, err
		}
	}
	if t.err != nil {
		return nil, t.err
	}
	return t.cols, s.checkRenamesUsed(renamable)
}

// A plyTable is the vertex properties of a point cloud as they are planned. Its
// first name clash sticks in err, and later additions are ignored.
type plyTable struct {
	cols  []plyColumn
	taken *outputNames
	err   error
}

// add appends a column whose name from gave.
func (t *plyTable) add(col plyColumn, from string) {
	if t.err == nil {
		if t.err = t.taken.add(col.prop.Name, from); t.err == nil {
			t.cols = append(t.cols, col)
		}
	}
}

// floats appends a float property per name, the consecutive values of each particle
// in values.
func (t *plyTable) floats(values []float32, from string, names ...string) {
	for i, n := range names {
		t.add(plyColumn{prop: ply.Scalar(n, ply.Float), floats: values, arity: len(names), index: i}, from)
	}
}

// plyProp adds a -props channel: one float property named as the channel in
// snake_case (or as -rename says), or NAME_0, NAME_1, ... for a channel of several
// values.
func (s *settings) plyProp(t *plyTable, f *frame, channel string) error {
	c, ok := f.Header.Channel(channel)
	if !ok {
		return fmt.Errorf("-props %s: no such channel (channels: %s)", channel, channelNames(f.Header))
	}
	v, err := f.floats(channel, 0)
	if err != nil {
		return fmt.Errorf("-props %s: %v", channel, err)
	}
	base, from := s.renamed(channel, gridName(channel), "-props "+channel)
	t.floats(v, from, componentNames(base, c.Arity)...)
	return nil
}

// pointRadii returns each particle's radius in the file's unit, for targets that size
// points by one (Houdini's pscale): -radius for all, else the radius of the sphere of
// the particle's volume, (3 m / 4 pi rho)^(1/3) from its Mass and PhysicalDensity.
// Frames without PhysicalDensity (the spray's) need -radius: their GridSpacing is
// the ground's cell, not the particles' size.
func (s *settings) pointRadii(f *frame) ([]float32, error) {
	radius := make([]float32, f.Len())
	if r := s.view.radius; r > 0 {
		for i := range radius {
			radius[i] = float32(r / s.axes.scale)
		}
		return radius, nil
	}
	if _, ok := f.Header.Channel("PhysicalDensity"); !ok {
		return nil, fmt.Errorf("-for %s writes %s, each particle's radius, from Mass and PhysicalDensity; this frame has no PhysicalDensity: give the radius with -radius", s.target.name, s.target.ply.radius)
	}
	mass, err := f.masses(s.mass)
	if err != nil {
		return nil, err
	}
	if err := volumeRadii(f, mass, radius); err != nil {
		return nil, err
	}
	for i := range radius {
		radius[i] = float32(float64(radius[i]) / s.axes.scale)
	}
	return radius, nil
}

// surfaceNormals returns, per particle, the outward normal of the snow around it:
// minus the gradient of the density, rasterized with a kernel two voxels wide on the
// simulation grid (or, without its h, on the mean particle spacing) so that single
// particles do not make the field bumpy. Inside a uniform block the gradient
// vanishes; those particles get the unit vector of whichever way density falls
// off, or up when it is flat to round-off.
func surfaceNormals(f *frame, pos []float32, threads int) ([]float32, error) {
	h, ok := f.gridSpacing()
	if !ok {
		lo, hi := pointBounds(pos)
		volume := max(hi[0]-lo[0], 1e-6) * max(hi[1]-lo[1], 1e-6) * max(hi[2]-lo[2], 1e-6)
		h = 2 * math.Cbrt(volume/float64(max(f.Len(), 1)))
	}
	ones := make([]float32, f.Len())
	for i := range ones {
		ones[i] = 1 // the shape, not the mass, sets the normal
	}
	vol, err := particles.RasterizeVolume(pos, ones, nil, particles.VolumeOptions{VoxelSize: h, Filter: 2, Threads: threads})
	if err != nil {
		return nil, err
	}
	sampler := levelset.NewFloatSampler(vol.Density)
	n := make([]float32, len(pos))
	for i := 0; i < f.Len(); i++ {
		g := sampler.Gradient(geom.Vec3{float64(pos[3*i]), float64(pos[3*i+1]), float64(pos[3*i+2])})
		l := g.Norm()
		if !(l > 0) {
			n[3*i+1] = 1
			continue
		}
		n[3*i], n[3*i+1], n[3*i+2] = float32(-g[0]/l), float32(-g[1]/l), float32(-g[2]/l)
	}
	return n, nil
}
