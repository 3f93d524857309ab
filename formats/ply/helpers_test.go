package ply

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var formats = []Format{ASCII, BinaryLittleEndian, BinaryBigEndian}

// snowVertex is the vertex element of a snow point cloud: x y z, nx ny nz,
// red green blue, vx vy vz; 39 bytes per record.
func snowVertex(n int64) Element {
	return Element{Name: "vertex", Count: n, Properties: []Property{
		Scalar("x", Float), Scalar("y", Float), Scalar("z", Float),
		Scalar("nx", Float), Scalar("ny", Float), Scalar("nz", Float),
		Scalar("red", Uchar), Scalar("green", Uchar), Scalar("blue", Uchar),
		Scalar("vx", Float), Scalar("vy", Float), Scalar("vz", Float),
	}}
}

// snowRecords returns n deterministic packed vertex records.
func snowRecords(n int) []byte {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	data := make([]byte, 0, n*39)
	for range n {
		for range 3 {
			data = Float.AppendFloat(data, r.Float64()*4-2)
		}
		nx, ny := r.Float64()*2-1, r.Float64()*2-1
		data = Float.AppendFloat(data, nx)
		data = Float.AppendFloat(data, ny)
		data = Float.AppendFloat(data, math.Sqrt(max(0, 1-nx*nx-ny*ny)))
		data = append(data, byte(r.IntN(256)), byte(r.IntN(256)), 255)
		data = Float.AppendFloat(data, r.NormFloat64())
		data = Float.AppendFloat(data, -9.81*r.Float64())
		data = Float.AppendFloat(data, r.NormFloat64()*0.1)
	}
	return data
}

// edgeFloats are values whose text form is easy to get wrong.
var edgeFloats = []float64{
	0, math.Copysign(0, -1), 0.1, -0.1, 1e-30, 1.5e-45, 1e-40, 1e6, 1e7, 123456789,
	math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32, 1.0 / 3,
	math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1),
}

var edgeDoubles = []float64{
	0, math.Copysign(0, -1), 0.1, 1e-30, 1e-300, 5e-324, math.MaxFloat64, -math.MaxFloat64,
	1.0 / 3, 2.0 / 3, 1e21, 1e22, 123456789012345678,
	math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1),
}

// quietNaN32 and quietNaN64 are the NaNs the ASCII reader produces.
const (
	quietNaN32 = 0x7fc00000
	quietNaN64 = 0x7ff8000000000000
)

// allTypes is an element with one property of every type and two lists.
func allTypes(n int64) Element {
	return Element{Name: "all", Count: n, Properties: []Property{
		Scalar("c", Char), Scalar("uc", Uchar), Scalar("s", Short), Scalar("us", Ushort),
		Scalar("i", Int), Scalar("ui", Uint), Scalar("f", Float), Scalar("d", Double),
		List("fl", Ushort, Float), List("dl", Char, Double),
	}}
}

// allRecords returns records of allTypes: the extremes of every integer
// type and the edge floats.
func allRecords() (recs [][]byte) {
	ints := [][6]int64{
		{0, 0, 0, 0, 0, 0},
		{-128, 255, -32768, 65535, math.MinInt32, math.MaxUint32},
		{127, 1, 32767, 1, math.MaxInt32, 1},
		{-1, 128, -1, 32768, -1, 1 << 31},
	}
	types := []Type{Char, Uchar, Short, Ushort, Int, Uint}
	for i := range max(len(edgeFloats), len(edgeDoubles)) {
		var rec []byte
		for k, t := range types {
			rec = t.AppendInt(rec, ints[i%len(ints)][k])
		}
		rec = Float.AppendFloat(rec, edgeFloats[i%len(edgeFloats)])
		rec = Double.AppendFloat(rec, edgeDoubles[i%len(edgeDoubles)])
		rec = Ushort.AppendInt(rec, int64(i))
		for k := range i {
			rec = Float.AppendFloat(rec, edgeFloats[k%len(edgeFloats)])
		}
		rec = Char.AppendInt(rec, int64(i%3))
		for k := range i % 3 {
			rec = Double.AppendFloat(rec, edgeDoubles[(i+k)%len(edgeDoubles)])
		}
		recs = append(recs, rec)
	}
	return recs
}

// face returns a packed record of a vertex_indices list with a uchar
// count.
func face(idx ...int) []byte {
	rec := Uchar.AppendInt(nil, int64(len(idx)))
	for _, i := range idx {
		rec = Int.AppendInt(rec, int64(i))
	}
	return rec
}

// encode writes a file with header h and the records recs[i] of element
// i, record by record.
func encode(t testing.TB, h Header, recs ...[][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, el := range recs {
		for _, rec := range el {
			if err := w.WriteRecord(rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// canonical returns a copy of the packed records data of e in which every
// NaN is the quiet NaN of its sign that the ASCII reader produces, so that
// data read from ASCII and from binary compare equal.
func canonical(t testing.TB, e Element, data []byte) []byte {
	t.Helper()
	out := append([]byte(nil), data...)
	var fields [][]byte
	for b := out; len(b) > 0; {
		n, err := e.RecordLen(b)
		if err != nil {
			t.Fatal(err)
		}
		fields, err = e.Fields(fields[:0], b[:n])
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range e.Properties {
			for f := fields[i]; len(f) > 0; f = f[p.Type.Size():] {
				switch {
				case p.Type == Float && math.IsNaN(Float.Float64(f)):
					sign := uint32(f[3]&0x80) << 24
					copy(f, Uint.AppendInt(nil, int64(quietNaN32|sign)))
				case p.Type == Double && math.IsNaN(Double.Float64(f)):
					sign := uint64(f[7]&0x80) << 56
					u := uint64(quietNaN64) | sign
					for k := range 8 {
						f[k] = byte(u >> (8 * k))
					}
				}
			}
		}
		b = b[n:]
	}
	return out
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
