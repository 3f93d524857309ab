package prt

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"snowtools/formats/half"
)

func TestRoundTripSnowFrame(t *testing.T) {
	const n = 5000
	file, data := writeSnow(t, n)
	f, err := ReadAll(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	h, c := snowHeader(n)
	if !reflect.DeepEqual(f.Header, h) {
		t.Errorf("header read back\n got %+v\nwant %+v", f.Header, h)
	}
	if !bytes.Equal(f.Data, data) {
		t.Fatal("particle data differs")
	}
	if f.Len() != n {
		t.Errorf("Len = %d", f.Len())
	}

	// Typed columns against the records.
	pos, arity, err := f.Float32s("Position")
	if err != nil || arity != 3 || len(pos) != 3*n {
		t.Fatalf("Float32s(Position) = %d values, arity %d, %v", len(pos), arity, err)
	}
	ids, arity, err := f.Int64s("ID")
	if err != nil || arity != 1 || len(ids) != n {
		t.Fatalf("Int64s(ID) = %d values, arity %d, %v", len(ids), arity, err)
	}
	col, arity, err := f.Float32s("Color")
	if err != nil || arity != 3 {
		t.Fatalf("Float32s(Color): arity %d, %v", arity, err)
	}
	dens64, _, err := f.Float64s("Density")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 997 {
		rec := data[i*h.ParticleSize():]
		le := binary.LittleEndian
		for k := range 3 {
			if want := math.Float32frombits(le.Uint32(rec[c.pos.Offset+4*k:])); pos[3*i+k] != want {
				t.Fatalf("Position[%d][%d] = %v, want %v", i, k, pos[3*i+k], want)
			}
			if want := half.ToFloat32(le.Uint16(rec[c.col.Offset+2*k:])); col[3*i+k] != want {
				t.Fatalf("Color[%d][%d] = %v, want %v", i, k, col[3*i+k], want)
			}
		}
		if ids[i] != int64(i)<<33|int64(i) {
			t.Fatalf("ID[%d] = %d", i, ids[i])
		}
		if dens64[i] < 400 || dens64[i] > 450 {
			t.Fatalf("Density[%d] = %v", i, dens64[i])
		}
	}
	if col[2] < 0.9 || col[0] != 1 {
		t.Errorf("Color[0] = %v", col[:3])
	}

	// Metadata lookups convert between numeric types.
	if bb, ok := f.Header.Float64Meta("", MetaBoundBox); !ok || !reflect.DeepEqual(bb, []float64{-1, 0, -1, 1, 2, 1}) {
		t.Errorf("BoundBox = %v, %v", bb, ok)
	}
	if cs, ok := f.Header.Int64Meta("", MetaCoordSys); !ok || len(cs) != 1 || cs[0] != CoordSysRightHandedYUp {
		t.Errorf("CoordSys = %v, %v", cs, ok)
	}
	if fr, ok := f.Header.Float64Meta("", MetaFrameRate); !ok || !reflect.DeepEqual(fr, []float64{24, 1}) {
		t.Errorf("FrameRate = %v, %v", fr, ok)
	}
	if u, ok := f.Header.Float64Meta("", MetaLengthUnitInMeters); !ok || u[0] != 1 {
		t.Errorf("LengthUnitInMeters = %v, %v", u, ok)
	}
	if s, ok := f.Header.StringMeta("", "Source"); !ok || s != "snowsim — frame 0001" {
		t.Errorf("Source = %q, %v", s, ok)
	}
	if in, ok := f.Header.Int64Meta("Position", MetaInterpretation); !ok || in[0] != InterpretationPoint {
		t.Errorf("Position.Interpretation = %v, %v", in, ok)
	}
	if _, ok := f.Header.StringMeta("", MetaCoordSys); ok {
		t.Error("StringMeta of an int32 entry succeeded")
	}
	if _, ok := f.Header.Int64Meta("", MetaBoundBox); ok {
		t.Error("Int64Meta of a float32 entry succeeded")
	}
	if _, ok := f.Header.Float64Meta("", "Missing"); ok {
		t.Error("Float64Meta of a missing entry succeeded")
	}

	// Type errors of the accessors.
	if _, _, err := f.Float32s("ID"); err == nil || !strings.Contains(err.Error(), "ID is int64, not a floating-point type") {
		t.Errorf("Float32s(ID) error = %v", err)
	}
	if _, _, err := f.Int64s("Position"); err == nil || !strings.Contains(err.Error(), "not an integer type") {
		t.Errorf("Int64s(Position) error = %v", err)
	}
	if _, _, err := f.Float32s("Normal"); err == nil || !strings.Contains(err.Error(), `no channel "Normal"`) {
		t.Errorf("Float32s(Normal) error = %v", err)
	}

	// The frame writes itself back identically.
	var again bytes.Buffer
	if _, err := f.WriteTo(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), file) {
		t.Error("Frame.WriteTo does not reproduce the file")
	}
}

