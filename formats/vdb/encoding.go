package vdb

import (
	"encoding/binary"
	"math"

	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// enc appends the primitive encodings of the format to a byte slice: little endian
// integers and floats, strings as a uint32 length and the bytes.
type enc struct{ b []byte }

func (e *enc) u8(v byte)          { e.b = append(e.b, v) }
func (e *enc) u32(v uint32)       { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *enc) i32(v int32)        { e.u32(uint32(v)) }
func (e *enc) i64(v int64)        { e.b = binary.LittleEndian.AppendUint64(e.b, uint64(v)) }
func (e *enc) f64(v float64)      { e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v)) }
func (e *enc) bytes(p []byte)     { e.b = append(e.b, p...) }
func (e *enc) str(s string)       { e.u32(uint32(len(s))); e.b = append(e.b, s...) }
func (e *enc) vec3d(v [3]float64) { e.f64(v[0]); e.f64(v[1]); e.f64(v[2]) }

func (e *enc) coord(c levelset.Coord) {
	for _, x := range c {
		e.i32(x)
	}
}

func (e *enc) mask(m nodeMask) {
	for _, w := range m {
		e.b = binary.LittleEndian.AppendUint64(e.b, w)
	}
}

// metadata writes a MetaMap: a count, then name, type name, byte size and value
// for each entry, in name order.
func (e *enc) metadata(m Metadata) {
	names := m.sortedNames()
	e.u32(uint32(len(names)))
	for _, name := range names {
		typeName, data, _ := encodeMeta(m[name])
		e.str(name)
		e.str(typeName)
		e.u32(uint32(len(data)))
		e.bytes(data)
	}
}

// transform writes OpenVDB's map for a uniform voxel size: UniformScaleMap when
// voxel (0,0,0) is centred at the world origin, UniformScaleTranslateMap otherwise.
// Both store the scale with four derived vectors the reader trusts as given.
func (e *enc) transform(t levelset.Transform) {
	h := t.VoxelSize
	if t.Origin == (geom.Vec3{}) {
		e.str("UniformScaleMap")
	} else {
		e.str("UniformScaleTranslateMap")
		e.vec3d(t.Origin)
	}
	for _, v := range []float64{h, h, 1 / h, 1 / (h * h), 0.5 / h} {
		e.vec3d([3]float64{v, v, v})
	}
}
