package abc

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"snowtools/levelset/geom"
)

// A PolyMesh object (schema AbcGeom_PolyMesh_v1) or SubD object (AbcGeom_SubD_v1)
// keeps its samples in the compound ".geom":
//
//	P             array float32[3] (interpretation=point): vertex positions
//	.faceCounts   array int32: corners of each face
//	.faceIndices  array int32: the faces' corners, face after face, as vertex indices
//	.velocities   array float32[3] (optional): vertex velocities, per second
//	.selfBnds     scalar float64[6]: the bounding box of P
//
// Alembic's faces wind clockwise seen from outside (RenderMan's convention; Maya's
// and Houdini's exporters reverse their counter-clockwise faces), so Mesh reverses
// them. Topology may change from sample to sample; when it does not, .faceCounts and
// .faceIndices hold one stored sample.
const (
	polyMeshSchemaPrefix = "AbcGeom_PolyMesh_v"
	subDSchemaPrefix     = "AbcGeom_SubD_v"
	geomCompound         = ".geom"
)

// A PolyMesh is a PolyMesh or SubD object's geometry, open for reading.
type PolyMesh struct {
	Object *Object
	// SubD is true for a subdivision surface, whose control cage this reads.
	SubD bool

	positions, faceCounts, faceIndices, velocities *Property
}

// IsPolyMesh reports whether the object is a PolyMesh or a SubD.
func (o *Object) IsPolyMesh() bool {
	s := o.Schema()
	return strings.HasPrefix(s, polyMeshSchemaPrefix) || strings.HasPrefix(s, subDSchemaPrefix)
}

