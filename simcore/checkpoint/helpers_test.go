package checkpoint

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/klauspost/compress/zstd"

	"snowtools/levelset/geom"
	"snowtools/simcore"
)

// randomState returns a state of n particles with every field set to values that
// differ between particles, including a negative zero, a NaN-free spread of
// magnitudes and the largest ID; for odd n the particles also carry sintering state.
func randomState(n int, seed uint64) simcore.State {
	rng := rand.New(rand.NewPCG(seed, 1))
	f32 := func() float32 { return float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))) }
	vec := func() geom.Vec3 { return geom.Vec3{rng.NormFloat64(), rng.Float64(), -rng.Float64()} }
	st := simcore.State{Time: rng.Float64(), Steps: rng.Int64N(1 << 40), MaxSpeed: rng.Float64() * 10,
		MaxWaveSpeed: rng.Float64() * 100, VolumesKnown: seed%2 == 0}
	p := &st.Particles
	for i := 0; i < n; i++ {
		p.ID = append(p.ID, int32(rng.Uint32()))
		p.X = append(p.X, vec())
		p.V = append(p.V, vec())
		p.Mass = append(p.Mass, f32())
		p.Vol0 = append(p.Vol0, f32())
		var fe simcore.Mat3f
		for k := range fe {
			fe[k] = f32()
		}
		p.FE = append(p.FE, fe)
		p.JP = append(p.JP, f32())
		p.Mat = append(p.Mat, simcore.ParticleMaterial{Mu0: f32(), Lambda0: f32(), Xi: f32(), ThetaC: f32(), ThetaS: f32()})
		var s simcore.Sym3f
		for k := range s {
			s[k] = f32()
		}
		st.Stress = append(st.Stress, s)
		if n%2 == 1 {
			p.Sinter = append(p.Sinter, simcore.ParticleSintering{MaxDensity: f32(), C1: f32(), C2: f32(), C3: f32(),
				C4: f32(), C5: f32(), EMax: f32(), NuMax: f32(), Density: f32()})
		}
	}
	if n > 0 {
		p.ID[0] = math.MaxInt32
		p.X[0][1] = math.Copysign(0, -1)
	}
	return st
}

// stateBits is every field of st in binary, so that comparisons are bit-exact.
func stateBits(t testing.TB, st *simcore.State) []byte {
	t.Helper()
	if n := reflect.TypeOf(simcore.Particles{}).NumField(); n != 10 {
		t.Fatalf("simcore.Particles has %d fields; the checkpoint format knows of 10", n)
	}
	p := &st.Particles
	var buf bytes.Buffer
	for _, v := range []any{p.ID, p.X, p.V, p.Mass, p.Vol0, p.FE, p.JP, p.Mat, p.Sinter, st.Stress,
		st.Time, st.Steps, st.MaxSpeed, st.MaxWaveSpeed, st.VolumesKnown} {
		if err := binary.Write(&buf, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	return buf.Bytes()
}

func encode(t testing.TB, h Header, st *simcore.State) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, h, st); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawFile returns the valid header of a file at frame 3 followed by payload
// compressed, so that tests can write states that Write would refuse.
func rawFile(t testing.TB, payload []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, Header{Frame: 3}, &simcore.State{}); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()[:headerSize]
	zw, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return zw.EncodeAll(payload, file)
}

// statePayload returns the decompressed state of a file written by Write.
func statePayload(t testing.TB, file []byte) []byte {
	t.Helper()
	zr, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out, err := zr.DecodeAll(file[headerSize:], nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
