package abc

import (
	"strconv"
	"strings"

	"snowtools/levelset/geom"
)

// An Xform object (schema AbcGeom_Xform_v3) keeps its transform in the compound
// ".xform":
//
//	.ops       scalar uint8[n], one sample: the ops, each type<<4 | hint
//	.vals      scalar float64[c] (an array of float64 when c > 256): the ops'
//	           channels, op after op, one sample per time
//	.inherits  scalar bool: whether the parent's transform applies (absent: true)
//	.animChans array uint32: which channels change over time (informative)
//	isNotConstantIdentity  scalar bool: present unless every sample is the identity
//
// The local matrix is the product of the ops' matrices, the first op outermost: for
// ops (translate, rotate, scale) a point is scaled, then rotated, then translated.
const (
	xformSchemaPrefix = "AbcGeom_Xform_v"
	xformCompound     = ".xform"
)

// XformOpType is the kind of one transform op.
type XformOpType uint8

// The op kinds and their channels: Scale (x, y, z), Translate (x, y, z), Rotate
// (axis x, y, z, angle in degrees), Matrix (16 values, row-major as Matrix),
// RotateX, RotateY, RotateZ (angle in degrees).
const (
	ScaleOp XformOpType = iota
	TranslateOp
	RotateOp
	MatrixOp
	RotateXOp
	RotateYOp
	RotateZOp
)

// XformOp is one op: its type and its hint (such as Maya's "rotate pivot"), which
// does not change the matrix.
type XformOp struct {
	Type XformOpType
	Hint uint8
}

// Channels returns the number of values the op takes.
func (op XformOp) Channels() int {
	switch op.Type {
	case RotateXOp, RotateYOp, RotateZOp:
		return 1
	case RotateOp:
		return 4
	case MatrixOp:
		return 16
	default:
		return 3
	}
}

// matrix returns the op's matrix for its channel values v.
func (op XformOp) matrix(v []float64) Matrix {
	switch op.Type {
	case ScaleOp:
		return scaling(geom.Vec3{v[0], v[1], v[2]})
	case TranslateOp:
		return translation(geom.Vec3{v[0], v[1], v[2]})
	case RotateOp:
		return rotation(geom.Vec3{v[0], v[1], v[2]}, v[3])
	case RotateXOp:
		return rotation(geom.Vec3{1, 0, 0}, v[0])
	case RotateYOp:
		return rotation(geom.Vec3{0, 1, 0}, v[0])
	case RotateZOp:
		return rotation(geom.Vec3{0, 0, 1}, v[0])
	default:
		var m Matrix
		copy(m[:], v)
		return m
	}
}

// An Xform is an Xform object's transform, open for reading. It keeps the local
// matrix of the last sample it read, so that reading one sample for each of many
// descendants, as posing many meshes does, reads the file once.
type Xform struct {
	Object   *Object
	Ops      []XformOp
	vals     *Property // nil when there are no channels
	inherits *Property // nil: always inherits
	channels int
	last     *xformSample // the last sample read, or nil
}

// xformSample is one sample of an Xform: the stored sample indices of its .inherits
// and .vals properties (-1 for none), and what they give.
type xformSample struct {
	inheritsIndex, valsIndex int
	local                    Matrix
	inherits                 bool
}

// IsXform reports whether the object is a transform.
func (o *Object) IsXform() bool { return strings.HasPrefix(o.Schema(), xformSchemaPrefix) }

// Xform returns the object's transform; the object must be an Xform. The first call
// opens it (its properties and ops); later calls return the same *Xform, or the same
// error.
func (o *Object) Xform() (*Xform, error) {
	if o.xform == nil && o.xformErr == nil {
		o.xform, o.xformErr = o.openXform()
	}
	return o.xform, o.xformErr
}

// openXform reads the object's .xform compound: its ops and property handles.
func (o *Object) openXform() (*Xform, error) {
	if !o.IsXform() {
		return nil, formatError(-1, o.Path, "not an Xform (schema "+strconv.Quote(o.Schema())+")")
	}
	props, err := o.Properties()
	if err != nil {
		return nil, err
	}
	x := &Xform{Object: o}
	if !props.Has(xformCompound) {
		return x, nil // an Xform never set: the identity
	}
	c, err := props.Compound(xformCompound)
	if err != nil {
		return nil, err
	}
	if c.Has(".inherits") {
		if x.inherits, err = c.Property(".inherits"); err != nil {
			return nil, err
		}
	}
	if !c.Has(".ops") {
		return x, nil
	}
	ops, err := c.Property(".ops")
	if err != nil {
		return nil, err
	}
	if ops.Header.Kind != ScalarProperty || ops.Header.DataType.POD != Uint8 {
		return nil, formatError(-1, ops.Path, "ops are "+ops.Header.DataType.String()+", not uint8")
	}
	if ops.NumSamples() > 0 {
		s, err := ops.Read(0, nil)
		if err != nil {
			return nil, err
		}
		for _, b := range s.Data {
			op := XformOp{Type: XformOpType(b >> 4), Hint: b & 0xf}
			if op.Type > RotateZOp {
				return nil, formatError(-1, ops.Path, "unknown op type "+strconv.Itoa(int(op.Type)))
			}
			x.Ops = append(x.Ops, op)
			x.channels += op.Channels()
		}
	}
	if x.channels > 0 {
		if x.vals, err = c.Property(".vals"); err != nil {
			return nil, err
		}
		if x.vals.Header.DataType.POD != Float64 {
			return nil, formatError(-1, x.vals.Path, "channel values are "+x.vals.Header.DataType.String()+", not float64")
		}
	}
	return x, nil
}

