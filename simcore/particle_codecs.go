package simcore

import (
	"encoding/binary"
	"math"

	"snowtools/levelset/geom"
)

// codecInfo is what a value of a channel is made of: arity numbers of type scalar.
type codecInfo struct {
	scalar Scalar
	arity  int
}

func (c codecInfo) size() int { return c.arity * c.scalar.size() }

// codec stores a value of type T as its numbers in declaration order, little-endian,
// bit for bit (put), and reads it back (get). TestCodecsMatchMemory checks that the
// bytes are those of T in memory, so that no number is left out or misplaced.
type codec[T any] struct {
	codecInfo
	put func(b []byte, v *T)
	get func(b []byte, v *T)
}

// maxValueSize is the largest encoded value among the codecs (9 float64 would fit);
// TestCodecsMatchMemory checks it.
const maxValueSize = 72

// The codecs of the element types that channels use.
var (
	int32s = &codec[int32]{codecInfo{Int32, 1},
		func(b []byte, v *int32) { le.PutUint32(b, uint32(*v)) },
		func(b []byte, v *int32) { *v = int32(le.Uint32(b)) }}
	float32s = &codec[float32]{codecInfo{Float32, 1},
		func(b []byte, v *float32) { putFloat32s(b, *v) },
		func(b []byte, v *float32) { *v = float32At(b, 0) }}
	vec3s = &codec[geom.Vec3]{codecInfo{Float64, 3},
		func(b []byte, v *geom.Vec3) {
			for k, x := range v {
				le.PutUint64(b[8*k:], math.Float64bits(x))
			}
		},
		func(b []byte, v *geom.Vec3) {
			for k := range v {
				v[k] = math.Float64frombits(le.Uint64(b[8*k:]))
			}
		}}
	mat3fs = &codec[Mat3f]{codecInfo{Float32, 9},
		func(b []byte, v *Mat3f) { putFloat32s(b, v[:]...) },
		func(b []byte, v *Mat3f) { getFloat32s(b, v[:]) }}
	sym3fs = &codec[sym3f]{codecInfo{Float32, 6},
		func(b []byte, v *sym3f) { putFloat32s(b, v[:]...) },
		func(b []byte, v *sym3f) { getFloat32s(b, v[:]) }}
	materials = &codec[ParticleMaterial]{codecInfo{Float32, 5},
		func(b []byte, m *ParticleMaterial) { putFloat32s(b, m.Mu0, m.Lambda0, m.Xi, m.ThetaC, m.ThetaS) },
		func(b []byte, m *ParticleMaterial) {
			*m = ParticleMaterial{Mu0: float32At(b, 0), Lambda0: float32At(b, 1), Xi: float32At(b, 2),
				ThetaC: float32At(b, 3), ThetaS: float32At(b, 4)}
		}}
	sinterings = &codec[ParticleSintering]{codecInfo{Float32, 9},
		func(b []byte, s *ParticleSintering) {
			putFloat32s(b, s.MaxDensity, s.C1, s.C2, s.C3, s.C4, s.C5, s.EMax, s.NuMax, s.Density)
		},
		func(b []byte, s *ParticleSintering) {
			*s = ParticleSintering{MaxDensity: float32At(b, 0), C1: float32At(b, 1), C2: float32At(b, 2),
				C3: float32At(b, 3), C4: float32At(b, 4), C5: float32At(b, 5), EMax: float32At(b, 6),
				NuMax: float32At(b, 7), Density: float32At(b, 8)}
		}}
)

var le = binary.LittleEndian

func putFloat32s(b []byte, xs ...float32) {
	for k, x := range xs {
		le.PutUint32(b[4*k:], math.Float32bits(x))
	}
}

func getFloat32s(b []byte, xs []float32) {
	for k := range xs {
		xs[k] = float32At(b, k)
	}
}

func float32At(b []byte, k int) float32 { return math.Float32frombits(le.Uint32(b[4*k:])) }

// scalarAt returns the k-th number of type s in b, widened to float64 (exactly: every
// Scalar fits).
func scalarAt(b []byte, s Scalar, k int) float64 {
	switch s {
	case Int32:
		return float64(int32(le.Uint32(b[4*k:])))
	case Float32:
		return float64(float32At(b, k))
	}
	return math.Float64frombits(le.Uint64(b[8*k:]))
}

// putScalar stores x into b as a number of type s, converting (float64 to float32
// rounds to nearest, as a Go conversion does).
func putScalar(b []byte, s Scalar, x float64) {
	switch s {
	case Int32:
		le.PutUint32(b, uint32(int32(x)))
	case Float32:
		putFloat32s(b, float32(x))
	default:
		le.PutUint64(b, math.Float64bits(x))
	}
}
