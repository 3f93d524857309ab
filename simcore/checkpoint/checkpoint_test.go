package checkpoint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"

	"snowtools/simcore"
)

// Every field comes back bit for bit, across the reader's chunk boundaries, and
// writing the same state twice gives the same bytes.
func TestRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, 7, 5000} {
		st := randomState(n, uint64(n))
		h := Header{Frame: int64(n) + 12}
		for i := range h.Scene {
			h.Scene[i] = byte(i * n)
		}
		file := encode(t, h, &st)
		if again := encode(t, h, &st); !bytes.Equal(file, again) {
			t.Errorf("%d particles: two writes differ", n)
		}
		gh, got, err := Read(bytes.NewReader(file))
		if err != nil {
			t.Fatalf("%d particles: %v", n, err)
		}
		if gh != h {
			t.Errorf("%d particles: header %+v, want %+v", n, gh, h)
		}
		if !bytes.Equal(stateBits(t, &got), stateBits(t, &st)) {
			t.Errorf("%d particles: the state read differs from the one written", n)
		}
		if cap(got.Particles.X) != n || cap(got.Particles.FE) != n {
			t.Errorf("%d particles: columns with spare capacity %d, %d", n, cap(got.Particles.X), cap(got.Particles.FE))
		}
		if hh, err := readHeader(bytes.NewReader(file[:headerSize])); err != nil || hh != h {
			t.Errorf("%d particles: readHeader: %+v, %v", n, hh, err)
		}
	}
}

// Every truncation is an error that says so, with the place; a file cut in the header
// says which byte it ends at.
func TestTruncated(t *testing.T) {
	st := randomState(7, 3)
	file := encode(t, Header{Frame: 1}, &st)
	for n := 0; n < len(file); n++ {
		_, _, err := Read(bytes.NewReader(file[:n]))
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("cut at %d of %d: error %v (%T), want a *FormatError", n, len(file), err, err)
		}
		if n < headerSize && (!fe.Header || fe.Offset != int64(n) || !strings.Contains(err.Error(), "truncated")) {
			t.Errorf("cut at %d: %v", n, err)
		}
	}
}

// Damage anywhere is found (the header has its CRC, the state zstd's checksum) or,
// where a changed byte means nothing, leaves the state as it was: a damaged checkpoint
// never restores a different simulation.
func TestDamage(t *testing.T) {
	st := randomState(7, 4)
	want := stateBits(t, &st)
	file := encode(t, Header{Frame: 1}, &st)
	for i := range file {
		for _, bit := range []byte{1, 0x80} {
			bad := bytes.Clone(file)
			bad[i] ^= bit
			h, got, err := Read(bytes.NewReader(bad))
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("byte %d: error %v (%T), want a *FormatError", i, err, err)
				}
				continue
			}
			if h.Frame != 1 || !bytes.Equal(stateBits(t, &got), want) {
				t.Fatalf("byte %d ^ %#x: read a different state without error", i, bit)
			}
		}
	}
}

func TestHeaderErrors(t *testing.T) {
	st := randomState(2, 5)
	file := encode(t, Header{Frame: 9}, &st)
	cases := []struct {
		off  int
		val  byte
		want string
	}{
		{0, 'X', "byte 0 (magic): not a snowsim checkpoint"},
		{8, 1, "byte 8 (version): format version 1; this program reads version 4"},
		{12, 7, "byte 12 (compression): unknown compression 7"},
		{20, 1, "byte 56 (header checksum): the header is damaged"},
	}
	for _, c := range cases {
		bad := bytes.Clone(file)
		bad[c.off] = c.val
		if _, err := readHeader(bytes.NewReader(bad)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("byte %d = %d: error %v, want %q", c.off, c.val, err, c.want)
		}
	}
}

