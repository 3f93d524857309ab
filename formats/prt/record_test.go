package prt

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestPutAndAppend(t *testing.T) {
	var h Header
	f16 := h.AddChannel("F16", Float16, 2)
	f32 := h.AddChannel("F32", Float32, 1)
	f64 := h.AddChannel("F64", Float64, 1)
	i8 := h.AddChannel("I8", Int8, 1)
	u8 := h.AddChannel("U8", Uint8, 2)
	i16 := h.AddChannel("I16", Int16, 1)
	u16 := h.AddChannel("U16", Uint16, 1)
	i32 := h.AddChannel("I32", Int32, 1)
	u32 := h.AddChannel("U32", Uint32, 1)
	i64 := h.AddChannel("I64", Int64, 1)
	u64 := h.AddChannel("U64", Uint64, 1)
	rec := make([]byte, h.ParticleSize())
	f16.PutFloat16s(rec, 0.1, -65504)
	f32.PutFloat32s(rec, 0.1)
	f64.PutFloat64s(rec, 0.1)
	i8.PutInt8s(rec, -128)
	u8.PutUint8s(rec, 1, 255)
	i16.PutInt16s(rec, -32768)
	u16.PutUint16s(rec, 65535)
	i32.PutInt32s(rec, math.MinInt32)
	u32.PutUint32s(rec, math.MaxUint32)
	i64.PutInt64s(rec, math.MinInt64)
	u64.PutUint64s(rec, math.MaxUint64)

	if b := rec[:4]; !bytes.Equal(b, []byte{0x66, 0x2e, 0xff, 0xfb}) {
		t.Errorf("float16 bytes % x", b)
	}
	floats := []struct {
		c    Channel
		want []float64
	}{
		{f16, []float64{float64(float32(0.0999755859375)), -65504}},
		{f32, []float64{float64(float32(0.1))}},
		{f64, []float64{0.1}},
	}
	for _, tt := range floats {
		got, err := tt.c.AppendFloat64s(nil, rec)
		if err != nil || !equal(got, tt.want) {
			t.Errorf("%s: AppendFloat64s = %v, %v; want %v", tt.c.Name, got, err, tt.want)
		}
		got32, err := tt.c.AppendFloat32s([]float32{7}, rec)
		if err != nil || len(got32) != 1+len(tt.want) || got32[0] != 7 || got32[1] != float32(tt.want[0]) {
			t.Errorf("%s: AppendFloat32s = %v, %v", tt.c.Name, got32, err)
		}
		if _, err := tt.c.AppendInt64s(nil, rec); err == nil {
			t.Errorf("%s: AppendInt64s succeeded", tt.c.Name)
		}
	}
	ints := []struct {
		c    Channel
		want []int64
	}{
		{i8, []int64{-128}},
		{u8, []int64{1, 255}},
		{i16, []int64{-32768}},
		{u16, []int64{65535}},
		{i32, []int64{math.MinInt32}},
		{u32, []int64{math.MaxUint32}},
		{i64, []int64{math.MinInt64}},
	}
	for _, tt := range ints {
		got, err := tt.c.AppendInt64s(nil, rec)
		if err != nil || !equal(got, tt.want) {
			t.Errorf("%s: AppendInt64s = %v, %v; want %v", tt.c.Name, got, err, tt.want)
		}
		if _, err := tt.c.AppendFloat32s(nil, rec); err == nil {
			t.Errorf("%s: AppendFloat32s succeeded", tt.c.Name)
		}
	}
	if _, err := u64.AppendInt64s(nil, rec); err == nil || !strings.Contains(err.Error(), "does not fit in an int64") {
		t.Errorf("uint64 max: %v", err)
	}
	if _, err := i64.AppendInt64s(nil, rec[:5]); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("short record: %v", err)
	}

	// PutFloats converts to the channel's float type.
	f16.PutFloats(rec, 0.1, 1)
	f32.PutFloats(rec, 1.0/3)
	f64.PutFloats(rec, 1.0/3)
	g16, _ := f16.AppendFloat64s(nil, rec)
	g32, _ := f32.AppendFloat64s(nil, rec)
	g64, _ := f64.AppendFloat64s(nil, rec)
	if g16[0] != float64(float32(0.0999755859375)) || g16[1] != 1 || g32[0] != float64(float32(1.0/3)) || g64[0] != 1.0/3 {
		t.Errorf("PutFloats: %v %v %v", g16, g32, g64)
	}
}

func TestPutPanics(t *testing.T) {
	pos := Channel{Name: "Position", Type: Float32, Arity: 3, Offset: 0}
	id := Channel{Name: "ID", Type: Int64, Arity: 1, Offset: 12}
	rec := make([]byte, 20)
	tests := []struct {
		name string
		f    func()
		want string
	}{
		{"wrong type", func() { pos.PutFloat64s(rec, 1, 2, 3) }, "PutFloat64s on float32 channel Position"},
		{"float16 on float32", func() { pos.PutFloat16s(rec, 1, 2, 3) }, "PutFloat16s on float32 channel Position"},
		{"wrong arity", func() { pos.PutFloat32s(rec, 1, 2) }, "2 values for channel Position of arity 3"},
		{"short record", func() { id.PutInt64s(rec[:16], 1) }, "record of 16 bytes too short"},
		{"PutFloats on int", func() { id.PutFloats(rec, 1) }, "PutFloats on int64 channel ID"},
		{"int32 on int64", func() { id.PutInt32s(rec, 1) }, "PutInt32s on int64 channel ID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.Contains(s, tt.want) {
					t.Errorf("panic %v, want one containing %q", r, tt.want)
				}
			}()
			tt.f()
		})
	}
}
