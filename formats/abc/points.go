package abc

import (
	"encoding/binary"
	"errors"
	"strconv"
)

// A Points object (schema AbcGeom_Points_v1) keeps, in its compound ".geom":
//
//	P               array float32[3], geoScope=var, interpretation=point: positions
//	.pointIds       array uint64, geoScope=var: a stable id per particle
//	.velocities     array float32[3], interpretation=vector (optional): per second
//	.widths         array float32, a geometry parameter, geoScope=var (optional)
//	.selfBnds       scalar float64[6], interpretation=box: the bounds of P
//	.arbGeomParams  compound of further per-point geometry parameters (optional)
//
// All are sampled with the same time sampling, one sample per frame.

// PointsChannel is an arbitrary per-point geometry parameter: Extent float32 values
// per point. Extent 1 is a float, 2 and 3 a V2f and V3f (interpretation "vector");
// others are written as float32 values with arrayExtent = Extent, as Houdini does.
type PointsChannel struct {
	Name   string
	Extent int
}

// PointsOptions chooses a Points object's optional properties.
type PointsOptions struct {
	Velocities bool
	Widths     bool
	Channels   []PointsChannel // written under .arbGeomParams
}

// A PointsWriter writes the samples of a Points object.
type PointsWriter struct {
	path                           string
	opts                           PointsOptions
	p, ids, velocities, widths, bn *PropertyWriter
	channels                       []*PropertyWriter
}

// AddPoints adds a Points object called name under parent, sampled at time sampling
// ts (an index from AddTimeSampling, such as Uniform(1/fps, first/fps)'s).
func (w *Writer) AddPoints(parent *ObjectWriter, name string, ts uint32, opts PointsOptions) (*PointsWriter, error) {
	obj, g, err := addSchemaObject(parent, name, pointsSchema, geomCompound, geomBaseSchema)
	if err != nil {
		return nil, err
	}
	pw := &PointsWriter{path: obj.Path(), opts: opts}
	if pw.p, err = g.AddArray("P", vec3f, Metadata{mdGeoScope: scopeVarying, mdInterpretation: "point"}, ts); err != nil {
		return nil, err
	}
	if pw.ids, err = g.AddArray(".pointIds", DataType{POD: Uint64, Extent: 1}, Metadata{mdGeoScope: scopeVarying}, ts); err != nil {
		return nil, err
	}
	if opts.Velocities {
		if pw.velocities, err = g.AddArray(".velocities", vec3f, Metadata{mdInterpretation: "vector"}, ts); err != nil {
			return nil, err
		}
	}
	if opts.Widths {
		md := geomParamMetadata(scopeVarying, "", 1, 1)
		if pw.widths, err = g.AddArray(".widths", DataType{POD: Float32, Extent: 1}, md, ts); err != nil {
			return nil, err
		}
	}
	if pw.bn, err = g.AddScalar(".selfBnds", box3d, Metadata{mdInterpretation: "box"}, ts); err != nil {
		return nil, err
	}
	if len(opts.Channels) > 0 {
		arb, err := g.AddCompound(".arbGeomParams", nil)
		if err != nil {
			return nil, err
		}
		for _, ch := range opts.Channels {
			if ch.Extent < 1 || ch.Extent > 255 {
				return nil, errors.New("abc: " + pw.path + ": channel " + ch.Name + " has extent " + strconv.Itoa(ch.Extent))
			}
			dt, md := DataType{POD: Float32, Extent: uint8(ch.Extent)}, geomParamMetadata(scopeVarying, "vector", ch.Extent, 1)
			switch ch.Extent {
			case 1:
				md = geomParamMetadata(scopeVarying, "", 1, 1)
			case 2, 3:
			default:
				dt, md = DataType{POD: Float32, Extent: 1}, geomParamMetadata(scopeVarying, "", 1, ch.Extent)
			}
			p, err := arb.AddArray(ch.Name, dt, md, ts)
			if err != nil {
				return nil, err
			}
			pw.channels = append(pw.channels, p)
		}
	}
	return pw, nil
}

// PointsSample is one frame of particles.
type PointsSample struct {
	Positions  [][3]float32
	IDs        []uint64     // nil: 0, 1, 2, ... (Alembic readers require ids)
	Velocities [][3]float32 // when PointsOptions.Velocities
	Widths     []float32    // when PointsOptions.Widths
	// Channels holds, per PointsOptions.Channels entry, Extent values per point.
	Channels [][]float32
}

// WriteSample writes the next frame.
func (pw *PointsWriter) WriteSample(s *PointsSample) error {
	n := len(s.Positions)
	ids := s.IDs
	if ids == nil {
		ids = make([]uint64, n)
		for i := range ids {
			ids[i] = uint64(i)
		}
	}
	if err := checkLen(pw.path, "ids", len(ids), n); err != nil {
		return err
	}
	if pw.velocities != nil {
		if err := checkLen(pw.path, "velocities", len(s.Velocities), n); err != nil {
			return err
		}
	}
	if pw.widths != nil {
		if err := checkLen(pw.path, "widths", len(s.Widths), n); err != nil {
			return err
		}
	}
	if len(s.Channels) != len(pw.channels) {
		return errors.New("abc: " + pw.path + ": " + strconv.Itoa(len(s.Channels)) + " channels, the object has " + strconv.Itoa(len(pw.channels)))
	}
	for i, ch := range pw.opts.Channels {
		if err := checkLen(pw.path, ch.Name+" values", len(s.Channels[i]), n*ch.Extent); err != nil {
			return err
		}
	}
	if err := pw.p.WriteSample(vec3Bytes(s.Positions), nil); err != nil {
		return err
	}
	idBytes := make([]byte, 8*n)
	for i, id := range ids {
		binary.LittleEndian.PutUint64(idBytes[8*i:], id)
	}
	if err := pw.ids.WriteSample(idBytes, nil); err != nil {
		return err
	}
	if pw.velocities != nil {
		if err := pw.velocities.WriteSample(vec3Bytes(s.Velocities), nil); err != nil {
			return err
		}
	}
	if pw.widths != nil {
		if err := pw.widths.WriteSample(float32Bytes(s.Widths), nil); err != nil {
			return err
		}
	}
	for i, p := range pw.channels {
		if err := p.WriteSample(float32Bytes(s.Channels[i]), nil); err != nil {
			return err
		}
	}
	return pw.bn.WriteSample(boundsBytes(s.Positions), nil)
}
