package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"snowtools/formats/ply"
	"snowtools/levelset"
	"snowtools/levelset/geom"
	"snowtools/simcore/particles"
)

// plyConverter writes vertex-only PLY point clouds: x y z, and on request
// nx ny nz, red green blue (uchar, as Krakatoa divides by 255), vx vy vz and more
// float properties, named as Blender, Krakatoa and Houdini read them.
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
	f, err := readFrame(j.in.Path)
	if err != nil {
		return result{err: err}
	}
	cols, err := c.s.plyColumns(f, threads)
	if err != nil {
		return result{err: err}
	}
	h := ply.Header{
		Format:   ply.BinaryLittleEndian,
		Comments: []string{"snowtools export of " + f.path},
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

// plyColumns gathers the properties the flags ask for.
func (s *settings) plyColumns(f *frame, threads int) ([]plyColumn, error) {
	var cols []plyColumn
	add := func(values []float32, names ...string) {
		for i, n := range names {
			cols = append(cols, plyColumn{prop: ply.Scalar(n, ply.Float), floats: values, arity: len(names), index: i})
		}
	}
	pos, err := f.positions()
	if err != nil {
		return nil, err
	}
	add(s.axes.toFile(pos, false), "x", "y", "z")
	if ids, err := particleIDs(f); err != nil {
		return nil, err
	} else if ids != nil {
		cols = append(cols, plyColumn{prop: ply.Scalar("id", ply.Int), ints: ids, arity: 1})
	}
	if s.normals {
		n, err := surfaceNormals(f, pos, threads)
		if err != nil {
			return nil, err
		}
		add(s.axes.toFile(n, true), "nx", "ny", "nz")
	}
	rgb, err := s.colors(f)
	if err != nil {
		return nil, err
	}
	if rgb != nil {
		for i, n := range []string{"red", "green", "blue"} {
			cols = append(cols, plyColumn{prop: ply.Scalar(n, ply.Uchar), bytes: rgb, arity: 3, index: i})
		}
	}
	if s.velocity {
		v, err := f.floats("Velocity", 3)
		if err != nil {
			return nil, err
		}
		add(s.axes.toFile(v, false), "vx", "vy", "vz")
	}
	for _, name := range s.props {
		c, ok := f.Header.Channel(name)
		if !ok {
			return nil, fmt.Errorf("-props %s: no such channel (channels: %s)", name, channelNames(f.Header))
		}
		v, err := f.floats(name, 0)
		if err != nil {
			return nil, fmt.Errorf("-props %s: %v", name, err)
		}
		base := gridName(name)
		if c.Arity == 1 {
			add(v, base)
			continue
		}
		names := make([]string, c.Arity)
		for k := range names {
			names[k] = fmt.Sprintf("%s_%d", base, k)
		}
		add(v, names...)
	}
	return cols, nil
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

// particleIDs returns the frame's ID channel as the int32 that PLY's "int" holds, the
// "id" Houdini reads as its point attribute; nil for a frame without IDs. Snow's IDs
// are int32; the spray's int64, which must fit.
func particleIDs(f *frame) ([]int32, error) {
	if _, ok := f.Header.Channel("ID"); !ok {
		return nil, nil
	}
	wide, _, err := f.Int64s("ID")
	if err != nil {
		return nil, err
	}
	ids := make([]int32, len(wide))
	for i, v := range wide {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return nil, fmt.Errorf("particle %d: ID %d does not fit the PLY's int", i, v)
		}
		ids[i] = int32(v)
	}
	return ids, nil
}