// TestReadParticle streams a file one particle at a time, with buffers of
// several sizes, and checks io.EOF comes exactly after Count particles.
func TestReadParticle(t *testing.T) {
	const n = 300
	file, data := writeSnow(t, n)
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if r.Version() != 2 {
		t.Errorf("Version = %d", r.Version())
	}
	h := r.Header()
	size := h.ParticleSize()
	rec := make([]byte, size+3) // larger buffers are fine
	for i := range n {
		if err := r.ReadParticle(rec); err != nil {
			t.Fatalf("particle %d: %v", i, err)
		}
		if !bytes.Equal(rec[:size], data[i*size:(i+1)*size]) {
			t.Fatalf("particle %d differs", i)
		}
	}
	for range 2 {
		if err := r.ReadParticle(rec); err != io.EOF {
			t.Fatalf("after the last particle: %v, want io.EOF", err)
		}
	}
	if err := r.ReadParticle(rec[:size-1]); err == nil {
		t.Error("ReadParticle accepted a short buffer")
	}
}

// v1File builds a PRT 1.0 file by hand: no chunks, header length hlen
// (56, or more with padding), channel entries of entry bytes each.
func v1File(t *testing.T, hlen int, entry int, count int64, particles []byte) []byte {
	t.Helper()
	var b []byte
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(hlen))
	b = append(b, "Extensible Particle Format\x00\x00\x00\x00\x00\x00"...)
	b = binary.LittleEndian.AppendUint32(b, 1)
	b = binary.LittleEndian.AppendUint64(b, uint64(count))
	b = append(b, make([]byte, hlen-56)...)
	b = binary.LittleEndian.AppendUint32(b, 4)
	b = binary.LittleEndian.AppendUint32(b, 2)
	b = binary.LittleEndian.AppendUint32(b, uint32(entry))
	b = append(b, entryBytes("Position", int32(Float32), 3, 0)...)
	b = append(b, make([]byte, entry-entrySize)...)
	b = append(b, entryBytes("Density", int32(Float16), 1, 12)...)
	b = append(b, make([]byte, entry-entrySize)...)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z) // the standard library's zlib, not the writer's
	zw.Write(particles)
	zw.Close()
	return append(b, z.Bytes()...)
}

func TestVersion1(t *testing.T) {
	var recs []byte
	for i := range 4 {
		var rec [14]byte
		pos := Channel{Name: "Position", Type: Float32, Arity: 3, Offset: 0}
		dens := Channel{Name: "Density", Type: Float16, Arity: 1, Offset: 12}
		pos.PutFloat32s(rec[:], float32(i), 0, -float32(i))
		dens.PutFloat16s(rec[:], 0.5*float32(i))
		recs = append(recs, rec[:]...)
	}
	tests := []struct {
		name        string
		hlen, entry int
	}{
		{"plain", 56, 44},
		{"longer header", 64, 44},
		{"longer channel entries", 56, 52},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := v1File(t, tt.hlen, tt.entry, 4, recs)
			r, err := NewReader(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			if r.Version() != 1 || len(r.Header().Meta) != 0 {
				t.Errorf("version %d, %d metadata", r.Version(), len(r.Header().Meta))
			}
			f, err := ReadAll(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			want := []Channel{{"Position", Float32, 3, 0}, {"Density", Float16, 1, 12}}
			if !reflect.DeepEqual(f.Header.Channels, want) || f.Header.Count != 4 {
				t.Fatalf("header %+v", f.Header)
			}
			d, _, err := f.Float32s("Density")
			if err != nil || !float32sEqual(d, []float32{0, 0.5, 1, 1.5}) {
				t.Errorf("Density = %v, %v", d, err)
			}
			p, _, err := f.Float64s("Position")
			if err != nil || p[9] != 3 || p[11] != -3 {
				t.Errorf("Position = %v, %v", p, err)
			}
		})
	}
}

