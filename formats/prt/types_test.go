package prt

import (
	"strings"
	"testing"
)

func TestDataType(t *testing.T) {
	tests := []struct {
		t     DataType
		name  string
		size  int
		float bool
		valid bool
	}{
		{String, "string", 0, false, false},
		{Int16, "int16", 2, false, true},
		{Int32, "int32", 4, false, true},
		{Int64, "int64", 8, false, true},
		{Float16, "float16", 2, true, true},
		{Float32, "float32", 4, true, true},
		{Float64, "float64", 8, true, true},
		{Uint16, "uint16", 2, false, true},
		{Uint32, "uint32", 4, false, true},
		{Uint64, "uint64", 8, false, true},
		{Int8, "int8", 1, false, true},
		{Uint8, "uint8", 1, false, true},
		{11, "DataType(11)", 0, false, false},
		{-2, "DataType(-2)", 0, false, false},
	}
	for i, tt := range tests {
		if i >= 1 && i <= 11 && tt.t != DataType(i-1) {
			t.Errorf("%s = %d, want the file's number %d", tt.name, tt.t, i-1)
		}
		if got := tt.t.String(); got != tt.name {
			t.Errorf("DataType(%d).String() = %q, want %q", int32(tt.t), got, tt.name)
		}
		if got := tt.t.Size(); got != tt.size {
			t.Errorf("%s.Size() = %d, want %d", tt.name, got, tt.size)
		}
		if tt.t.IsFloat() != tt.float || tt.t.Valid() != tt.valid || tt.t.IsInt() != (tt.valid && !tt.float) {
			t.Errorf("%s: IsFloat %v, Valid %v, IsInt %v", tt.name, tt.t.IsFloat(), tt.t.Valid(), tt.t.IsInt())
		}
	}
}

func TestValidName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"Position", true},
		{"_private", true},
		{"Mapping2", true},
		{"a", true},
		{"_", true},
		{strings.Repeat("x", 31), true},
		{strings.Repeat("x", 32), false},
		{"", false},
		{"2Mapping", false},
		{"Pos ition", false},
		{"Pos-x", false},
		{"Position.x", false},
		{"Positión", false},
		{"Pos\x00", false},
	}
	for _, tt := range tests {
		if got := validName(tt.name); got != tt.ok {
			t.Errorf("validName(%q) = %v, want %v", tt.name, got, tt.ok)
		}
		if !tt.ok && nameProblem(tt.name) == "" {
			t.Errorf("nameProblem(%q) is empty", tt.name)
		}
	}
}

func TestChannelAndHeaderHelpers(t *testing.T) {
	var h Header
	a := h.AddChannel("Position", Float32, 3)
	b := h.AddChannel("Color", Float16, 3)
	c := h.AddChannel("ID", Int64, 1)
	if a.Offset != 0 || b.Offset != 12 || c.Offset != 18 || h.ParticleSize() != 26 {
		t.Errorf("offsets %d %d %d, size %d", a.Offset, b.Offset, c.Offset, h.ParticleSize())
	}
	if b.String() != "Color float16[3] @12" || b.Size() != 6 || b.End() != 18 {
		t.Errorf("%v: size %d end %d", b, b.Size(), b.End())
	}
	// ParticleSize is the largest end, whatever the listing order.
	h2 := Header{Channels: []Channel{{"B", Float64, 1, 16}, {"A", Int8, 2, 0}}}
	if h2.ParticleSize() != 24 {
		t.Errorf("ParticleSize = %d, want 24", h2.ParticleSize())
	}
	if got, ok := h.Channel("Color"); !ok || got != b {
		t.Errorf("Channel(Color) = %v, %v", got, ok)
	}
	if _, ok := h.Channel("Normal"); ok {
		t.Error("Channel(Normal) found")
	}

	h.SetMeta(MetaInt32("", MetaCoordSys, 2))
	h.SetMeta(MetaInt32("", MetaCoordSys, 1))
	h.SetMeta(MetaInt32("Position", MetaInterpretation, InterpretationPoint))
	if len(h.Meta) != 2 {
		t.Fatalf("SetMeta did not replace: %v", h.Meta)
	}
	if v, ok := h.Int64Meta("", MetaCoordSys); !ok || v[0] != 1 {
		t.Errorf("CoordSys = %v", v)
	}
	if s := h.Meta[1].String(); s != "Position.Interpretation int32[1]" {
		t.Errorf("Meta.String() = %q", s)
	}
	if s := MetaString("", "Note", "hi").String(); s != `Note string "hi"` {
		t.Errorf("Meta.String() = %q", s)
	}
	cl := h.Clone()
	cl.Channels[0].Name = "X"
	cl.Meta[0].Data[0] = 9
	if h.Channels[0].Name != "Position" || h.Meta[0].Data[0] != 1 {
		t.Error("Clone shares memory")
	}
}

func TestMetaConversions(t *testing.T) {
	tests := []struct {
		m      Meta
		floats []float64
		ints   []int64
	}{
		{MetaFloat32("", "A", 1.5, -2), []float64{1.5, -2}, nil},
		{MetaFloat64("", "A", 0.1), []float64{0.1}, nil},
		{MetaInt32("", "A", -3, 4), []float64{-3, 4}, []int64{-3, 4}},
		{MetaUint32("", "A", 24, 1), []float64{24, 1}, []int64{24, 1}},
		{MetaInt64("", "A", -1<<40), []float64{-1 << 40}, []int64{-1 << 40}},
		{Meta{Name: "A", Type: Int8, Data: []byte{0xff}}, []float64{-1}, []int64{-1}},
		{Meta{Name: "A", Type: Uint8, Data: []byte{0xff}}, []float64{255}, []int64{255}},
		{Meta{Name: "A", Type: Int16, Data: []byte{0xfe, 0xff}}, []float64{-2}, []int64{-2}},
		{Meta{Name: "A", Type: Uint16, Data: []byte{0xfe, 0xff}}, []float64{65534}, []int64{65534}},
		{Meta{Name: "A", Type: Float16, Data: []byte{0x00, 0x3c}}, []float64{1}, nil},
		{Meta{Name: "A", Type: Uint64, Data: []byte{1, 0, 0, 0, 0, 0, 0, 0}}, []float64{1}, []int64{1}},
		{Meta{Name: "A", Type: Uint64, Data: []byte{0, 0, 0, 0, 0, 0, 0, 0x80}}, []float64{1 << 63}, nil},
		{MetaString("", "A", "x"), nil, nil},
	}
	for _, tt := range tests {
		f, fok := tt.m.Float64s()
		if fok != (tt.floats != nil) || !equal(f, tt.floats) {
			t.Errorf("%v.Float64s() = %v, %v; want %v", tt.m, f, fok, tt.floats)
		}
		i, iok := tt.m.Int64s()
		if iok != (tt.ints != nil) || !equal(i, tt.ints) {
			t.Errorf("%v.Int64s() = %v, %v; want %v", tt.m, i, iok, tt.ints)
		}
		s, sok := tt.m.Text()
		if sok != (tt.m.Type == String) || sok && s != "x" {
			t.Errorf("%v.Text() = %q, %v", tt.m, s, sok)
		}
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
