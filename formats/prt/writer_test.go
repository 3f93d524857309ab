package prt

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"io"
	"strings"
	"testing"
)

// TestHeaderBytes pins the byte layout of a tiny file to the spec,
// computed by hand, and decodes its particle data with the standard
// library's zlib (an implementation independent of the writer's).
func TestHeaderBytes(t *testing.T) {
	var h Header
	pos := h.AddChannel("Position", Float32, 3)
	id := h.AddChannel("ID", Int32, 1)
	h.Count = 2
	h.Meta = []Meta{MetaInt32("", "CoordSys", 1)}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	rec := make([]byte, 16)
	pos.PutFloat32s(rec, 1, 2, 3)
	id.PutInt32s(rec, 7)
	if err := w.WriteParticle(rec); err != nil {
		t.Fatal(err)
	}
	pos.PutFloat32s(rec, -1, 0.5, 0)
	id.PutInt32s(rec, -8)
	if err := w.WriteParticle(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	var want []byte
	add := func(b ...byte) { want = append(want, b...) }
	zeros := func(n int) { want = append(want, make([]byte, n)...) }
	add(0xc0, 'P', 'R', 'T', '\r', '\n', 0x1a, '\n') //   0: magic
	add(90, 0, 0, 0)                                 //   8: header length 56 + 26 (Meta) + 8 (Stop)
	add([]byte("Extensible Particle Format")...)     //  12: signature, 26 bytes
	zeros(6)                                         //      + 6 NULs = 32
	add(2, 0, 0, 0)                                  //  44: version 2 (PRT 1.1)
	add(2, 0, 0, 0, 0, 0, 0, 0)                      //  48: particle count 2
	add('M', 'e', 't', 'a', 18, 0, 0, 0)             //  56: Meta chunk, 18 bytes:
	add(0)                                           //      channel "" (file metadata)
	add([]byte("CoordSys\x00")...)                   //      value name
	add(1, 0, 0, 0)                                  //      type int32
	add(1, 0, 0, 0)                                  //      value 1 (right-handed, Y up)
	add('S', 't', 'o', 'p', 0, 0, 0, 0)              //  82: Stop chunk
	add(4, 0, 0, 0)                                  //  90: reserved = 4
	add(2, 0, 0, 0)                                  //  94: channel count
	add(44, 0, 0, 0)                                 //  98: channel entry size
	add([]byte("Position")...)                       // 102: channel 0 name
	zeros(24)                                        //
	add(4, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0)          //      float32, arity 3, offset 0
	add('I', 'D')                                    // 146: channel 1 name
	zeros(30)                                        //
	add(1, 0, 0, 0, 1, 0, 0, 0, 12, 0, 0, 0)         //      int32, arity 1, offset 12
	//                                                  190: zlib stream

	got := buf.Bytes()
	if len(got) < len(want) || !bytes.Equal(got[:len(want)], want) {
		t.Fatalf("header bytes\n got % x\nwant % x", got[:min(len(got), len(want))], want)
	}
	z := got[len(want):]
	if len(z) < 2 || z[0] != 0x78 || (int(z[0])<<8|int(z[1]))%31 != 0 {
		t.Fatalf("particle data does not start with a zlib header: % x", z[:min(len(z), 2)])
	}
	zr, err := zlib.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	wantData := []byte{
		0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40, 7, 0, 0, 0, // (1,2,3), 7
		0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00, 0x00, 0xf8, 0xff, 0xff, 0xff, // (-1,.5,0), -8
	}
	if !bytes.Equal(data, wantData) {
		t.Errorf("particle data\n got % x\nwant % x", data, wantData)
	}
}

func TestWriterRejectsBadHeaders(t *testing.T) {
	base := func() Header {
		var h Header
		h.AddChannel("Position", Float32, 3)
		h.AddChannel("ID", Int64, 1)
		return h
	}
	tests := []struct {
		name   string
		modify func(h *Header)
		want   string
	}{
		{"negative count", func(h *Header) { h.Count = -1 }, "negative particle count -1"},
		{"no channels", func(h *Header) { h.Channels = nil }, "no channels"},
		{"empty name", func(h *Header) { h.Channels[1].Name = "" }, "empty name"},
		{"name starts with digit", func(h *Header) { h.Channels[1].Name = "1D" }, `"1D" is not of the form`},
		{"name with space", func(h *Header) { h.Channels[1].Name = "I D" }, `"I D" is not of the form`},
		{"name with dot", func(h *Header) { h.Channels[1].Name = "Pos.x" }, "is not of the form"},
		{"name of 32 bytes", func(h *Header) { h.Channels[1].Name = strings.Repeat("A", 32) }, "longer than 31 bytes"},
		{"duplicate name", func(h *Header) { h.Channels[1].Name = "Position" }, "duplicate channel name Position"},
		{"arity 0", func(h *Header) { h.Channels[1].Arity = 0 }, "arity 0 is not positive"},
		{"unknown type", func(h *Header) { h.Channels[1].Type = 11 }, "unknown data type 11"},
		{"string channel", func(h *Header) { h.Channels[1].Type = String }, "unknown data type -1"},
		{"negative offset", func(h *Header) { h.Channels[1].Offset = -4 }, "negative offset"},
		{"overlap", func(h *Header) { h.Channels[1].Offset = 8 }, "overlaps channel Position float32[3] @0"},
		{"overlap out of order", func(h *Header) { h.Channels[0].Offset = 4; h.Channels[1].Offset = 0 }, "overlaps"},
		{"too large", func(h *Header) { h.Channels[1].Arity = 1 << 30 }, "particle size limit"},
		{"count overflows", func(h *Header) { h.Count = 1 << 62 }, "overflow"},
		{"bad meta name", func(h *Header) { h.Meta = []Meta{MetaInt32("", "Coord Sys", 1)} }, `"Coord Sys" is not of the form`},
		{"meta for missing channel", func(h *Header) { h.Meta = []Meta{MetaInt32("Normal", "Interpretation", 3)} }, `missing channel "Normal"`},
		{"bad meta channel name", func(h *Header) { h.Meta = []Meta{MetaInt32("9", "X", 3)} }, "channel name \"9\""},
		{"duplicate meta", func(h *Header) {
			h.Meta = []Meta{MetaInt32("", "CoordSys", 1), MetaInt32("", "CoordSys", 2)}
		}, "duplicate metadata CoordSys"},
		{"empty meta array", func(h *Header) { h.Meta = []Meta{MetaFloat32("", "BoundBox")} }, "0 bytes is not a positive multiple"},
		{"meta bytes not a multiple", func(h *Header) { h.Meta = []Meta{{Name: "X", Type: Float32, Data: []byte{1, 2, 3}}} }, "3 bytes is not a positive multiple of the size of float32"},
		{"meta unknown type", func(h *Header) { h.Meta = []Meta{{Name: "X", Type: 12, Data: []byte{1}}} }, "unknown data type 12"},
		{"meta string with NUL", func(h *Header) { h.Meta = []Meta{MetaString("", "S", "a\x00b")} }, "NUL"},
		{"meta string not UTF-8", func(h *Header) { h.Meta = []Meta{MetaString("", "S", "\xff")} }, "UTF-8"},
		{"meta too large", func(h *Header) { h.Meta = []Meta{MetaString("", "S", strings.Repeat("x", MaxMetaChunk))} }, "limit of a Meta chunk"},
		{"interpretation mismatch", func(h *Header) { h.Meta = []Meta{MetaInt32("ID", "Interpretation", InterpretationVector)} }, "Interpretation 2 needs a float[3] channel, not int64[1]"},
		{"unknown interpretation", func(h *Header) { h.Meta = []Meta{MetaInt32("Position", "Interpretation", 9)} }, "unknown Interpretation 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := base()
			tt.modify(&h)
			var buf bytes.Buffer
			_, err := NewWriter(&buf, h)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewWriter error = %v, want one containing %q", err, tt.want)
			}
			if buf.Len() != 0 {
				t.Errorf("NewWriter wrote %d bytes for an invalid header", buf.Len())
			}
		})
	}
	if h := base(); h.Validate() != nil {
		t.Fatalf("base header invalid: %v", h.Validate())
	}
}

