package checkpoint

import (
	"math"

	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// column is one particle field: how many bytes a value takes, how to write particle
// i's value, how to make room for k more particles of n and how to read particle i's value.
type column struct {
	name string
	size int
	put  func(b []byte, st *simcore.State, i int)
	grow func(st *simcore.State, k, n int)
	get  func(b []byte, st *simcore.State, i int)
}

// grow extends s by k zero values towards a total of n. The capacity at most doubles at
// a time, so that what is allocated stays within twice the values that have really
// arrived, and ends at exactly n, so that a complete column has no spare capacity.
func grow[T any](s []T, k, n int) []T {
	if len(s)+k > cap(s) {
		t := make([]T, len(s), min(n, max(2*cap(s), len(s)+k)))
		copy(t, s)
		s = t
	}
	return s[:len(s)+k]
}

func float32At(b []byte, k int) float32 { return math.Float32frombits(le.Uint32(b[4*k:])) }

func vec3At(b []byte) geom.Vec3 {
	var v geom.Vec3
	for k := range v {
		v[k] = math.Float64frombits(le.Uint64(b[8*k:]))
	}
	return v
}

// columns lists the particle fields in file order; the sizes add up to recordSize.
// sinterColumn follows them when the particles carry sintering state (flagSintering).
var columns = []column{
	{"ID", 4,
		func(b []byte, st *simcore.State, i int) { le.PutUint32(b, uint32(st.Particles.ID[i])) },
		func(st *simcore.State, k, n int) { st.Particles.ID = grow(st.Particles.ID, k, n) },
		func(b []byte, st *simcore.State, i int) { st.Particles.ID[i] = int32(le.Uint32(b)) }},
	{"X", 24,
		func(b []byte, st *simcore.State, i int) { putVec3(b, st.Particles.X[i]) },
		func(st *simcore.State, k, n int) { st.Particles.X = grow(st.Particles.X, k, n) },
		func(b []byte, st *simcore.State, i int) { st.Particles.X[i] = vec3At(b) }},
	{"V", 24,
		func(b []byte, st *simcore.State, i int) { putVec3(b, st.Particles.V[i]) },
		func(st *simcore.State, k, n int) { st.Particles.V = grow(st.Particles.V, k, n) },
		func(b []byte, st *simcore.State, i int) { st.Particles.V[i] = vec3At(b) }},
	{"Mass", 4,
		func(b []byte, st *simcore.State, i int) { putFloat32s(b, st.Particles.Mass[i]) },
		func(st *simcore.State, k, n int) { st.Particles.Mass = grow(st.Particles.Mass, k, n) },
		func(b []byte, st *simcore.State, i int) { st.Particles.Mass[i] = float32At(b, 0) }},
	{"Vol0", 4,
		func(b []byte, st *simcore.State, i int) { putFloat32s(b, st.Particles.Vol0[i]) },
		func(st *simcore.State, k, n int) { st.Particles.Vol0 = grow(st.Particles.Vol0, k, n) },
		func(b []byte, st *simcore.State, i int) { st.Particles.Vol0[i] = float32At(b, 0) }},
	{"FE", 36,
		func(b []byte, st *simcore.State, i int) { putFloat32s(b, st.Particles.FE[i][:]...) },
		func(st *simcore.State, k, n int) { st.Particles.FE = grow(st.Particles.FE, k, n) },
		func(b []byte, st *simcore.State, i int) {
			m := &st.Particles.FE[i]
			for k := range m {
				m[k] = float32At(b, k)
			}
		}},
	{"JP", 4,
		func(b []byte, st *simcore.State, i int) { putFloat32s(b, st.Particles.JP[i]) },
		func(st *simcore.State, k, n int) { st.Particles.JP = grow(st.Particles.JP, k, n) },
		func(b []byte, st *simcore.State, i int) { st.Particles.JP[i] = float32At(b, 0) }},
	{"Mat", 20,
		func(b []byte, st *simcore.State, i int) {
			m := &st.Particles.Mat[i]
			putFloat32s(b, m.Mu0, m.Lambda0, m.Xi, m.ThetaC, m.ThetaS)
		},
		func(st *simcore.State, k, n int) { st.Particles.Mat = grow(st.Particles.Mat, k, n) },
		func(b []byte, st *simcore.State, i int) {
			st.Particles.Mat[i] = simcore.ParticleMaterial{
				Mu0: float32At(b, 0), Lambda0: float32At(b, 1), Xi: float32At(b, 2), ThetaC: float32At(b, 3), ThetaS: float32At(b, 4),
			}
		}},
	{"Stress", 24,
		func(b []byte, st *simcore.State, i int) { putFloat32s(b, st.Stress[i][:]...) },
		func(st *simcore.State, k, n int) { st.Stress = grow(st.Stress, k, n) },
		func(b []byte, st *simcore.State, i int) {
			s := &st.Stress[i]
			for k := range s {
				s[k] = float32At(b, k)
			}
		}},
}

// sinterColumn is simcore.ParticleSintering: 9 float32.
var sinterColumn = column{"Sinter", 36,
	func(b []byte, st *simcore.State, i int) {
		ps := &st.Particles.Sinter[i]
		putFloat32s(b, ps.MaxDensity, ps.C1, ps.C2, ps.C3, ps.C4, ps.C5, ps.EMax, ps.NuMax, ps.Density)
	},
	func(st *simcore.State, k, n int) { st.Particles.Sinter = grow(st.Particles.Sinter, k, n) },
	func(b []byte, st *simcore.State, i int) {
		st.Particles.Sinter[i] = simcore.ParticleSintering{
			MaxDensity: float32At(b, 0), C1: float32At(b, 1), C2: float32At(b, 2), C3: float32At(b, 3), C4: float32At(b, 4),
			C5: float32At(b, 5), EMax: float32At(b, 6), NuMax: float32At(b, 7), Density: float32At(b, 8),
		}
	}}

// fileColumns returns the columns of a state with the given flags, in file order.
func fileColumns(flags uint32) []column {
	if flags&flagSintering != 0 {
		return append(columns[:len(columns):len(columns)], sinterColumn)
	}
	return columns
}