// NumSamples returns the number of transform samples.
func (x *Xform) NumSamples() int {
	if x.vals != nil {
		return x.vals.NumSamples()
	}
	if x.inherits != nil {
		return x.inherits.NumSamples()
	}
	return 0
}

// TimeSampling returns the sampling of the transform's channel values (the identity
// sampling when it has none).
func (x *Xform) TimeSampling() TimeSampling {
	if x.vals != nil {
		return x.vals.TimeSampling
	}
	if x.inherits != nil {
		return x.inherits.TimeSampling
	}
	return Uniform(1, 0)
}

// IsConstant reports whether the transform is the same at every time.
func (x *Xform) IsConstant() bool {
	return (x.vals == nil || x.vals.IsConstant()) && (x.inherits == nil || x.inherits.IsConstant())
}

// Sample returns the local matrix at sample i (clamped to the samples there are)
// and whether the parent's transform applies.
func (x *Xform) Sample(i int) (m Matrix, inherits bool, err error) {
	key := xformSample{inheritsIndex: storedIndexOf(x.inherits, i), valsIndex: storedIndexOf(x.vals, i)}
	if l := x.last; l != nil && l.inheritsIndex == key.inheritsIndex && l.valsIndex == key.valsIndex {
		return l.local, l.inherits, nil
	}
	if key.local, key.inherits, err = x.read(i); err != nil {
		return key.local, key.inherits, err
	}
	x.last = &key
	return key.local, key.inherits, nil
}

// storedIndexOf returns the stored sample of p that sample i reads (i clamped to
// the samples there are), or -1 when p is nil or has no samples: samples that read
// the same stored sample have the same value.
func storedIndexOf(p *Property, i int) int {
	if p == nil || p.NumSamples() == 0 {
		return -1
	}
	return int(p.Header.storedIndex(uint32(clamp(i, p.NumSamples()))))
}

// read reads sample i from the file.
func (x *Xform) read(i int) (m Matrix, inherits bool, err error) {
	m, inherits = Identity, true
	if x.inherits != nil && x.inherits.NumSamples() > 0 {
		s, err := x.inherits.Read(clamp(i, x.inherits.NumSamples()), nil)
		if err != nil {
			return m, true, err
		}
		inherits = len(s.Data) > 0 && s.Data[0] != 0
	}
	if x.vals == nil || x.vals.NumSamples() == 0 {
		return m, inherits, nil
	}
	s, err := x.vals.Read(clamp(i, x.vals.NumSamples()), nil)
	if err != nil {
		return m, inherits, err
	}
	v, _ := s.Float64s()
	if len(v) != x.channels {
		return m, inherits, formatError(-1, x.vals.Path, strconv.Itoa(len(v))+" channel values for ops that take "+strconv.Itoa(x.channels))
	}
	for _, op := range x.Ops {
		n := op.Channels()
		m = op.matrix(v[:n]).Mul(m)
		v = v[n:]
	}
	return m, inherits, nil
}

// At returns the local matrix at time t (the nearest sample, as Alembic's default
// selector picks) and whether the parent's transform applies.
func (x *Xform) At(t float64) (Matrix, bool, error) {
	i := x.TimeSampling().NearIndex(t, x.NumSamples())
	if x.vals == nil && x.inherits != nil {
		i = x.inherits.TimeSampling.NearIndex(t, x.inherits.NumSamples())
	}
	return x.Sample(i)
}

func clamp(i, n int) int { return max(0, min(i, n-1)) }

// WorldMatrix returns the object's transform to world space at time t: the product of
// the local matrices of the Xforms from the object up to the top, stopping above an
// Xform that does not inherit (see Pose.WorldMatrix). Objects that are not Xforms
// (shapes) add no transform of their own. To pose many objects at one time, use one
// Pose, which shares their ancestors' matrices.
func (o *Object) WorldMatrix(t float64) (Matrix, error) { return NewPose(t).WorldMatrix(o) }