func TestWriterCount(t *testing.T) {
	h, _ := snowHeader(3)
	rec := make([]byte, h.ParticleSize())
	tests := []struct {
		name  string
		write func(w *Writer) error
		want  string // error from Close, "" for none
	}{
		{"exact", func(w *Writer) error {
			for range 3 {
				if err := w.WriteParticle(rec); err != nil {
					return err
				}
			}
			return nil
		}, ""},
		{"bulk", func(w *Writer) error { _, err := w.Write(bytes.Repeat(rec, 3)); return err }, ""},
		{"split records", func(w *Writer) error {
			all := bytes.Repeat(rec, 3)
			for len(all) > 0 {
				n := min(len(all), 7)
				if _, err := w.Write(all[:n]); err != nil {
					return err
				}
				all = all[n:]
			}
			return nil
		}, ""},
		{"too few", func(w *Writer) error { return w.WriteParticle(rec) }, "wrote 1 particles, but the header declares 3"},
		{"partial record", func(w *Writer) error { _, err := w.Write(rec[:5]); return err }, "wrote 0 particles and 5 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w, err := NewWriter(&buf, h)
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.write(w); err != nil {
				t.Fatal(err)
			}
			err = w.Close()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := ReadAll(bytes.NewReader(buf.Bytes())); err != nil {
					t.Fatalf("reading back: %v", err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Close error = %v, want one containing %q", err, tt.want)
			}
			if err2 := w.Close(); err2 != err {
				t.Errorf("second Close = %v, first %v", err2, err)
			}
			if _, err := w.Write(rec); err == nil {
				t.Error("Write after Close succeeded")
			}
		})
	}

	t.Run("too many", func(t *testing.T) {
		w, err := NewWriter(io.Discard, h)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			if err := w.WriteParticle(rec); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.WriteParticle(rec); err == nil || !strings.Contains(err.Error(), "more than the 3 particles") {
			t.Fatalf("fourth WriteParticle error = %v", err)
		}
		if w.Written() != 3 {
			t.Errorf("Written = %d, want 3", w.Written())
		}
	})
	t.Run("wrong record size", func(t *testing.T) {
		w, err := NewWriter(io.Discard, h)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteParticle(rec[1:]); err == nil || !strings.Contains(err.Error(), "particle size is") {
			t.Fatalf("WriteParticle error = %v", err)
		}
	})
}

