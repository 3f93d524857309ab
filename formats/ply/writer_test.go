package ply

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// goldenHeader is a small mesh: two coloured vertices and one face.
func goldenHeader(f Format) Header {
	return Header{
		Format:   f,
		Comments: []string{"made by snowtools", ""},
		ObjInfo:  []string{"frame 12"},
		Elements: []Element{
			{Name: "vertex", Count: 2, Properties: []Property{
				Scalar("x", Float), Scalar("y", Float), Scalar("z", Float), Scalar("red", Uchar),
			}},
			{Name: "face", Count: 1, Properties: []Property{List("vertex_indices", Uchar, Int)}},
		},
	}
}

func goldenRecords() [][][]byte {
	v := func(x, y, z float64, red byte) []byte {
		rec := Float.AppendFloat(nil, x)
		rec = Float.AppendFloat(rec, y)
		rec = Float.AppendFloat(rec, z)
		return append(rec, red)
	}
	return [][][]byte{
		{v(0.1, math.Copysign(0, -1), 1e-30, 255), v(1, 2.5, -3, 0)},
		{face(0, 1, 1)},
	}
}

const goldenHeaderText = "ply\n" +
	"format %s 1.0\n" +
	"comment made by snowtools\n" +
	"comment\n" +
	"obj_info frame 12\n" +
	"element vertex 2\n" +
	"property float x\n" +
	"property float y\n" +
	"property float z\n" +
	"property uchar red\n" +
	"element face 1\n" +
	"property list uchar int vertex_indices\n" +
	"end_header\n"