// PolyMesh opens the object's geometry; the object must be a PolyMesh or a SubD.
func (o *Object) PolyMesh() (*PolyMesh, error) {
	if !o.IsPolyMesh() {
		return nil, formatError(-1, o.Path, "not a PolyMesh or SubD (schema "+strconv.Quote(o.Schema())+")")
	}
	props, err := o.Properties()
	if err != nil {
		return nil, err
	}
	g, err := props.Compound(geomCompound)
	if err != nil {
		return nil, err
	}
	m := &PolyMesh{Object: o, SubD: strings.HasPrefix(o.Schema(), subDSchemaPrefix)}
	if m.positions, err = openArray(g, "P", Float32, 3); err != nil {
		return nil, err
	}
	if m.faceCounts, err = openArray(g, ".faceCounts", Int32, 1); err != nil {
		return nil, err
	}
	if m.faceIndices, err = openArray(g, ".faceIndices", Int32, 1); err != nil {
		return nil, err
	}
	if g.Has(".velocities") {
		if m.velocities, err = openArray(g, ".velocities", Float32, 3); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// openArray opens an array property of the given type.
func openArray(c *Compound, name string, pod POD, extent uint8) (*Property, error) {
	p, err := c.Property(name)
	if err != nil {
		return nil, err
	}
	want := DataType{POD: pod, Extent: extent}
	if p.Header.Kind != ArrayProperty || p.Header.DataType != want {
		return nil, formatError(-1, p.Path, "a "+p.Header.Kind.String()+" property of "+p.Header.DataType.String()+", not an array of "+want.String())
	}
	return p, nil
}

// NumSamples returns the number of position samples.
func (m *PolyMesh) NumSamples() int { return m.positions.NumSamples() }

// TimeSampling returns the sampling of the positions.
func (m *PolyMesh) TimeSampling() TimeSampling { return m.positions.TimeSampling }

// HasVelocities reports whether the mesh stores vertex velocities.
func (m *PolyMesh) HasVelocities() bool { return m.velocities != nil }

// ConstantTopology reports whether every sample has the same faces.
func (m *PolyMesh) ConstantTopology() bool {
	return m.faceCounts.NumStored() <= 1 && m.faceIndices.NumStored() <= 1
}

// MeshSample is one sample of a mesh, in the object's own space and Alembic's
// clockwise winding.
type MeshSample struct {
	Positions   [][3]float32
	Velocities  [][3]float32 // nil when the mesh has none
	FaceCounts  []int32
	FaceIndices []int32
}

// Read returns sample i of the positions, with the topology and velocities of the
// same index (clamped to the samples each has, as Alembic's index selector does).
func (m *PolyMesh) Read(i int) (*MeshSample, error) {
	if i < 0 || i >= m.NumSamples() {
		return nil, formatError(-1, m.positions.Path, "sample "+strconv.Itoa(i)+" asked for, the mesh has "+strconv.Itoa(m.NumSamples()))
	}
	var s MeshSample
	var err error
	if s.Positions, err = readVec3s(m.positions, i); err != nil {
		return nil, err
	}
	if m.velocities != nil && m.velocities.NumSamples() > 0 {
		if s.Velocities, err = readVec3s(m.velocities, clamp(i, m.velocities.NumSamples())); err != nil {
			return nil, err
		}
	}
	if s.FaceCounts, err = readInt32s(m.faceCounts, clamp(i, m.faceCounts.NumSamples())); err != nil {
		return nil, err
	}
	if s.FaceIndices, err = readInt32s(m.faceIndices, clamp(i, m.faceIndices.NumSamples())); err != nil {
		return nil, err
	}
	if err := s.validate(); err != nil {
		return nil, &FormatError{Offset: -1, Path: m.Object.Path, Msg: "sample " + strconv.Itoa(i), Err: err}
	}
	return &s, nil
}

// At returns the sample nearest time t.
func (m *PolyMesh) At(t float64) (*MeshSample, error) {
	return m.Read(m.TimeSampling().NearIndex(t, m.NumSamples()))
}

func readVec3s(p *Property, i int) ([][3]float32, error) {
	if p.NumSamples() == 0 {
		return nil, nil
	}
	s, err := p.Read(i, nil)
	if err != nil {
		return nil, err
	}
	// openArray checked the type: float32[3], decoded straight from the bytes.
	out := make([][3]float32, len(s.Data)/12)
	for k := range out {
		b := s.Data[12*k:]
		out[k] = [3]float32{
			math.Float32frombits(binary.LittleEndian.Uint32(b)),
			math.Float32frombits(binary.LittleEndian.Uint32(b[4:])),
			math.Float32frombits(binary.LittleEndian.Uint32(b[8:])),
		}
	}
	return out, nil
}

func readInt32s(p *Property, i int) ([]int32, error) {
	if p.NumSamples() == 0 {
		return nil, nil
	}
	s, err := p.Read(i, nil)
	if err != nil {
		return nil, err
	}
	return s.Int32s()
}

// meshError is a topology error of a mesh sample.
type meshError string

func (e meshError) Error() string { return string(e) }

// validate checks that the faces use exactly the listed corners and that every
// corner names a vertex, and that velocities, if any, match the vertices.
func (s *MeshSample) validate() error {
	var corners int64
	for f, n := range s.FaceCounts {
		if n < 0 {
			return meshError("face " + strconv.Itoa(f) + " has " + strconv.Itoa(int(n)) + " corners")
		}
		corners += int64(n)
	}
	if corners != int64(len(s.FaceIndices)) {
		return meshError("face counts add up to " + strconv.FormatInt(corners, 10) + " corners, the face indices list " +
			strconv.Itoa(len(s.FaceIndices)))
	}
	for k, v := range s.FaceIndices {
		if v < 0 || int(v) >= len(s.Positions) {
			return meshError("face index " + strconv.Itoa(k) + " is vertex " + strconv.Itoa(int(v)) + ", outside 0.." +
				strconv.Itoa(len(s.Positions)-1))
		}
	}
	if s.Velocities != nil && len(s.Velocities) != len(s.Positions) {
		return meshError(strconv.Itoa(len(s.Velocities)) + " velocities for " + strconv.Itoa(len(s.Positions)) + " vertices")
	}
	return nil
}

// Mesh returns the sample as a triangle mesh transformed by world (such as
// Object.WorldMatrix), counter-clockwise seen from outside as geom.Mesh wants: each
// face's corners are reversed from Alembic's clockwise order (and reversed back when
// world mirrors), then split into triangles by geom.TriangulatePolygon. Faces of fewer
// than three corners are left out. Velocities are transformed by world's linear part.
func (s *MeshSample) Mesh(world Matrix) *geom.Mesh {
	m := &geom.Mesh{Positions: make([]geom.Vec3, len(s.Positions))}
	for i, p := range s.Positions {
		m.Positions[i] = world.Point(geom.Vec3{float64(p[0]), float64(p[1]), float64(p[2])})
	}
	if s.Velocities != nil {
		m.Velocities = make([]geom.Vec3, len(s.Velocities))
		for i, v := range s.Velocities {
			m.Velocities[i] = world.Vector(geom.Vec3{float64(v[0]), float64(v[1]), float64(v[2])})
		}
	}
	mirrored := world.Determinant3() < 0
	var triangles int
	for _, n := range s.FaceCounts {
		triangles += max(int(n)-2, 0)
	}
	m.Triangles = make([][3]int32, 0, triangles)
	var corners []int32
	k := 0
	for _, n := range s.FaceCounts {
		face := s.FaceIndices[k : k+int(n)]
		k += int(n)
		corners = append(corners[:0], face...)
		if !mirrored {
			for a, b := 0, len(corners)-1; a < b; a, b = a+1, b-1 {
				corners[a], corners[b] = corners[b], corners[a]
			}
		}
		m.Triangles = geom.TriangulatePolygon(m.Positions, corners, m.Triangles)
	}
	return m
}