// TestReaderAccepts covers unusual but valid inputs.
func TestReaderAccepts(t *testing.T) {
	file, data := writeSnow(t, 10)
	l := layoutOf(file)
	// insert puts extra bytes into the chunk list before the Stop chunk
	// and fixes the header length.
	insert := func(extra []byte) []byte {
		stop := l.headerLen - 8
		b := append(append(append([]byte{}, file[:stop]...), extra...), file[stop:]...)
		put32(b, offHeaderLen, int32(l.headerLen+len(extra)))
		return b
	}
	chunk := func(typ string, payload []byte) []byte {
		b := append([]byte(typ), 0, 0, 0, 0)
		put32(b, 4, int32(len(payload)))
		return append(b, payload...)
	}
	metaPayload := func(ch, name string, typ int32, val []byte) []byte {
		b := append([]byte(ch+"\x00"+name+"\x00"), 0, 0, 0, 0)
		put32(b, len(b)-4, typ)
		return append(b, val...)
	}
	tests := []struct {
		name  string
		file  []byte
		check func(t *testing.T, f *Frame)
	}{
		{"unknown chunk is skipped", insert(chunk("Xtra", []byte("whatever"))), nil},
		{"empty unknown chunk", insert(chunk("Nada", nil)), nil},
		{"meta of unknown type is skipped", insert(chunk("Meta", metaPayload("", "Future", 42, []byte{1, 2, 3}))),
			func(t *testing.T, f *Frame) {
				if _, ok := f.Header.Lookup("", "Future"); ok {
					t.Error("unknown-type metadata kept")
				}
			}},
		{"Sequoia channel.name metadata", insert(chunk("Meta", metaPayload("", "Velocity.Scale", int32(Float64), make([]byte, 8)))),
			func(t *testing.T, f *Frame) {
				if v, ok := f.Header.Float64Meta("Velocity", "Scale"); !ok || v[0] != 0 {
					t.Errorf("Velocity.Scale = %v, %v", v, ok)
				}
			}},
		{"string without NUL", insert(chunk("Meta", metaPayload("", "Note", -1, []byte("hi")))),
			func(t *testing.T, f *Frame) {
				if s, _ := f.Header.StringMeta("", "Note"); s != "hi" {
					t.Errorf("Note = %q", s)
				}
			}},
		{"later duplicate wins", insert(chunk("Meta", metaPayload("", "CoordSys", int32(Int32), []byte{2, 0, 0, 0}))),
			func(t *testing.T, f *Frame) {
				if v, _ := f.Header.Int64Meta("", "CoordSys"); v[0] != 2 {
					t.Errorf("CoordSys = %v", v)
				}
			}},
		{"bytes after the zlib stream are ignored", append(append([]byte{}, file...), "junk"...), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ReadAll(bytes.NewReader(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(f.Data, data) {
				t.Error("particle data differs")
			}
			if tt.check != nil {
				tt.check(t, f)
			}
		})
	}
}

// TestReaderRejects corrupts a valid file in every way the reader must
// catch and checks that the error is a FormatError saying what is wrong,
// and where.
func TestReaderRejects(t *testing.T) {
	const n = 1000
	file, _ := writeSnow(t, n)
	l := layoutOf(file)
	entry := func(i int) int { return l.entries + entrySize*i }
	tests := []struct {
		name     string
		corrupt  func(b []byte) []byte
		offset   int64 // expected FormatError.Offset; -2 to skip the check
		particle int64 // expected FormatError.Particle; -2 to skip the check
		want     []string
	}{
		{"empty file", func(b []byte) []byte { return nil }, 0, -1, []string{"truncated header", "magic number"}},
		{"wrong magic", func(b []byte) []byte { b[1] = 'p'; return b }, 0, -1, []string{"byte 0: not a PRT file: magic number c0 70 52 54"}},
		{"gzip file", func(b []byte) []byte { copy(b, "\x1f\x8b\x08\x00\x00\x00\x00\x00"); return b }, 0, -1, []string{"not a PRT file"}},
		{"wrong signature", func(b []byte) []byte { b[12] = 'e'; return b }, offSignature, -1, []string{"signature \"extensible Particle Format\""}},
		{"version 3", func(b []byte) []byte { put32(b, offVersion, 3); return b }, offVersion, -1, []string{"unsupported version 3"}},
		{"count -1", func(b []byte) []byte { put64(b, offCount, -1); return b }, offCount, -1,
			[]string{"prt: byte 48: particle count -1: the file was not closed correctly"}},
		{"count -7", func(b []byte) []byte { put64(b, offCount, -7); return b }, offCount, -1, []string{"particle count -7: the file was not closed correctly"}},
		{"header length 40", func(b []byte) []byte { put32(b, offHeaderLen, 40); return b }, offHeaderLen, -1, []string{"header length 40 is less than 56"}},
		{"truncated in fixed header", func(b []byte) []byte { return b[:30] }, 30, -1, []string{"truncated header", "signature"}},
		{"truncated in count", func(b []byte) []byte { return b[:50] }, 50, -1, []string{"truncated header", "particle count"}},
		{"truncated in chunk", func(b []byte) []byte { return b[:70] }, 70, -1, []string{"truncated header", "Meta chunk"}},
		{"truncated in channel table", func(b []byte) []byte { return b[:entry(1)+10] }, int64(entry(1) + 10), -1,
			[]string{"truncated header", "channel table entry 1 of 5"}},
		{"truncated before data", func(b []byte) []byte { return b[:l.data] }, int64(l.data), -1,
			[]string{"no particle data", "declares 1000 particles"}},
		{"reserved 5", func(b []byte) []byte { put32(b, l.headerLen, 5); return b }, int64(l.headerLen), -1, []string{"reserved field is 5, want 4"}},
		{"entry size 43", func(b []byte) []byte { put32(b, l.entrySize, 43); return b }, int64(l.entrySize), -1, []string{"channel entry size 43 is less than 44"}},
		{"channel count 0", func(b []byte) []byte { put32(b, l.chanCount, 0); return b }, int64(l.chanCount), -1, []string{"channel count 0 is not positive"}},
		{"channel count -3", func(b []byte) []byte { put32(b, l.chanCount, -3); return b }, int64(l.chanCount), -1, []string{"channel count -3"}},
		{"huge channel count", func(b []byte) []byte { put32(b, l.chanCount, math.MaxInt32); return b }, int64(l.chanCount), -1,
			[]string{"channel count 2147483647 exceeds the limit of 4096"}},
		{"channel count beyond the table", func(b []byte) []byte { put32(b, l.chanCount, 4000); return b[:l.data] }, int64(l.data), -1,
			[]string{"truncated header: the file ends in channel table entry 5 of 4000"}},
		{"name starting with digit", func(b []byte) []byte { copy(b[entry(0):], "3D"); return b }, int64(entry(0)), -1,
			[]string{"channel 0: bad channel name \"3Dsition\""}},
		{"name with space", func(b []byte) []byte { copy(b[entry(1):], "Velo ity"); return b }, int64(entry(1)), -1, []string{"channel 1", "\"Velo ity\""}},
		{"empty name", func(b []byte) []byte { b[entry(2)] = 0; return b }, int64(entry(2)), -1, []string{"channel 2: bad channel empty name"}},
		{"name not terminated", func(b []byte) []byte { copy(b[entry(0):], strings.Repeat("P", 32)); return b }, int64(entry(0)), -1,
			[]string{"name is not NUL-terminated"}},
		{"duplicate names", func(b []byte) []byte { copy(b[entry(1):], "Position"); return b }, int64(entry(1)), -1,
			[]string{"duplicate channel name Position"}},
		{"unknown type", func(b []byte) []byte { put32(b, entry(2)+32, 11); return b }, int64(entry(2)), -1, []string{"channel Density: unknown data type 11"}},
		{"string type channel", func(b []byte) []byte { put32(b, entry(2)+32, -1); return b }, int64(entry(2)), -1, []string{"unknown data type -1"}},
		{"arity 0", func(b []byte) []byte { put32(b, entry(3)+36, 0); return b }, int64(entry(3)), -1, []string{"channel ID: arity 0 is not positive"}},
		{"arity -1", func(b []byte) []byte { put32(b, entry(3)+36, -1); return b }, int64(entry(3)), -1, []string{"arity -1 is not positive"}},
		{"huge arity", func(b []byte) []byte { put32(b, entry(3)+36, math.MaxInt32); return b }, int64(entry(3)), -1, []string{"particle size limit"}},
		{"negative offset", func(b []byte) []byte { put32(b, entry(3)+40, -8); return b }, int64(entry(3)), -1, []string{"negative offset -8"}},
		{"overlapping offsets", func(b []byte) []byte { put32(b, entry(1)+40, 8); return b }, int64(entry(1)), -1,
			[]string{"channel Velocity float32[3] @8 overlaps channel Position float32[3] @0"}},
		{"missing Stop chunk", func(b []byte) []byte {
			// Version 2 with header length 56: no room for any chunk.
			b = append(b[:56:56], b[l.headerLen:]...)
			put32(b, offHeaderLen, 56)
			return b
		}, 56, -1, []string{"without a Stop chunk"}},
		{"chunk past header length", func(b []byte) []byte { put32(b, 60, 5000); return b }, 60, -1, []string{"chunk \"Meta\" of 5000 bytes runs past the header length"}},
		{"negative chunk length", func(b []byte) []byte { put32(b, 60, -2); return b }, 60, -1, []string{"negative length -2"}},
		{"huge metadata chunk", func(b []byte) []byte {
			put32(b, offHeaderLen, math.MaxInt32)
			put32(b, 60, 1<<30)
			return b
		}, 60, -1, []string{"Meta chunk of 1073741824 bytes exceeds the limit of 1048576"}},
		{"metadata chunk beyond the file", func(b []byte) []byte {
			put32(b, offHeaderLen, math.MaxInt32)
			put32(b, 60, MaxMetaChunk)
			return b
		}, -2, -1, []string{"truncated header", "Meta chunk"}},
		{"metadata value size", func(b []byte) []byte { put32(b, 60, 19); return b }, 64, -1,
			[]string{"Meta chunk BoundBox: 5 value bytes is not a positive multiple of the size of float32"}},
		{"metadata name not terminated", func(b []byte) []byte { put32(b, 60, 5); return b }, 64, -1, []string{"value name is not NUL-terminated"}},
		{"metadata name invalid", func(b []byte) []byte { b[65] = '-'; return b }, 64, -1, []string{`bad metadata name "-oundBox"`}},
		{"huge header length, v1", func(b []byte) []byte {
			put32(b, offVersion, 1)
			put32(b, offHeaderLen, math.MaxInt32)
			return b
		}, -2, -1, []string{"truncated header", "length 2147483647"}},
		{"not zlib", func(b []byte) []byte { b[l.data] = 0x1f; return b }, int64(l.data), -1, []string{"particle data is not a zlib stream"}},
		{"truncated particle data", func(b []byte) []byte { return b[:l.data+(len(b)-l.data)/2] }, -1, -2,
			[]string{"truncated particle data: the file ends inside particle", "of 1000 expected"}},
		{"count larger than the data", func(b []byte) []byte { put64(b, offCount, n+1); return b }, -1, n,
			[]string{"particle 1000: the zlib stream holds only 1000 of the 1001 particles the header declares"}},
		{"count of 2^40", func(b []byte) []byte { put64(b, offCount, 1<<40); return b }, offCount, -1,
			[]string{"particle count 1099511627776 times 42 bytes", "more than the limit of 2147483648"}},
		{"count smaller than the data", func(b []byte) []byte { put64(b, offCount, n-1); return b }, -1, n - 1,
			[]string{"particle 999: trailing data: the zlib stream holds more than the 999 particles"}},
		{"count 0 with data", func(b []byte) []byte { put64(b, offCount, 0); return b }, -1, 0, []string{"trailing data"}},
		{"particle size grown", func(b []byte) []byte { put32(b, entry(4)+36, 4); return b }, -1, -2, []string{"the zlib stream ends inside particle"}},
		{"bad checksum", func(b []byte) []byte { b[len(b)-1] ^= 0xff; return b }, -1, n, []string{"corrupt particle data", "checksum"}},
		{"count overflow", func(b []byte) []byte { put64(b, offCount, math.MaxInt64/8); return b }, offCount, -1, []string{"overflows"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.corrupt(append([]byte{}, file...))
			f, err := ReadAll(bytes.NewReader(b))
			if f != nil {
				t.Error("ReadAll returned a frame with an error")
			}
			fe := wantFormatError(t, err, tt.want...)
			if tt.offset != -2 && fe.Offset != tt.offset {
				t.Errorf("Offset = %d, want %d (%v)", fe.Offset, tt.offset, err)
			}
			if tt.particle != -2 && fe.Particle != tt.particle {
				t.Errorf("Particle = %d, want %d (%v)", fe.Particle, tt.particle, err)
			}
		})
	}
}

func TestTruncatedHeaderIsUnexpectedEOF(t *testing.T) {
	file, _ := writeSnow(t, 1)
	l := layoutOf(file)
	for cut := 0; cut < l.data; cut++ {
		_, err := NewReader(bytes.NewReader(file[:cut]))
		fe := wantFormatError(t, err)
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("cut at %d: %v does not wrap io.ErrUnexpectedEOF", cut, err)
		}
		if fe.Offset < 0 || fe.Offset > int64(cut) {
			t.Fatalf("cut at %d: offset %d", cut, fe.Offset)
		}
	}
}

