package ply

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// meshHeader has a snow vertex element, an element with every type and
// lists, an empty element and faces.
func meshHeader(f Format, nv int) Header {
	return Header{
		Format:   f,
		Comments: []string{"a mesh", "  indented\ttext "},
		ObjInfo:  []string{"num_cols 1"},
		Elements: []Element{
			snowVertex(int64(nv)),
			allTypes(int64(len(allRecords()))),
			{Name: "nothing", Count: 0},
			{Name: "face", Count: 4, Properties: []Property{List("vertex_indices", Uchar, Int)}},
			{Name: "scalars", Count: int64(len(allRecords())), Properties: allTypes(0).Properties[:8]},
		},
	}
}

func meshRecords(nv int) [][][]byte {
	v := snowRecords(nv)
	var verts [][]byte
	for i := range nv {
		verts = append(verts, v[i*39:(i+1)*39])
	}
	big := make([]int, 255)
	for i := range big {
		big[i] = i * 1000
	}
	var scalars [][]byte
	for _, rec := range allRecords() {
		scalars = append(scalars, rec[:26]) // the scalar properties of allTypes
	}
	return [][][]byte{verts, allRecords(), nil, {face(0, 1, 2), face(), face(3, -2, math.MaxInt32, math.MinInt32), face(big...)}, scalars}
}

// TestRoundTrip writes the same records as ASCII, binary little- and
// big-endian and checks that all three read back to the same packed
// records: exactly for binary, and for ASCII up to the payload of NaNs.
func TestRoundTrip(t *testing.T) {
	const nv = 1000
	recs := meshRecords(nv)
	for _, f := range formats {
		t.Run(f.String(), func(t *testing.T) {
			h := meshHeader(f, nv)
			file := encode(t, h, recs...)
			got, err := ReadAll(bytes.NewReader(file))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Header, h) {
				t.Errorf("header\n got %+v\nwant %+v", got.Header, h)
			}
			for i, e := range h.Elements {
				want := bytes.Join(recs[i], nil)
				data := got.Data[i]
				if f == ASCII {
					want = canonical(t, e, want)
				}
				if !bytes.Equal(data, want) {
					t.Errorf("element %s: data differs:\n got % x\nwant % x", e.Name, data[:min(len(data), 200)], want[:min(len(want), 200)])
				}
			}
			// NaNs keep their sign through ASCII.
			_, all, _ := got.Element("all")
			var fields [][]byte
			e := h.Elements[1]
			for b := all; len(b) > 0; {
				n, _ := e.RecordLen(b)
				fields, _ = e.Fields(fields[:0], b[:n])
				if v := Float.Float64(fields[6]); math.IsNaN(v) {
					u := Uint.Int64(fields[6])
					if u&0x7fffffff != quietNaN32 && f == ASCII {
						t.Errorf("NaN read as %#x", u)
					}
				}
				b = b[n:]
			}
			// Written again, the file is the same byte for byte.
			var again bytes.Buffer
			if _, err := got.WriteTo(&again); err != nil {
				t.Fatal(err)
			}
			if f != ASCII && !bytes.Equal(again.Bytes(), file) {
				t.Error("File.WriteTo wrote a different file")
			}
		})
	}
}

// TestASCIIText checks the text of special and extreme values.
func TestASCIIText(t *testing.T) {
	h := Header{Format: ASCII, Elements: []Element{{Name: "v", Count: 1, Properties: []Property{
		List("f", Uchar, Float), List("d", Uchar, Double), List("i", Uchar, Int), List("c", Uchar, Char),
	}}}}
	rec := Uchar.AppendInt(nil, int64(len(edgeFloats)))
	for _, v := range edgeFloats {
		rec = Float.AppendFloat(rec, v)
	}
	rec = Uchar.AppendInt(rec, int64(len(edgeDoubles)))
	for _, v := range edgeDoubles {
		rec = Double.AppendFloat(rec, v)
	}
	rec = Uchar.AppendInt(rec, 2)
	rec = Int.AppendInt(rec, math.MinInt32)
	rec = Int.AppendInt(rec, math.MaxInt32)
	rec = Uchar.AppendInt(rec, 2)
	rec = Char.AppendInt(rec, -128)
	rec = Char.AppendInt(rec, 127)
	file := encode(t, h, [][]byte{rec})
	_, body, _ := strings.Cut(string(file), "end_header\n")
	want := "18 0 -0 0.1 -0.1 1e-30 1e-45 1e-40 1e+06 1e+07 1.2345679e+08 3.4028235e+38 -3.4028235e+38 1e-45 0.33333334 inf -inf nan -nan " +
		"17 0 -0 0.1 1e-30 1e-300 5e-324 1.7976931348623157e+308 -1.7976931348623157e+308 0.3333333333333333 0.6666666666666666 1e+21 1e+22 1.2345678901234568e+17 inf -inf nan -nan " +
		"2 -2147483648 2147483647 2 -128 127\n"
	if body != want {
		t.Errorf("body\n got %q\nwant %q", body, want)
	}
}

