package heightpng

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Limits on the images this package writes and reads. A Map at the limit
// holds 512 MiB of samples; the limits exist so that a file header cannot
// ask for more memory than that.
const (
	MaxSide   = 16384   // largest width or height, in pixels
	MaxPixels = 1 << 28 // largest Width*Height
)

// A Map is a height field on a uniform grid: one 16-bit sample per column,
// and the mapping from samples to world space (see the package comment).
//
// Sample (c, r), at Samples[r*Width+c], is the column at x = OriginX +
// c*Cell, z = OriginZ + r*Cell: row 0 is the smallest z and the top row of
// the image. Its height in metres is Low + (High-Low)*s/65535.
type Map struct {
	Width, Height int
	Samples       []uint16 // row-major, len Width*Height

	OriginX, OriginZ float64 // world x, z of sample (0, 0), metres
	Cell             float64 // grid spacing, metres, > 0
	Low, High        float64 // heights of samples 0 and 65535, metres; Low <= High

	// HasMapping is set by Read: true when the file carried the mapping
	// chunk, false when the mapping fields hold Read's placeholder (origin
	// 0, Cell 1, Low 0, High 1) and the caller should set its own. Write
	// ignores it and always writes the mapping.
	HasMapping bool
}

// Validate reports a Map that Write cannot write: sizes out of range
// (see MaxSide, MaxPixels), a sample count that is not Width*Height, a
// mapping value that is not finite, Cell <= 0, High < Low, or High-Low so
// large that computing a height would overflow.
func (m *Map) Validate() error {
	if err := checkSize(m.Width, m.Height); err != nil {
		return err
	}
	if len(m.Samples) != m.Width*m.Height {
		return fmt.Errorf("heightpng: %d samples for a %dx%d map", len(m.Samples), m.Width, m.Height)
	}
	if msg := checkMapping(m.OriginX, m.OriginZ, m.Cell, m.Low, m.High); msg != "" {
		return errors.New("heightpng: " + msg)
	}
	return nil
}

func checkSize(w, h int) error {
	if w <= 0 || h <= 0 || w > MaxSide || h > MaxSide || w*h > MaxPixels {
		return fmt.Errorf("heightpng: map of %dx%d samples: each side must be 1..%d, with at most %d samples",
			w, h, MaxSide, MaxPixels)
	}
	return nil
}

// checkMapping returns what is wrong with a mapping, or "".
func checkMapping(originX, originZ, cell, low, high float64) string {
	for _, v := range []struct {
		name string
		x    float64
	}{{"origin_x", originX}, {"origin_z", originZ}, {"cell", cell}, {"low", low}, {"high", high}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) {
			return fmt.Sprintf("%s = %v is not finite", v.name, v.x)
		}
	}
	if cell <= 0 {
		return fmt.Sprintf("cell = %v: the grid spacing must be positive", cell)
	}
	if msg := checkRange(low, high); msg != "" {
		return msg
	}
	return ""
}

// checkRange returns what is wrong with a height range, or "". The span is
// limited so that span*65535 is finite, which lets both quantizing and
// SampleHeight multiply before they divide, the order that keeps integral
// heights exact.
func checkRange(low, high float64) string {
	if high < low {
		return fmt.Sprintf("high = %v is below low = %v", high, low)
	}
	if span := high - low; math.IsInf(span*65535, 0) {
		return fmt.Sprintf("high - low = %v is too large", span)
	}
	return ""
}

// SampleHeight returns the height in metres that sample value s stands for:
// Low + (High-Low)*s/65535, computed in that order.
func (m *Map) SampleHeight(s uint16) float64 {
	return m.Low + (m.High-m.Low)*float64(s)/65535
}

// HeightAt returns the height in metres of sample (c, r). It panics if c or
// r is outside the map.
func (m *Map) HeightAt(c, r int) float64 {
	if uint(c) >= uint(m.Width) || uint(r) >= uint(m.Height) {
		panic(fmt.Sprintf("heightpng: sample (%d, %d) is outside a %dx%d map", c, r, m.Width, m.Height))
	}
	return m.SampleHeight(m.Samples[r*m.Width+c])
}

// XZ returns the world x and z of sample (c, r), which need not be inside
// the map.
func (m *Map) XZ(c, r int) (x, z float64) {
	return m.OriginX + float64(c)*m.Cell, m.OriginZ + float64(r)*m.Cell
}

// Heights returns the height in metres of every sample, in the order of
// Samples.
func (m *Map) Heights() []float64 {
	h := make([]float64, len(m.Samples))
	for i, s := range m.Samples {
		h[i] = m.SampleHeight(s)
	}
	return h
}

// Quantize sets Low and High to low and high and Samples to heights (metres,
// row-major, len Width*Height) rounded to the nearest sample value; ties
// round away from zero. Heights outside [low, high] are clamped to it. With
// low == high every sample is 0. Samples is reused when it has the capacity.
// Width and Height must be set; the other mapping fields are not touched.
//
// A height that is not finite, or a bad range (see Validate), is an error
// that changes nothing.
func (m *Map) Quantize(heights []float64, low, high float64) error {
	if err := checkSize(m.Width, m.Height); err != nil {
		return err
	}
	if len(heights) != m.Width*m.Height {
		return fmt.Errorf("heightpng: Quantize: %d heights for a %dx%d map", len(heights), m.Width, m.Height)
	}
	if math.IsNaN(low) || math.IsInf(low, 0) || math.IsNaN(high) || math.IsInf(high, 0) {
		return fmt.Errorf("heightpng: Quantize: range %v..%v is not finite", low, high)
	}
	if msg := checkRange(low, high); msg != "" {
		return errors.New("heightpng: Quantize: " + msg)
	}
	for i, h := range heights {
		if math.IsNaN(h) || math.IsInf(h, 0) {
			return fmt.Errorf("heightpng: Quantize: height %d (sample %d, %d) is %v", i, i%m.Width, i/m.Width, h)
		}
	}
	m.Low, m.High = low, high
	m.Samples = slices.Grow(m.Samples[:0], len(heights))[:len(heights)]
	span := high - low
	for i, h := range heights {
		var s uint16
		switch {
		case h <= low:
			s = 0
		case h >= high:
			s = 65535
		default:
			// Multiplying first makes heights on the grid of steps exact.
			// 0 < h-low < span, so the result is in (0, 65535).
			s = uint16(math.Round((h - low) * 65535 / span))
		}
		m.Samples[i] = s
	}
	return nil
}

// QuantizeFit is Quantize with low and high the smallest and largest of
// heights, which uses the full 16 bits. A flat field (all heights equal)
// gets Low == High and all samples 0, and still reads back exactly.
func (m *Map) QuantizeFit(heights []float64) error {
	if len(heights) == 0 {
		return m.Quantize(heights, 0, 0) // reports the size
	}
	low, high := math.Inf(1), math.Inf(-1)
	for _, h := range heights {
		low = min(low, h)
		high = max(high, h)
	}
	// min and max propagate NaN, and infinities stay infinite: Quantize
	// reports both, naming the sample.
	if math.IsNaN(low) || math.IsInf(low, 0) || math.IsNaN(high) || math.IsInf(high, 0) {
		return m.Quantize(heights, 0, 0)
	}
	return m.Quantize(heights, low, high)
}