// errReader returns its error after the bytes of r.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		err = e.err
	}
	return n, err
}

func TestReaderIOErrors(t *testing.T) {
	file, _ := writeSnow(t, 100)
	boom := errors.New("disk on fire")
	for _, cut := range []int{10, 100, len(file) - 10} {
		_, err := ReadAll(&errReader{bytes.NewReader(file[:cut]), boom})
		if !errors.Is(err, boom) {
			t.Errorf("cut at %d: error %v does not wrap the I/O error", cut, err)
		}
	}
}

// TestNoHugeAllocations reads headers that claim huge sizes and checks that
// the reader fails without allocating anything near them.
func TestNoHugeAllocations(t *testing.T) {
	file, _ := writeSnow(t, 10)
	l := layoutOf(file)
	tests := []struct {
		name    string
		corrupt func(b []byte) []byte
	}{
		{"2^40 particles", func(b []byte) []byte { put64(b, offCount, 1<<40); return b }},
		{"2^62 / size particles", func(b []byte) []byte { put64(b, offCount, 1<<62/int64(2*3*4+4+8+6)); return b }},
		{"2^31 channels", func(b []byte) []byte { put32(b, l.chanCount, math.MaxInt32); return b }},
		{"4096 channels", func(b []byte) []byte { put32(b, l.chanCount, MaxChannels); return b }},
		{"huge entry size", func(b []byte) []byte { put32(b, l.entrySize, math.MaxInt32); return b }},
		{"huge header length", func(b []byte) []byte { put32(b, offVersion, 1); put32(b, offHeaderLen, math.MaxInt32); return b }},
		{"1 MiB metadata", func(b []byte) []byte { put32(b, offHeaderLen, math.MaxInt32); put32(b, 60, MaxMetaChunk); return b }},
		{"huge metadata", func(b []byte) []byte {
			put32(b, offHeaderLen, math.MaxInt32)
			put32(b, 60, math.MaxInt32-100)
			return b
		}},
		{"huge unknown chunk", func(b []byte) []byte {
			put32(b, offHeaderLen, math.MaxInt32)
			copy(b[56:], "Huge")
			put32(b, 60, math.MaxInt32-100)
			return b
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.corrupt(append([]byte{}, file...))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := ReadAll(bytes.NewReader(b))
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatal("no error")
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
				t.Errorf("allocated %d bytes before failing with %v", alloc, err)
			}
		})
	}
}