// TestReadLenient checks what the strict reader still accepts: aliases,
// CRLF, tabs and runs of blanks, signs, hex floats, C's spellings of NaN
// and infinity, and blank lines after the last record.
func TestReadLenient(t *testing.T) {
	file := "ply\r\n" +
		"format  ascii\t1.0 \r\n" +
		"comment\r\n" +
		"comment\tsaid  twice \r\n" +
		"element vertex 3\r\n" +
		"property float32 x\r\n" +
		"property float64 y\r\n" +
		"property int8 a\r\n" +
		"property uint8 b\r\n" +
		"property int16 c\r\n" +
		"property uint16 d\r\n" +
		"property int32 e\r\n" +
		"property uint32 f\r\n" +
		"  element face 1\r\n" +
		"property list uint8 int32 vertex_indices\r\n" +
		"end_header\r\n" +
		"  +1.5\t-2 -128 255 -32768 65535 -2147483648 4294967295 \r\n" +
		"0x1p-2 -NaN +0 +1 2 3 4 5\r\n" +
		"INF -Infinity 0 0 0 0 0 0\r\n" +
		"3 0 1 2\r\n" +
		"\r\n \t\n\n"
	f, err := ReadAll(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := Header{Format: ASCII, Comments: []string{"", "said  twice "}, Elements: []Element{
		{Name: "vertex", Count: 3, Properties: []Property{
			Scalar("x", Float), Scalar("y", Double), Scalar("a", Char), Scalar("b", Uchar),
			Scalar("c", Short), Scalar("d", Ushort), Scalar("e", Int), Scalar("f", Uint),
		}},
		{Name: "face", Count: 1, Properties: []Property{List("vertex_indices", Uchar, Int)}},
	}}
	if !reflect.DeepEqual(f.Header, wantHeader) {
		t.Fatalf("header\n got %+v\nwant %+v", f.Header, wantHeader)
	}
	v := f.Header.Elements[0]
	size := v.RecordSize()
	if size != 4+8+1+1+2+2+4+4 || len(f.Data[0]) != 3*size {
		t.Fatalf("record size %d, %d bytes", size, len(f.Data[0]))
	}
	var got []string
	var fields [][]byte
	for r := range 3 {
		fields, _ = v.Fields(fields[:0], f.Data[0][r*size:(r+1)*size])
		for i, p := range v.Properties {
			x := p.Type.Float64(fields[i])
			s := strconv.FormatFloat(x, 'f', -1, 64)
			if math.IsNaN(x) && math.Signbit(x) {
				s = "-NaN"
			}
			got = append(got, s)
		}
	}
	want := "1.5 -2 -128 255 -32768 65535 -2147483648 4294967295 0.25 -NaN 0 1 2 3 4 5 +Inf -Inf 0 0 0 0 0 0"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("values\n got %s\nwant %s", s, want)
	}
	if !bytes.Equal(f.Data[1], face(0, 1, 2)) {
		t.Errorf("face % x", f.Data[1])
	}
}

