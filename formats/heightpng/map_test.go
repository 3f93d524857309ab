package heightpng

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestQuantizeRounding(t *testing.T) {
	m := &Map{Width: 9, Height: 1}
	heights := []float64{-3, 0, 1.4, 1.5, 2.5, 65534.5, 65535, 1e9, 0.49999999}
	if err := m.Quantize(heights, 0, 65535); err != nil {
		t.Fatal(err)
	}
	want := []uint16{0, 0, 1, 2, 3, 65535, 65535, 65535, 0}
	if !slices.Equal(m.Samples, want) {
		t.Errorf("samples %v, want %v", m.Samples, want)
	}
	if m.Low != 0 || m.High != 65535 {
		t.Errorf("range %v..%v", m.Low, m.High)
	}

	// Every height comes back within half a step.
	m = &Map{Width: 1000, Height: 3}
	h := make([]float64, 3000)
	for i := range h {
		h[i] = math.Sin(float64(i)*0.37)*2.5 + 1
	}
	if err := m.QuantizeFit(h); err != nil {
		t.Fatal(err)
	}
	step := (m.High - m.Low) / 65535
	for i, s := range m.Samples {
		if d := math.Abs(m.SampleHeight(s) - h[i]); d > step/2*(1+1e-9) {
			t.Fatalf("height %d: %v comes back as %v, %v steps away", i, h[i], m.SampleHeight(s), d/step)
		}
	}
	if slices.Min(m.Samples) != 0 || slices.Max(m.Samples) != 65535 {
		t.Error("QuantizeFit does not use the full range")
	}
	if m.Low != slices.Min(h) || m.High != slices.Max(h) {
		t.Errorf("range %v..%v, want the extremes", m.Low, m.High)
	}
}

func TestQuantizeFlat(t *testing.T) {
	m := &Map{Width: 2, Height: 2, Cell: 0.1, Samples: make([]uint16, 0, 10)}
	spare := m.Samples[:1]
	if err := m.QuantizeFit([]float64{0.75, 0.75, 0.75, 0.75}); err != nil {
		t.Fatal(err)
	}
	if m.Low != 0.75 || m.High != 0.75 || !slices.Equal(m.Samples, []uint16{0, 0, 0, 0}) {
		t.Errorf("flat map: %+v", *m)
	}
	if &spare[0] != &m.Samples[0] {
		t.Error("Samples not reused")
	}
	got := mustRead(t, mustWrite(t, m))
	for r := range 2 {
		for c := range 2 {
			if got.HeightAt(c, r) != 0.75 {
				t.Errorf("height (%d, %d) = %v", c, r, got.HeightAt(c, r))
			}
		}
	}
}

func TestQuantizeErrors(t *testing.T) {
	cases := []struct {
		m       Map
		heights []float64
		lo, hi  float64
		want    string
	}{
		{Map{Width: 2, Height: 1}, []float64{1}, 0, 1, "1 heights for a 2x1 map"},
		{Map{Width: 0, Height: 1}, nil, 0, 1, "each side must be"},
		{Map{Width: MaxSide + 1, Height: 1}, nil, 0, 1, "each side must be"},
		{Map{Width: 2, Height: 1}, []float64{1, math.NaN()}, 0, 1, "height 1 (sample 1, 0) is NaN"},
		{Map{Width: 1, Height: 2}, []float64{1, math.Inf(-1)}, 0, 1, "height 1 (sample 0, 1) is -Inf"},
		{Map{Width: 1, Height: 1}, []float64{1}, 1, 0, "below low"},
		{Map{Width: 1, Height: 1}, []float64{1}, math.NaN(), 0, "not finite"},
		{Map{Width: 1, Height: 1}, []float64{1}, -math.MaxFloat64, math.MaxFloat64, "too large"},
	}
	for _, c := range cases {
		m := c.m
		if err := m.Quantize(c.heights, c.lo, c.hi); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v in %v..%v: error %v, want %q", c.heights, c.lo, c.hi, err, c.want)
		}
		if m.Samples != nil || m.Low != 0 || m.High != 0 {
			t.Errorf("%v: failed Quantize changed the map", c.heights)
		}
	}
	m := &Map{Width: 2, Height: 1}
	if err := m.QuantizeFit([]float64{1, math.NaN()}); err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("QuantizeFit of NaN: %v", err)
	}
	if err := m.QuantizeFit(nil); err == nil {
		t.Error("QuantizeFit of nothing: no error")
	}
}

func TestAccessors(t *testing.T) {
	m := &Map{Width: 3, Height: 2, Samples: []uint16{0, 1, 2, 65535, 4, 5}, OriginX: 10, OriginZ: -2, Cell: 0.5, Low: -1, High: 65534}
	if h := m.HeightAt(0, 1); h != 65534 {
		t.Errorf("HeightAt(0, 1) = %v", h)
	}
	if h := m.HeightAt(2, 0); h != 1 {
		t.Errorf("HeightAt(2, 0) = %v", h)
	}
	if x, z := m.XZ(2, 1); x != 11 || z != -1.5 {
		t.Errorf("XZ(2, 1) = %v, %v", x, z)
	}
	if h := m.Heights(); !slices.Equal(h, []float64{-1, 0, 1, 65534, 3, 4}) {
		t.Errorf("Heights = %v", h)
	}
	defer func() {
		if recover() == nil {
			t.Error("HeightAt outside the map did not panic")
		}
	}()
	m.HeightAt(3, 0)
}

func TestWriteInvalid(t *testing.T) {
	ok := testMap(2, 2)
	mod := func(f func(m *Map)) *Map { m := *ok; f(&m); return &m }
	cases := []struct {
		m    *Map
		want string
	}{
		{nil, "nil map"},
		{mod(func(m *Map) { m.Width = 0 }), "each side must be"},
		{mod(func(m *Map) { m.Height = -2 }), "each side must be"},
		{mod(func(m *Map) { m.Width, m.Height = MaxSide+1, 1 }), "each side must be"},
		{mod(func(m *Map) { m.Samples = m.Samples[:3] }), "3 samples for a 2x2 map"},
		{mod(func(m *Map) { m.Cell = 0 }), "must be positive"},
		{mod(func(m *Map) { m.Cell = -1 }), "must be positive"},
		{mod(func(m *Map) { m.OriginX = math.NaN() }), "origin_x = NaN is not finite"},
		{mod(func(m *Map) { m.OriginZ = math.Inf(1) }), "origin_z = +Inf"},
		{mod(func(m *Map) { m.High = math.Inf(1) }), "not finite"},
		{mod(func(m *Map) { m.Low, m.High = 1, 0 }), "below low"},
	}
	for i, c := range cases {
		var b bytes.Buffer
		err := Write(&b, c.m)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "heightpng: ") {
			t.Errorf("case %d: error %v, want %q", i, err, c.want)
		}
		if b.Len() != 0 {
			t.Errorf("case %d: wrote %d bytes", i, b.Len())
		}
	}
}
