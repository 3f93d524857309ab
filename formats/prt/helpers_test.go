package prt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// snowChannels is the layout of a realistic snow frame.
type snowChannels struct {
	pos, vel, dens, id, col Channel
}

// snowHeader returns the header of a snow frame of n particles with the
// standard metadata, and its channels.
func snowHeader(n int64) (Header, snowChannels) {
	var h Header
	var c snowChannels
	c.pos = h.AddChannel("Position", Float32, 3)
	c.vel = h.AddChannel("Velocity", Float32, 3)
	c.dens = h.AddChannel("Density", Float32, 1)
	c.id = h.AddChannel("ID", Int64, 1)
	c.col = h.AddChannel("Color", Float16, 3)
	h.Count = n
	h.Meta = []Meta{
		MetaFloat32("", MetaBoundBox, -1, 0, -1, 1, 2, 1),
		MetaInt32("", MetaCoordSys, CoordSysRightHandedYUp),
		MetaFloat64("", MetaLengthUnitInMeters, 1),
		MetaUint32("", MetaFrameRate, 24, 1),
		MetaString("", "Source", "snowsim — frame 0001"),
		MetaInt32("Position", MetaInterpretation, InterpretationPoint),
		MetaInt32("Velocity", MetaInterpretation, InterpretationVector),
	}
	return h, c
}

// snowParticle fills rec with particle i of a deterministic frame.
func snowParticle(c snowChannels, rec []byte, r *rand.Rand, i int) {
	c.pos.PutFloat32s(rec, r.Float32()*2-1, r.Float32()*2, r.Float32()*2-1)
	c.vel.PutFloat32s(rec, 0, -9.81*r.Float32(), 0.1*r.Float32())
	c.dens.PutFloat32s(rec, 400+r.Float32()*50)
	c.id.PutInt64s(rec, int64(i)<<33|int64(i))
	c.col.PutFloat16s(rec, 1, 1, 0.9+0.1*r.Float32())
}

// writeSnow returns a valid PRT file of a snow frame of n particles and the
// particle bytes it holds.
func writeSnow(t testing.TB, n int) (file, data []byte) {
	t.Helper()
	h, c := snowHeader(int64(n))
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, uint64(n)))
	rec := make([]byte, h.ParticleSize())
	for i := range n {
		snowParticle(c, rec, r, i)
		data = append(data, rec...)
		if err := w.WriteParticle(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), data
}

// fileLayout gives the offsets of the parts of a file we wrote.
type fileLayout struct {
	headerLen int // = offset of the reserved field
	chanCount int // offset of the channel count
	entrySize int // offset of the channel entry size
	entries   int // offset of channel entry 0
	data      int // offset of the zlib stream
}

func layoutOf(b []byte) fileLayout {
	hl := int(binary.LittleEndian.Uint32(b[8:]))
	n := int(binary.LittleEndian.Uint32(b[hl+4:]))
	return fileLayout{hl, hl + 4, hl + 8, hl + 12, hl + 12 + entrySize*n}
}

func put32(b []byte, off int, v int32) { binary.LittleEndian.PutUint32(b[off:], uint32(v)) }
func put64(b []byte, off int, v int64) { binary.LittleEndian.PutUint64(b[off:], uint64(v)) }

// entryBytes encodes one channel table entry.
func entryBytes(name string, typ, arity, offset int32) []byte {
	b := make([]byte, entrySize)
	copy(b, name)
	put32(b, 32, typ)
	put32(b, 36, arity)
	put32(b, 40, offset)
	return b
}

// wantFormatError checks that err is a *FormatError whose message contains
// every one of subs, and returns it.
func wantFormatError(t *testing.T, err error, subs ...string) *FormatError {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one containing %q", subs)
	}
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %q (%T) is not a *FormatError", err, err)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
	return fe
}

func float32sEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}