// The state's own checks: impossible scalars, unknown flags, data after the end.
func TestStateErrors(t *testing.T) {
	st := randomState(2, 6)
	payload := statePayload(t, encode(t, Header{}, &st))
	cases := []struct {
		spoil func(p []byte) []byte
		want  string
	}{
		{func(p []byte) []byte { binary.LittleEndian.PutUint64(p, math.Float64bits(math.NaN())); return p }, "state byte 0 (time)"},
		{func(p []byte) []byte { binary.LittleEndian.PutUint64(p[8:], 1<<63); return p }, "state byte 8 (steps)"},
		{func(p []byte) []byte { binary.LittleEndian.PutUint64(p[24:], math.Float64bits(math.Inf(1))); return p }, "state byte 24 (fastest wave)"},
		{func(p []byte) []byte { p[33] = 1; return p }, "state byte 32 (flags): unknown flags 0x10"},
		{func(p []byte) []byte { binary.LittleEndian.PutUint32(p[36:], 1<<31); return p }, "state byte 36 (particle count)"},
		{func(p []byte) []byte { return append(p, 0) }, "data after the last particle"},
		{func(p []byte) []byte { return p[:len(p)-1] }, "state byte 335 (Rho0 of particle 1): truncated"},
		{func(p []byte) []byte { binary.LittleEndian.PutUint32(p[36:], 3); return p }, "state byte 336 (JP of particle 2): truncated"},
	}
	for _, c := range cases {
		_, _, err := Read(bytes.NewReader(rawFile(t, c.spoil(bytes.Clone(payload)))))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	if _, _, err := Read(bytes.NewReader(rawFile(t, payload))); err != nil {
		t.Errorf("the unspoilt payload: %v", err)
	}
}

// A count of two billion particles over a few bytes of data costs what the data costs,
// not what the count claims, even under a limit that lets the count pass (Read's
// default limit refuses it: TestDecompressionBombs).
func TestHugeCountAllocatesLittle(t *testing.T) {
	payload := make([]byte, stateHead+12)
	binary.LittleEndian.PutUint32(payload[36:], maxParticles)
	file := rawFile(t, payload)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, _, err := ReadLimit(bytes.NewReader(file), 1<<62)
	runtime.ReadMemStats(&after)
	if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "ID of particle 3") {
		t.Errorf("error %v", err)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 32<<20 {
		t.Errorf("allocated %d MB", a>>20)
	}
}

// Write refuses what it cannot store faithfully.
func TestWriteRefuses(t *testing.T) {
	st := randomState(3, 7)
	st.Particles.Mat = st.Particles.Mat[:2]
	if err := Write(io.Discard, Header{}, &st); err == nil {
		t.Error("fields of different lengths written")
	}
	st = randomState(1, 8)
	if err := Write(io.Discard, Header{Frame: -1}, &st); err == nil {
		t.Error("negative frame written")
	}
}

// layouts records the particle columns of each format version, as TestLayoutVersion
// describes them.
var layouts = map[uint32]string{
	1: "ID int32x1, X float64x3, V float64x3, Mass float32x1, Vol0 float32x1, FE float32x9, JP float32x1, " +
		"Mat float32x5, Stress float32x6, Sinter float32x9 optional",
	2: "ID int32x1, X float64x3, V float64x3, Mass float32x1, Vol0 float32x1, FE float32x9, JP float32x1, " +
		"Mat float32x5, Stress float32x6, Sinter float32x9 optional, Affine float32x9 optional, Rho0 float32x1",
	3: "ID int32x1, X float64x3, V float64x3, Mass float32x1, Vol0 float32x1, FE float32x9, JP float32x1, " +
		"Mat float32x5, Stress float32x6, Sinter float32x9 optional, Affine float32x9 optional, Rho0 float32x1, " +
		"Rest float64x3 optional",
	4: "ID int32x1, X float64x3, V float64x3, Mass float32x1, Vol0 float32x1, FE float32x9, JP float32x1, " +
		"Mat float32x5, Stress float32x6, Sinter float32x9 optional, Affine float32x9 optional, Rho0 float32x1, " +
		"Rest float64x3 optional, Quiet float32x1 optional",
}

// The columns follow simcore.Channels, so a change to the table changes the file: then
// version must be raised, so that older files are refused as such rather than misread
// or reported truncated. Raise it, record the new layout above and in doc.go (a channel
// only renamed keeps the bytes: update its name here).
func TestLayoutVersion(t *testing.T) {
	types := map[simcore.Scalar]string{simcore.Int32: "int32", simcore.Float32: "float32", simcore.Float64: "float64"}
	var cols []string
	for _, c := range columns {
		col := fmt.Sprintf("%s %sx%d", c.Name, types[c.Scalar()], c.Arity())
		if c.Optional {
			col += " optional"
		}
		cols = append(cols, col)
	}
	if got := strings.Join(cols, ", "); got != layouts[version] {
		t.Errorf("the particle columns are\n\t%s\nbut those of version %d are\n\t%s", got, version, layouts[version])
	}
}