// TestGolden pins every byte of a small file in the three formats, the
// binary values computed by hand.
func TestGolden(t *testing.T) {
	hdr := func(f string) string { return strings.Replace(goldenHeaderText, "%s", f, 1) }
	tests := []struct {
		format Format
		want   string
	}{
		{ASCII, hdr("ascii") +
			"0.1 -0 1e-30 255\n" +
			"1 2.5 -3 0\n" +
			"3 0 1 1\n"},
		{BinaryLittleEndian, hdr("binary_little_endian") +
			"\xcd\xcc\xcc\x3d" + "\x00\x00\x00\x80" + "\x60\x42\xa2\x0d" + "\xff" +
			"\x00\x00\x80\x3f" + "\x00\x00\x20\x40" + "\x00\x00\x40\xc0" + "\x00" +
			"\x03" + "\x00\x00\x00\x00" + "\x01\x00\x00\x00" + "\x01\x00\x00\x00"},
		{BinaryBigEndian, hdr("binary_big_endian") +
			"\x3d\xcc\xcc\xcd" + "\x80\x00\x00\x00" + "\x0d\xa2\x42\x60" + "\xff" +
			"\x3f\x80\x00\x00" + "\x40\x20\x00\x00" + "\xc0\x40\x00\x00" + "\x00" +
			"\x03" + "\x00\x00\x00\x00" + "\x00\x00\x00\x01" + "\x00\x00\x00\x01"},
	}
	for _, tt := range tests {
		t.Run(tt.format.String(), func(t *testing.T) {
			got := encode(t, goldenHeader(tt.format), goldenRecords()...)
			if string(got) != tt.want {
				t.Fatalf("file\n got %q\nwant %q", got, tt.want)
			}
			f, err := ReadAll(bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			recs := goldenRecords()
			if !bytes.Equal(f.Data[0], append(recs[0][0], recs[0][1]...)) || !bytes.Equal(f.Data[1], recs[1][0]) {
				t.Fatalf("read back % x", f.Data)
			}
		})
	}
}

// TestWriteRecords checks that a block write gives the same bytes as
// record by record, for all formats, with and without lists.
func TestWriteRecords(t *testing.T) {
	const n = 3000 // several scratch buffers' worth
	data := snowRecords(n)
	recs := allRecords()
	for _, f := range formats {
		h := Header{Format: f, Elements: []Element{snowVertex(n), allTypes(int64(len(recs)))}}
		var one [][]byte
		for i := range n {
			one = append(one, data[i*39:(i+1)*39])
		}
		want := encode(t, h, one, recs)

		var buf bytes.Buffer
		w, err := NewWriter(&buf, h)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRecords(data[:39*1000]); err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRecords(data[39*1000:]); err != nil {
			t.Fatal(err)
		}
		if e, i := w.Pos(); e != 1 || i != 0 {
			t.Fatalf("Pos = %d, %d after the vertices", e, i)
		}
		if err := w.WriteRecords(bytes.Join(recs, nil)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("%s: WriteRecords wrote different bytes than WriteRecord", f)
		}
	}
}

func TestWriterMisuse(t *testing.T) {
	h := goldenHeader(BinaryLittleEndian)
	recs := goldenRecords()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	wantErr := func(err error, sub string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), sub) {
			t.Errorf("error %v, want one containing %q", err, sub)
		}
	}
	wantErr(w.WriteRecord(recs[0][0][:12]), "record of 12 bytes, element vertex has records of 13")
	wantErr(w.WriteRecords(bytes.Repeat(recs[0][0], 3)), "3 records, but element vertex has 2 left")
	wantErr(w.WriteRecords(recs[0][0][:5]), "5 bytes are not a whole number of 13-byte records")
	if err := w.WriteRecord(recs[0][0]); err != nil {
		t.Fatal(err) // the errors above were not sticky
	}
	if err := w.WriteRecord(recs[0][1]); err != nil {
		t.Fatal(err)
	}
	wantErr(w.WriteRecord(append(face(1, 2), 0)), "holds one record of 9 bytes and more")
	wantErr(w.WriteRecord(face(1, 2)[:8]), "ends inside the list of 2 int items")
	wantErr(w.WriteRecord([]byte{}), "ends inside the item count of property vertex_indices")
	wantErr(w.WriteRecords(append(face(1, 2), face(3)...)), "2 records, but element face has 1 left")
	wantErr(w.WriteRecords(append(face(1, 2), 7)), "face record 1: property vertex_indices: the record ends inside the list of 7 int items")
	wantErr(w.Close(), "Close: records missing: element face has 0 of 1")
	wantErr(w.Close(), "element face has 0 of 1") // the same result again
	wantErr(w.WriteRecord(face(1)), "closed")

	// Negative list counts cannot be written.
	h.Elements[1].Properties[0].CountType = Char
	w, _ = NewWriter(&buf, h)
	w.WriteRecords(bytes.Join(recs[0], nil))
	wantErr(w.WriteRecord([]byte{0xff}), "negative list count -1")
	if err := w.WriteRecord([]byte{0}); err != nil {
		t.Fatal(err)
	}
	wantErr(w.WriteRecord([]byte{0}), "all the records the header declares are written")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	// Close names every element short of records.
	h = Header{Format: ASCII, Elements: []Element{snowVertex(3), {Name: "none"}, allTypes(2)}}
	w, _ = NewWriter(&buf, h)
	w.WriteRecord(snowRecords(1))
	wantErr(w.Close(), "records missing: element vertex has 1 of 3; element all has 0 of 2")
}

func TestASCIILineLimit(t *testing.T) {
	h := Header{Format: ASCII, Elements: []Element{{Name: "l", Count: 2, Properties: []Property{List("v", Uint, Double)}}}}
	long := Uint.AppendInt(nil, 60000)
	for range 60000 {
		long = Double.AppendFloat(long, 1.0/3) // 18 bytes of text each
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRecord(long); err == nil || !strings.Contains(err.Error(), "MaxLineLength") {
		t.Fatalf("error %v, want a line too long", err)
	}
	if err := w.WriteRecords(append(Uint.AppendInt(nil, 0), long...)); err == nil || !strings.Contains(err.Error(), "record 1: line of") {
		t.Fatalf("error %v, want a line too long in record 1", err)
	}
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "has 1 of 2") {
		t.Fatalf("Close: %v", err)
	}
}

