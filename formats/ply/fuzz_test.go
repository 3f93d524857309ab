package ply

import (
	"bytes"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to the reader. It must never panic or
// allocate without bound; every error must be a *FormatError (the input
// is in memory, so there are no I/O errors); streaming must agree with
// ReadAll; and what it accepts must have a header that Validate accepts,
// data that splits into exactly the declared records, and must write back
// in each of the three formats to a file that reads the same (up to NaN
// payloads, which ASCII does not keep).
func FuzzRead(f *testing.F) {
	// Small seeds: the fuzzer's minimization of a new input is quadratic
	// in its length, and stalls the run on inputs of kilobytes.
	tiny := Header{Elements: []Element{
		{Name: "t", Count: 2, Properties: []Property{
			Scalar("c", Char), Scalar("u", Ushort), Scalar("f", Float), Scalar("d", Double),
			List("l", Char, Uint),
		}},
		{Name: "face", Count: 1, Properties: []Property{List("vertex_indices", Uchar, Int)}},
	}}
	tinyRec := func(c, u int64, f, d float64, l ...int64) []byte {
		rec := Char.AppendInt(nil, c)
		rec = Ushort.AppendInt(rec, u)
		rec = Float.AppendFloat(rec, f)
		rec = Double.AppendFloat(rec, d)
		rec = Char.AppendInt(rec, int64(len(l)))
		for _, v := range l {
			rec = Uint.AppendInt(rec, v)
		}
		return rec
	}
	for _, format := range formats {
		f.Add(encode(f, goldenHeader(format), goldenRecords()...))
		tiny.Format = format
		f.Add(encode(f, tiny, [][]byte{tinyRec(-1, 65535, 0.1, math.NaN(), 7), tinyRec(127, 0, float64(math.Inf(-1)), -1e300)}, [][]byte{face(0, 1, 2)}))
	}
	f.Add([]byte(asciiHead + "1 2\n3 4\n3 0 1 2\n"))
	f.Add([]byte(binHead + binBody))
	f.Add([]byte(binHead + binBody[:15]))
	f.Add([]byte("ply\r\nformat ascii 1.0\r\nelement v 2\r\nproperty float64 x\r\nproperty list int8 uint16 l\r\nend_header\r\n-nan 0\r\n1e-310 2 7 65535\r\n\r\n"))
	f.Add([]byte("ply\nformat binary_big_endian 1.0\nelement face 1000000000000\nproperty list uint double vi\nend_header\n\xff\xff\xff\xff\x00"))

	f.Fuzz(checkRead)
}

// checkRead is the body of FuzzRead.
func checkRead(t *testing.T, data []byte) {
	{
		file, err := ReadAll(bytes.NewReader(data))
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
		}

		// Streaming, record by record, must agree with ReadAll.
		var streamed [][]byte
		var serr error
		if r, err := NewReader(bytes.NewReader(data)); err != nil {
			serr = err
		} else {
			streamed = make([][]byte, len(r.h.Elements))
			for {
				e, _ := r.Pos()
				if e == len(streamed) {
					_, err = r.AppendRecord(nil)
				} else {
					streamed[e], err = r.AppendRecord(streamed[e])
				}
				if err != nil {
					if err != io.EOF {
						serr = err
					}
					break
				}
			}
		}
		if (err == nil) != (serr == nil) || (err != nil && err.Error() != serr.Error()) {
			t.Fatalf("ReadAll error %v, streaming error %v", err, serr)
		}
		if err != nil {
			return
		}

		h := file.Header
		if err := h.Validate(); err != nil {
			t.Fatalf("read a header that Validate rejects: %v", err)
		}
		if len(file.Data) != len(h.Elements) {
			t.Fatalf("%d data slices for %d elements", len(file.Data), len(h.Elements))
		}
		for i, e := range h.Elements {
			if !bytes.Equal(file.Data[i], streamed[i]) {
				t.Fatalf("element %s: streamed records differ from ReadAll's", e.Name)
			}
			var n int64
			for b := file.Data[i]; len(b) > 0; n++ {
				l, err := e.RecordLen(b)
				if err != nil {
					t.Fatalf("element %s record %d: %v", e.Name, n, err)
				}
				b = b[l:]
			}
			if n != e.Count {
				t.Fatalf("element %s: %d records, %d declared", e.Name, n, e.Count)
			}
		}

		for _, format := range formats {
			out := &File{Header: h.Clone(), Data: file.Data}
			out.Header.Format = format
			var buf bytes.Buffer
			if _, err := out.WriteTo(&buf); err != nil {
				if format == ASCII && strings.Contains(err.Error(), "MaxLineLength") {
					continue // a long binary list: too long for an ASCII line
				}
				t.Fatalf("writing back as %s: %v", format, err)
			}
			again, err := ReadAll(&buf)
			if err != nil {
				t.Fatalf("reading back %s: %v", format, err)
			}
			if !reflect.DeepEqual(again.Header, out.Header) {
				t.Fatalf("%s: header\n got %+v\nwant %+v", format, again.Header, out.Header)
			}
			for i, e := range h.Elements {
				want := file.Data[i]
				if format == ASCII {
					want = canonical(t, e, want)
				}
				if !bytes.Equal(again.Data[i], want) {
					t.Fatalf("%s: element %s: records differ after writing back", format, e.Name)
				}
			}
		}
	}
}
