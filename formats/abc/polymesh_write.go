package abc

import (
	"errors"
	"math"

	"snowtools/levelset/geom"
)

// A PolyMeshWriter writes the samples of a PolyMesh object (layout in polymesh.go):
// a mesh sequence whose topology may change from sample to sample. Equal topology in
// consecutive samples is stored once.
type PolyMeshWriter struct {
	path                                             string
	p, faceCounts, faceIndices, velocities, selfBnds *PropertyWriter
}

// AddPolyMesh adds a PolyMesh object called name under parent, sampled at time
// sampling ts; velocities says whether its samples carry vertex velocities.
func (w *Writer) AddPolyMesh(parent *ObjectWriter, name string, ts uint32, velocities bool) (*PolyMeshWriter, error) {
	obj, g, err := addSchemaObject(parent, name, polyMeshSchema, geomCompound, geomBaseSchema)
	if err != nil {
		return nil, err
	}
	mw := &PolyMeshWriter{path: obj.Path()}
	if mw.p, err = g.AddArray("P", vec3f, Metadata{mdGeoScope: scopeVertex, mdInterpretation: "point"}, ts); err != nil {
		return nil, err
	}
	if mw.faceIndices, err = g.AddArray(".faceIndices", int32s, nil, ts); err != nil {
		return nil, err
	}
	if mw.faceCounts, err = g.AddArray(".faceCounts", int32s, nil, ts); err != nil {
		return nil, err
	}
	if velocities {
		if mw.velocities, err = g.AddArray(".velocities", vec3f, Metadata{mdInterpretation: "vector"}, ts); err != nil {
			return nil, err
		}
	}
	if mw.selfBnds, err = g.AddScalar(".selfBnds", box3d, Metadata{mdInterpretation: "box"}, ts); err != nil {
		return nil, err
	}
	return mw, nil
}

// WriteSample writes the next sample, whose faces are in Alembic's clockwise order.
func (mw *PolyMeshWriter) WriteSample(s *MeshSample) error {
	if err := s.validate(); err != nil {
		return errors.New("abc: " + mw.path + ": " + err.Error())
	}
	if (mw.velocities != nil) != (s.Velocities != nil) {
		return errors.New("abc: " + mw.path + ": a sample must carry velocities exactly when the mesh was added with them")
	}
	if err := mw.p.WriteSample(vec3Bytes(s.Positions), nil); err != nil {
		return err
	}
	if err := mw.faceIndices.WriteSample(int32Bytes(s.FaceIndices), nil); err != nil {
		return err
	}
	if err := mw.faceCounts.WriteSample(int32Bytes(s.FaceCounts), nil); err != nil {
		return err
	}
	if mw.velocities != nil {
		if err := mw.velocities.WriteSample(vec3Bytes(s.Velocities), nil); err != nil {
			return err
		}
	}
	return mw.selfBnds.WriteSample(boundsBytes(s.Positions), nil)
}

// WriteMesh writes m (counter-clockwise triangles, as geom.Mesh has them) as the next
// sample, with each triangle's corners reversed into Alembic's clockwise order and
// positions and velocities rounded to float32.
func (mw *PolyMeshWriter) WriteMesh(m *geom.Mesh) error {
	s := MeshSample{
		Positions:   toFloat32s(m.Positions),
		FaceCounts:  make([]int32, len(m.Triangles)),
		FaceIndices: make([]int32, 0, 3*len(m.Triangles)),
	}
	if mw.velocities != nil {
		s.Velocities = toFloat32s(m.Velocities)
		if s.Velocities == nil {
			s.Velocities = make([][3]float32, len(m.Positions)) // at rest
		}
	}
	for i, t := range m.Triangles {
		s.FaceCounts[i] = 3
		s.FaceIndices = append(s.FaceIndices, t[2], t[1], t[0])
	}
	return mw.WriteSample(&s)
}

func toFloat32s(v []geom.Vec3) [][3]float32 {
	if v == nil {
		return nil
	}
	out := make([][3]float32, len(v))
	for i, p := range v {
		out[i] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	return out
}

// An XformWriter writes the samples of an Xform object as one matrix op.
type XformWriter struct {
	c                   *CompoundWriter
	ops, vals, inherits *PropertyWriter
	notIdentity         bool
}

// AddXform adds an Xform object called name under parent, sampled at ts.
func (w *Writer) AddXform(parent *ObjectWriter, name string, ts uint32) (*XformWriter, *ObjectWriter, error) {
	obj, err := parent.AddChild(name, Metadata{mdSchema: xformSchema, mdSchemaObjTitle: xformSchema + ":" + xformCompound})
	if err != nil {
		return nil, nil, err
	}
	c, err := obj.Properties().AddCompound(xformCompound, Metadata{mdSchema: xformSchema})
	if err != nil {
		return nil, nil, err
	}
	xw := &XformWriter{c: c}
	if xw.inherits, err = c.AddScalar(".inherits", DataType{POD: Bool, Extent: 1}, nil, ts); err != nil {
		return nil, nil, err
	}
	if xw.ops, err = c.AddScalar(".ops", DataType{POD: Uint8, Extent: 1}, nil, 0); err != nil {
		return nil, nil, err
	}
	if xw.vals, err = c.AddScalar(".vals", DataType{POD: Float64, Extent: 16}, nil, ts); err != nil {
		return nil, nil, err
	}
	return xw, obj, nil
}

// WriteSample writes the next local matrix and whether the parent's transform
// applies.
func (xw *XformWriter) WriteSample(m Matrix, inherits bool) error {
	b := byte(0)
	if inherits {
		b = 1
	}
	if err := xw.inherits.WriteSample([]byte{b}, nil); err != nil {
		return err
	}
	if err := xw.ops.WriteSample([]byte{byte(MatrixOp) << 4}, nil); err != nil {
		return err
	}
	if m != Identity && !xw.notIdentity {
		// Alembic marks an Xform that is ever not the identity with this property.
		xw.notIdentity = true
		p, err := xw.c.AddScalar("isNotConstantIdentity", DataType{POD: Bool, Extent: 1}, nil, 0)
		if err != nil {
			return err
		}
		if err := p.WriteSample([]byte{1}, nil); err != nil {
			return err
		}
	}
	vals := make([]byte, 0, 128)
	for _, v := range m {
		vals = appendFloat64(vals, v)
	}
	return xw.vals.WriteSample(vals, nil)
}

func appendFloat64(b []byte, v float64) []byte {
	u := math.Float64bits(v)
	return append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24), byte(u>>32), byte(u>>40), byte(u>>48), byte(u>>56))
}