func TestValidate(t *testing.T) {
	ok := goldenHeader(ASCII)
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		edit func(h *Header)
		want string
	}{
		{"no format", func(h *Header) { h.Format = 0 }, "invalid format Format(0)"},
		{"newline in comment", func(h *Header) { h.Comments = []string{"a\nb"} }, "control character 0x0a"},
		{"CR in obj_info", func(h *Header) { h.ObjInfo = []string{"a\r"} }, "obj_info \"a\\r\" holds control"},
		{"long comment", func(h *Header) { h.Comments = []string{strings.Repeat("x", 4089)} }, "longer than a header line"},
		{"empty element name", func(h *Header) { h.Elements[0].Name = "" }, "element 0: empty name"},
		{"blank in name", func(h *Header) { h.Elements[1].Name = "my face" }, "holds a blank"},
		{"duplicate element", func(h *Header) { h.Elements[1].Name = "vertex" }, "two elements named \"vertex\""},
		{"negative count", func(h *Header) { h.Elements[0].Count = -1 }, "negative count -1"},
		{"no properties", func(h *Header) { h.Elements[0].Properties = nil }, "2 records but no properties"},
		{"duplicate property", func(h *Header) { h.Elements[0].Properties[1].Name = "x" }, "two properties named \"x\""},
		{"tab in property", func(h *Header) { h.Elements[0].Properties[1].Name = "a\tb" }, "holds a blank"},
		{"bad type", func(h *Header) { h.Elements[0].Properties[0].Type = 9 }, "invalid Type(9)"},
		{"float count", func(h *Header) { h.Elements[1].Properties[0].CountType = Float }, "count type float, want an integer type"},
		{"too many lines", func(h *Header) { h.Comments = make([]string, MaxHeaderLines) }, "more than the limit"},
	}
	for _, tt := range tests {
		h := ok.Clone()
		tt.edit(&h)
		err := h.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
		if _, werr := NewWriter(&bytes.Buffer{}, h); werr == nil || werr.Error() != err.Error() {
			t.Errorf("%s: NewWriter error %v, want %v", tt.name, werr, err)
		}
	}
	// An element without records needs no properties.
	h := Header{Format: ASCII, Elements: []Element{{Name: "empty"}}}
	if got := encode(t, h); string(got) != "ply\nformat ascii 1.0\nelement empty 0\nend_header\n" {
		t.Errorf("got %q", got)
	}
}

// TestWriterIOError checks that an error of the destination is returned,
// unwrapped, and sticks.
func TestWriterIOError(t *testing.T) {
	boom := errors.New("disk full")
	fw := &failWriter{after: 1000, err: boom}
	h := Header{Format: BinaryBigEndian, Elements: []Element{snowVertex(100000)}}
	w, err := NewWriter(fw, h)
	if err != nil {
		t.Fatal(err)
	}
	data := snowRecords(100000)
	err = w.WriteRecords(data)
	if !errors.Is(err, boom) {
		t.Fatalf("WriteRecords error %v, want %v", err, boom)
	}
	if err := w.WriteRecords(data[:39]); !errors.Is(err, boom) {
		t.Fatalf("later error %v", err)
	}
	if err := w.Close(); !errors.Is(err, boom) {
		t.Fatalf("Close error %v", err)
	}
}

type failWriter struct {
	after int
	n     int
	err   error
}

func (w *failWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.after {
		k := max(0, w.after-w.n)
		w.n += k
		return k, w.err
	}
	w.n += len(p)
	return len(p), nil
}

// TestWriteNoAllocs checks that writing records allocates nothing once
// the Writer's buffers exist.
func TestWriteNoAllocs(t *testing.T) {
	data := snowRecords(100)
	faces := face(1, 2, 3)
	for _, f := range formats {
		h := Header{Format: f, Elements: []Element{snowVertex(1 << 40), {Name: "face", Count: 1 << 40,
			Properties: []Property{List("vertex_indices", Uchar, Int)}}}}
		w, err := NewWriter(discard{}, h)
		if err != nil {
			t.Fatal(err)
		}
		w.WriteRecords(data) // warm up the scratch buffer
		allocs := testing.AllocsPerRun(100, func() {
			for i := 0; i < len(data); i += 39 {
				w.WriteRecord(data[i : i+39])
			}
			w.WriteRecords(data)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocations per 200 vertex records", f, allocs)
		}
		w2, _ := NewWriter(discard{}, h)
		w2.n = w2.plans[0].count
		w2.advance()
		w2.WriteRecord(faces)
		allocs = testing.AllocsPerRun(100, func() { w2.WriteRecord(faces) })
		if allocs != 0 {
			t.Errorf("%s: %v allocations per face record", f, allocs)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