// TestStreaming reads the mesh record by record, checking Pos, and
// element by element, against ReadAll.
func TestStreaming(t *testing.T) {
	const nv = 300
	recs := meshRecords(nv)
	for _, f := range formats {
		file := encode(t, meshHeader(f, nv), recs...)
		all, err := ReadAll(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}

		r, err := NewReader(iotest.OneByteReader(bytes.NewReader(file)))
		if err != nil {
			t.Fatal(err)
		}
		data := make([][]byte, len(all.Data))
		rec := make([]byte, 39)
		var lastE int
		var lastI int64 = -1
		for {
			e, i := r.Pos()
			if e < lastE || (e == lastE && i != lastI+1) || (e > lastE && i != 0) {
				t.Fatalf("%s: Pos went from %d,%d to %d,%d", f, lastE, lastI, e, i)
			}
			lastE, lastI = e, i
			if e == 0 {
				err = r.ReadRecord(rec)
				data[0] = append(data[0], rec...)
			} else {
				data[min(e, len(data)-1)], err = r.AppendRecord(data[min(e, len(data)-1)])
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if e, _ := r.Pos(); e != len(all.Data) {
			t.Errorf("%s: Pos at the end = %d", f, e)
		}
		if err := r.ReadRecord(rec); err != io.EOF {
			t.Errorf("%s: ReadRecord after the end: %v", f, err)
		}
		for i := range data {
			if !bytes.Equal(data[i], all.Data[i]) {
				t.Errorf("%s: element %d streamed differs from ReadAll", f, i)
			}
		}

		// ReadElement appends to what the caller gives.
		r, _ = NewReader(bytes.NewReader(file))
		prefix := []byte("keep")
		got, err := r.ReadElement(prefix)
		if err != nil || string(got[:4]) != "keep" || !bytes.Equal(got[4:], all.Data[0]) {
			t.Errorf("%s: ReadElement with a prefix: %v", f, err)
		}
		if e, i := r.Pos(); e != 1 || i != 0 {
			t.Errorf("%s: Pos after ReadElement = %d,%d", f, e, i)
		}
	}
}

func TestReadMisuse(t *testing.T) {
	file := encode(t, goldenHeader(BinaryLittleEndian), goldenRecords()...)
	r, err := NewReader(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.ReadRecord(make([]byte, 12)); err == nil || !strings.Contains(err.Error(), "record of 12 bytes, element vertex has records of 13") {
		t.Errorf("short record: %v", err)
	}
	rec := make([]byte, 20)
	if err := r.ReadRecord(rec); err != nil {
		t.Fatal(err) // the misuse was not sticky
	}
	if err := r.ReadRecord(rec); err != nil {
		t.Fatal(err)
	}
	if err := r.ReadRecord(rec); err == nil || !strings.Contains(err.Error(), "list properties; use AppendRecord") {
		t.Errorf("list element: %v", err)
	}
}

// Headers of the malformed-input table.
const (
	asciiHead = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty uchar r\n" +
		"element face 1\nproperty list uchar int vi\nend_header\n" // 8 lines
	binHead = "ply\nformat binary_little_endian 1.0\nelement vertex 2\nproperty float x\nproperty uchar r\n" +
		"element face 1\nproperty list char int vi\nend_header\n"
)

// binBody is a valid body for binHead: two vertices and a triangle.
const binBody = "\x00\x00\x80\x3f\x01" + "\x00\x00\x00\x40\x02" + "\x03" + "\x00\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00"

func TestMalformed(t *testing.T) {
	at := func(n int) string { return "byte " + strconv.Itoa(len(binHead)+n) + ": " }
	tests := []struct {
		name  string
		input string
		want  []string
		eof   bool // errors.Is(err, io.ErrUnexpectedEOF)
	}{
		// The header.
		{"empty", "", []string{"line 1: the file ends in the header"}, true},
		{"only ply", "ply", []string{"line 1: the file ends in the header"}, true},
		{"not ply", "PLY\nformat ascii 1.0\n", []string{"line 1: not a PLY file: it starts with \"PLY\\nf\", not \"ply\\n\""}, false},
		{"ply and blank", "ply \nformat ascii 1.0\n", []string{"line 1: not a PLY file"}, false},
		{"binary garbage", "\x89PNG\r\n\x1a\n", []string{"line 1: not a PLY file"}, false},
		{"no format", "ply\ncomment x\nformat ascii 1.0\nend_header\n", []string{"line 2: the second line must be the format line"}, false},
		{"format words", "ply\nformat ascii\nend_header\n", []string{"line 2: format line \"format ascii\""}, false},
		{"unknown format", "ply\nformat binary 1.0\nend_header\n", []string{"line 2: unknown format \"binary\""}, false},
		{"version", "ply\nformat ascii 1.1\nend_header\n", []string{"line 2: unsupported version \"1.1\" (want 1.0)"}, false},
		{"no end_header", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n", []string{"line 5: the file ends in the header, before end_header"}, true},
		{"unterminated end_header", "ply\nformat ascii 1.0\nend_header", []string{"line 3: the file ends in the header"}, true},
		{"unknown keyword", "ply\nformat ascii 1.0\nelemnt vertex 1\nend_header\n", []string{"line 3: unknown keyword \"elemnt\""}, false},
		{"second format", "ply\nformat ascii 1.0\nformat ascii 1.0\nend_header\n", []string{"line 3: a second format line"}, false},
		{"second ply", "ply\nformat ascii 1.0\nply\nend_header\n", []string{"line 3: a second \"ply\" line"}, false},
		{"empty line", "ply\nformat ascii 1.0\n\nend_header\n", []string{"line 3: empty header line"}, false},
		{"property first", "ply\nformat ascii 1.0\nproperty float x\nend_header\n", []string{"line 3: property line before the first element"}, false},
		{"negative count", "ply\nformat ascii 1.0\nelement vertex -1\nend_header\n", []string{"line 3: element vertex: count \"-1\" is not a non-negative integer"}, false},
		{"float count", "ply\nformat ascii 1.0\nelement vertex 1e3\nend_header\n", []string{"line 3: element vertex: count \"1e3\""}, false},
		{"huge count", "ply\nformat ascii 1.0\nelement vertex 99999999999999999999\nend_header\n", []string{"line 3: element vertex: count"}, false},
		{"element words", "ply\nformat ascii 1.0\nelement vertex\nend_header\n", []string{"line 3: element line \"element vertex\""}, false},
		{"duplicate element", "ply\nformat ascii 1.0\nelement v 0\nelement v 0\nend_header\n", []string{"line 4: a second element named \"v\""}, false},
		{"duplicate property", "ply\nformat ascii 1.0\nelement v 0\nproperty float x\nproperty int x\nend_header\n", []string{"line 5: element v: two properties named \"x\""}, false},
		{"unknown type", "ply\nformat ascii 1.0\nelement v 0\nproperty float16 x\nend_header\n", []string{"line 4: element v: type \"float16\" is not one of char uchar"}, false},
		{"float list count", "ply\nformat ascii 1.0\nelement f 0\nproperty list float int vi\nend_header\n", []string{"line 4: element f: list vi has count type float, want an integer type"}, false},
		{"bad item type", "ply\nformat ascii 1.0\nelement f 0\nproperty list uchar integer vi\nend_header\n", []string{"line 4: element f: list item type \"integer\""}, false},
		{"list words", "ply\nformat ascii 1.0\nelement f 0\nproperty list uchar int\nend_header\n", []string{"line 4: element f: list property line with 4 words"}, false},
		{"property words", "ply\nformat ascii 1.0\nelement v 0\nproperty float x y\nend_header\n", []string{"line 4: element v: property line with 4 words"}, false},
		{"no properties", "ply\nformat ascii 1.0\nelement v 2\nelement w 0\nend_header\n", []string{"line 3: element v: 2 records but no properties"}, false},
		{"no properties at end", "ply\nformat ascii 1.0\ncomment\nelement v 2\nend_header\n", []string{"line 4: element v: 2 records but no properties"}, false},
		{"end_header words", "ply\nformat ascii 1.0\nend_header now\n", []string{"line 3: end_header line \"end_header now\" has more words"}, false},
		{"NUL in header", "ply\nformat ascii 1.0\ncomment a\x00b\nend_header\n", []string{"line 3: control character 0x00"}, false},
		{"lone CR", "ply\nformat ascii 1.0\rend_header\r\n", []string{"line 2: control character 0x0d"}, false},
		{"long line", "ply\nformat ascii 1.0\ncomment " + strings.Repeat("x", 5000) + "\nend_header\n", []string{"line 3: header line of 5008 bytes is longer than the limit of 4096"}, false},
		{"very long line", "ply\nformat ascii 1.0\ncomment " + strings.Repeat("x", 100000), []string{"line 3: header line longer than 4096 bytes"}, false},
		{"too many lines", "ply\nformat ascii 1.0\n" + strings.Repeat("comment\n", MaxHeaderLines) + "end_header\n", []string{"line 10001: more than 10000 header lines"}, false},

		// ASCII bodies.
		{"too few records", asciiHead + "1 2\n", []string{"line 10: element vertex record 1: the file ends after 1 of the 2 records"}, true},
		{"no face", asciiHead + "1 2\n3 4\n", []string{"line 11: element face record 0: the file ends after 0 of the 1 records"}, true},
		{"uchar 256", asciiHead + "1 256\n", []string{"line 9: element vertex record 0: property r: value \"256\" is out of range for uchar (0..255)"}, false},
		{"uchar -1", asciiHead + "1 2\n1 -1\n", []string{"line 10: element vertex record 1: property r: value \"-1\" is out of range for uchar"}, false},
		{"int too big for int64", asciiHead + "1 99999999999999999999\n", []string{"line 9:", "out of range for uchar"}, false},
		{"fraction for int", asciiHead + "1 2.0\n", []string{"line 9:", "property r: \"2.0\" is not a decimal integer (the type is uchar)"}, false},
		{"float overflow", asciiHead + "1e39 2\n", []string{"line 9:", "property x: value \"1e39\" is out of range for float", "value out of range"}, false},
		{"not a number", asciiHead + "abc 2\n", []string{"line 9:", "property x: \"abc\" is not a number"}, false},
		{"underscore", asciiHead + "1_0 2\n", []string{"line 9:", "\"1_0\" is not a number"}, false},
		{"NUL in value", asciiHead + "1\x00 2\n", []string{"line 9:", "is not a number"}, false},
		{"too few values", asciiHead + "1\n", []string{"line 9: element vertex record 0: 1 values on the line, but vertex has 2 properties: r is missing"}, false},
		{"blank line", asciiHead + "1 2\n\n", []string{"line 10: element vertex record 1: 0 values on the line"}, false},
		{"too many values", asciiHead + "1 2 3\n", []string{"line 9: element vertex record 0: more values on the line than the 2", "starting with \"3\""}, false},
		{"two records on a line", asciiHead + "1 2 3 4\n", []string{"line 9:", "more values"}, false},
		{"short list", asciiHead + "1 2\n3 4\n3 0 1\n", []string{"line 11: element face record 0: list vi declares 3 items, the line holds 2"}, false},
		{"long list", asciiHead + "1 2\n3 4\n2 0 1 2\n", []string{"line 11: element face record 0: more values on the line than the 3"}, false},
		{"negative count", asciiHead + "1 2\n3 4\n-1\n", []string{"line 11:", "item count of list vi: value \"-1\" is out of range for uchar"}, false},
		{"no count", asciiHead + "1 2\n3 4\n \n", []string{"line 11:", "the item count of list vi is missing"}, false},
		{"bad item", asciiHead + "1 2\n3 4\n3 0 1 2.5\n", []string{"line 11:", "list vi item 2: \"2.5\" is not a decimal integer"}, false},
		{"trailing data", asciiHead + "1 2\n3 4\n3 0 1 2\n\n  x\n", []string{"line 13: data after the last record of the last element: \"x\\n\""}, false},
		{"ASCII line too long", asciiHead + strings.Repeat(" ", MaxLineLength+10) + "\n", []string{"line 9: element vertex record 0: line of 1048586 bytes is longer than the limit of 1048576 bytes"}, false},
		{"ASCII without line breaks", asciiHead + strings.Repeat(" ", 3*MaxLineLength), []string{"line 9: element vertex record 0: line of over ", " bytes is longer than the limit of 1048576 bytes"}, false},

		// Binary bodies.
		{"binary empty body", binHead, []string{at(0) + "element vertex record 0: the file ends after 0 of the 2 records"}, true},
		{"binary inside record", binHead + binBody[:7], []string{at(7) + "element vertex record 1: the file ends inside the record (of 2 declared)"}, true},
		{"binary at record end", binHead + binBody[:10], []string{at(10) + "element face record 0: the file ends after 0 of the 1 records"}, true},
		{"binary inside list", binHead + binBody[:15], []string{at(15) + "element face record 0: the file ends inside the record"}, true},
		{"binary negative count", binHead + binBody[:10] + "\xfe", []string{at(10) + "element face record 0: list vi has a negative item count -2"}, false},
		{"binary trailing byte", binHead + binBody + "\n", []string{at(len(binBody)) + "data after the last record of the last element"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAll(strings.NewReader(tt.input))
			wantFormatError(t, err, tt.want...)
			if errors.Is(err, io.ErrUnexpectedEOF) != tt.eof {
				t.Errorf("errors.Is(%v, io.ErrUnexpectedEOF) = %v", err, !tt.eof)
			}
		})
	}
	// The valid versions of the bodies above read.
	for _, in := range []string{asciiHead + "1 2\n3 4\n3 0 1 2", binHead + binBody} {
		if _, err := ReadAll(strings.NewReader(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// TestHugeCount reads headers that declare far more records than the
// file holds, and checks that the reader fails without allocating for
// them.
func TestHugeCount(t *testing.T) {
	inputs := map[string]string{
		"binary":      "ply\nformat binary_little_endian 1.0\nelement vertex 1000000000000\nproperty double x\nend_header\n" + strings.Repeat("\x00", 100),
		"big-endian":  "ply\nformat binary_big_endian 1.0\nelement vertex 1000000000000\nproperty double x\nproperty double y\nend_header\n" + strings.Repeat("\x00", 100),
		"ascii":       "ply\nformat ascii 1.0\nelement vertex 1000000000000\nproperty double x\nend_header\n1\n2\n3\n",
		"binary list": "ply\nformat binary_little_endian 1.0\nelement face 1000000000000\nproperty list uint double vi\nend_header\n\xff\xff\xff\xff" + strings.Repeat("\x00", 96),
		"ascii list":  "ply\nformat ascii 1.0\nelement face 1000000000000\nproperty list uint double vi\nend_header\n4294967295 1 2 3\n",
		"max count":   "ply\nformat binary_little_endian 1.0\nelement vertex 9223372036854775807\nproperty double x\nend_header\n",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := ReadAll(strings.NewReader(in))
			runtime.ReadMemStats(&after)
			wantFormatError(t, err)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("ReadAll allocated %d bytes", alloc)
			}
		})
	}
}

// TestIOError checks that errors of the underlying reader are returned
// wrapped, not as FormatErrors.
func TestIOError(t *testing.T) {
	boom := errors.New("network down")
	for _, f := range formats {
		file := encode(t, meshHeader(f, 1000), meshRecords(1000)...)
		for _, n := range []int{10, 300, len(file) / 2} {
			r := io.MultiReader(bytes.NewReader(file[:n]), iotest.ErrReader(boom))
			_, err := ReadAll(r)
			var fe *FormatError
			if !errors.Is(err, boom) || errors.As(err, &fe) {
				t.Errorf("%s, after %d bytes: error %v (%T)", f, n, err, err)
			}
		}
	}
}

// TestReadFile reads from an *os.File, which tells its size, from the
// start and from the middle.
func TestReadFile(t *testing.T) {
	const nv = 20000
	recs := meshRecords(nv)
	for _, f := range formats {
		file := encode(t, meshHeader(f, nv), recs...)
		want, err := ReadAll(bytes.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(t.TempDir(), "mesh.ply")
		if err := os.WriteFile(name, append([]byte("junk"), file...), 0o644); err != nil {
			t.Fatal(err)
		}
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		if size := sourceSize(fh); size != int64(len(file)+4) {
			t.Errorf("sourceSize = %d, want %d", size, len(file)+4)
		}
		fh.Seek(4, io.SeekStart)
		if size := sourceSize(fh); size != int64(len(file)) {
			t.Errorf("sourceSize after Seek = %d, want %d", size, len(file))
		}
		got, err := ReadAll(fh)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read from a file differs", f)
		}
	}
	if size := sourceSize(iotest.OneByteReader(strings.NewReader("ply"))); size != -1 {
		t.Errorf("sourceSize of an unknown reader = %d", size)
	}
}

// TestLayoutHelpers checks the Element and Type helpers.
func TestLayoutHelpers(t *testing.T) {
	e := Element{Name: "e", Properties: []Property{
		Scalar("a", Short), Scalar("b", Double), List("l", Uint, Short), Scalar("c", Float),
	}}
	if e.RecordSize() != -1 || !e.HasList() || snowVertex(1).HasList() || snowVertex(1).RecordSize() != 39 {
		t.Error("RecordSize or HasList wrong")
	}
	if e.Index("l") != 2 || e.Index("zz") != -1 {
		t.Error("Index wrong")
	}
	if e.Offset("a") != 0 || e.Offset("b") != 2 || e.Offset("l") != -1 || e.Offset("c") != -1 || e.Offset("zz") != -1 {
		t.Error("Offset wrong")
	}
	if snowVertex(1).Offset("red") != 24 || snowVertex(1).Offset("vz") != 35 {
		t.Error("Offset of the snow vertex wrong")
	}
	rec := Short.AppendInt(nil, -5)
	rec = Double.AppendInt(rec, 1<<53+1) // rounds
	rec = Uint.AppendInt(rec, 2)
	rec = Short.AppendFloat(rec, -7.9) // truncates
	rec = Short.AppendFloat(rec, 300)
	rec = Float.AppendInt(rec, 16777217) // rounds
	n, err := e.RecordLen(append(rec, 1, 2, 3))
	if err != nil || n != len(rec) {
		t.Fatalf("RecordLen = %d, %v; want %d", n, err, len(rec))
	}
	f, err := e.Fields(nil, rec)
	if err != nil || len(f) != 4 || len(f[2]) != 4 {
		t.Fatalf("Fields = %v, %v", f, err)
	}
	got := []float64{Short.Float64(f[0]), Double.Float64(f[1]), Short.Float64(f[2]), Short.Float64(f[2][2:]), Float.Float64(f[3])}
	want := []float64{-5, 1 << 53, -7, 300, 16777216}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("values %v, want %v", got, want)
	}
	if Double.Int64(f[1]) != 1<<53 || Float.Int64(Float.AppendFloat(nil, -2.5)) != -2 || Uint.Int64(Uint.AppendFloat(nil, 4e9)) != 4e9 {
		t.Error("Int64 wrong")
	}
	if _, err := e.RecordLen(rec[:11]); err == nil || !strings.Contains(err.Error(), "element e: the record ends inside the item count of property l") {
		t.Errorf("RecordLen of a short record: %v", err)
	}
	if _, err := e.Fields(nil, rec[:len(rec)-1]); err == nil || !strings.Contains(err.Error(), "the record ends inside property c") {
		t.Errorf("Fields of a short record: %v", err)
	}
	if Type(0).Size() != 0 || Type(9).String() != "Type(9)" || Format(4).String() != "Format(4)" || Uint.String() != "uint" {
		t.Error("invalid types and formats")
	}
	if !Char.IsInt() || Float.IsInt() || !Double.IsFloat() || Type(0).IsInt() {
		t.Error("IsInt or IsFloat wrong")
	}
	if s := e.Properties[2].String(); s != "list uint short l" {
		t.Errorf("Property.String = %q", s)
	}
}

func TestFileWriteTo(t *testing.T) {
	file := encode(t, goldenHeader(ASCII), goldenRecords()...)
	f, err := ReadAll(bytes.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := f.Element("edge"); ok {
		t.Error("Element(edge) found")
	}
	var buf bytes.Buffer
	n, err := f.WriteTo(&buf)
	if err != nil || n != int64(len(file)) || !bytes.Equal(buf.Bytes(), file) {
		t.Fatalf("WriteTo = %d, %v", n, err)
	}
	f.Data[0] = f.Data[0][:13]
	if _, err := f.WriteTo(&buf); err == nil || !strings.Contains(err.Error(), "the data of element vertex holds 1 of its 2 records") {
		t.Errorf("WriteTo of short data: %v", err)
	}
	f.Data = f.Data[:1]
	f.Data[0] = f.Data[0][:0]
	if _, err := f.WriteTo(&buf); err == nil || !strings.Contains(err.Error(), "element vertex holds 0 of its 2") {
		t.Errorf("WriteTo of missing data: %v", err)
	}
}