// failWriter fails after n bytes.
type failWriter struct{ n int }

func (f *failWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, io.ErrShortWrite
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriterPropagatesWriteErrors(t *testing.T) {
	h, _ := snowHeader(0)
	if _, err := NewWriter(&failWriter{n: 10}, h); err != io.ErrShortWrite {
		t.Errorf("NewWriter on failing writer: %v", err)
	}
	hdr, _ := appendHeader(nil, h)
	w, err := NewWriter(&failWriter{n: len(hdr)}, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != io.ErrShortWrite {
		t.Errorf("Close on failing writer: %v", err)
	}
}

func TestZeroParticles(t *testing.T) {
	h, _ := snowHeader(0)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()
	l := layoutOf(file)
	if len(file) <= l.data {
		t.Fatal("no zlib stream after the header")
	}
	zr, err := zlib.NewReader(bytes.NewReader(file[l.data:]))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := io.Copy(io.Discard, zr); n != 0 || err != nil {
		t.Fatalf("empty zlib stream holds %d bytes, err %v", n, err)
	}
	for name, in := range map[string][]byte{"with stream": file, "header only": file[:l.data]} {
		f, err := ReadAll(bytes.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Header.Count != 0 || f.Len() != 0 || len(f.Data) != 0 {
			t.Errorf("%s: count %d, len %d", name, f.Header.Count, f.Len())
		}
		if v, arity, err := f.Float32s("Position"); err != nil || len(v) != 0 || arity != 3 {
			t.Errorf("%s: Float32s = %v, %d, %v", name, v, arity, err)
		}
	}
	if binary.LittleEndian.Uint64(file[offCount:]) != 0 {
		t.Error("count field is not 0")
	}
}
