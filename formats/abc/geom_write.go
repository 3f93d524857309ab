package abc

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// Schema names and metadata that AbcGeom writes and readers (abcls, Maya, Houdini,
// Blender) check: the object names its schema and the compound holding it, the
// compound names its schema and base type.
const (
	pointsSchema   = "AbcGeom_Points_v1"
	polyMeshSchema = "AbcGeom_PolyMesh_v1"
	xformSchema    = "AbcGeom_Xform_v3"
	geomBaseSchema = "AbcGeom_GeomBase_v1"
)

// Geometry scopes: how many values a geometry parameter has per primitive.
const (
	scopeVarying = "var" // one per point
	scopeVertex  = "vtx" // one per mesh vertex
)

// addSchemaObject adds a child object with a schema, and its schema compound.
func addSchemaObject(parent *ObjectWriter, name, schema, compound, baseType string) (*ObjectWriter, *CompoundWriter, error) {
	obj, err := parent.AddChild(name, Metadata{mdSchema: schema, mdSchemaObjTitle: schema + ":" + compound, mdSchemaBaseType: baseType})
	if err != nil {
		return nil, nil, err
	}
	c, err := obj.Properties().AddCompound(compound, Metadata{mdSchema: schema, mdSchemaBaseType: baseType})
	return obj, c, err
}

var (
	vec3f  = DataType{POD: Float32, Extent: 3}
	box3d  = DataType{POD: Float64, Extent: 6}
	int32s = DataType{POD: Int32, Extent: 1}
)

// float32Bytes returns the little-endian bytes of v.
func float32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// vec3Bytes returns the little-endian bytes of v.
func vec3Bytes(v [][3]float32) []byte {
	b := make([]byte, 12*len(v))
	for i, p := range v {
		for k := 0; k < 3; k++ {
			binary.LittleEndian.PutUint32(b[12*i+4*k:], math.Float32bits(p[k]))
		}
	}
	return b
}

func int32Bytes(v []int32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return b
}

// boundsBytes returns the .selfBnds sample of positions: min x, y, z then max x, y,
// z as float64; for no positions, Imath's empty box (min +max float64, max -max).
func boundsBytes(ps [][3]float32) []byte {
	lo := [3]float64{math.MaxFloat64, math.MaxFloat64, math.MaxFloat64}
	hi := [3]float64{-math.MaxFloat64, -math.MaxFloat64, -math.MaxFloat64}
	for _, p := range ps {
		for k := 0; k < 3; k++ {
			lo[k] = math.Min(lo[k], float64(p[k]))
			hi[k] = math.Max(hi[k], float64(p[k]))
		}
	}
	b := make([]byte, 48)
	for k := 0; k < 3; k++ {
		binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(lo[k]))
		binary.LittleEndian.PutUint64(b[24+8*k:], math.Float64bits(hi[k]))
	}
	return b
}

// geomParamMetadata returns the metadata AbcGeom gives an unindexed geometry parameter
// of float32 values, extent per element and arrayExtent elements per point.
func geomParamMetadata(scope, interpretation string, extent, arrayExtent int) Metadata {
	return Metadata{
		mdGeoScope:       scope,
		mdIsGeomParam:    "true",
		mdPodName:        Float32.String(),
		mdPodExtent:      strconv.Itoa(extent),
		mdArraySize:      strconv.Itoa(arrayExtent),
		mdInterpretation: interpretation,
	}
}

// checkLen reports a per-point list of the wrong length.
func checkLen(path, what string, got, want int) error {
	if got == want {
		return nil
	}
	return errors.New("abc: " + path + ": " + strconv.Itoa(got) + " " + what + " for " + strconv.Itoa(want) + " points")
}
