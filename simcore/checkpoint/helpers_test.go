package checkpoint

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"

	"snowtools/simcore"
)

// randomState returns a state of n particles whose channels hold random bits (NaNs,
// infinities and negative zeros among them: the format stores bits, not numbers); for
// odd n the particles also carry the Optional channels.
func randomState(n int, seed uint64) simcore.State {
	rng := rand.New(rand.NewPCG(seed, 1))
	st := simcore.State{Time: rng.Float64(), Steps: rng.Int64N(1 << 40), MaxSpeed: rng.Float64() * 10,
		MaxWaveSpeed: rng.Float64() * 100, VolumesKnown: seed%2 == 0}
	for i := range simcore.Channels {
		c := &simcore.Channels[i]
		if c.Optional && n%2 == 0 {
			continue
		}
		b := make([]byte, n*c.Size())
		for k := range b {
			b[k] = byte(rng.Uint32())
		}
		c.Grow(&st.Particles, n, n)
		c.Decode(&st.Particles, 0, b)
	}
	return st
}

// stateBits is every channel (whether present, and its bytes) and scalar of st, so
// that comparisons are bit-exact. It relies on the channels' encoding, which simcore's
// TestCodecsMatchMemory checks against the values in memory.
func stateBits(t testing.TB, st *simcore.State) []byte {
	t.Helper()
	p := &st.Particles
	var b []byte
	for i := range simcore.Channels {
		c := &simcore.Channels[i]
		v := make([]byte, c.Len(p)*c.Size())
		c.Encode(p, 0, v)
		b = append(append(b, c.Name...), fmt.Sprint(c.Present(p))...)
		b = append(b, v...)
	}
	var buf bytes.Buffer
	for _, v := range []any{st.Time, st.Steps, st.MaxSpeed, st.MaxWaveSpeed, st.VolumesKnown} {
		if err := binary.Write(&buf, binary.LittleEndian, v); err != nil {
			t.Fatal(err)
		}
	}
	return append(b, buf.Bytes()...)
}

// recordSize is the bytes per particle of the columns that every state has.
func recordSize() int {
	n := 0
	for i := range simcore.Channels {
		if c := &simcore.Channels[i]; !c.Optional {
			n += c.Size()
		}
	}
	return n
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
