package main

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strings"

	"snowtools/cmd/internal/colormap"
	"snowtools/formats/input"
	"snowtools/formats/prt"
)

// A frame is one PRT file in memory.
type frame struct {
	path string
	*prt.Frame
	pos []float32 // the positions, once decoded
}

// readFrame reads a whole PRT file, of at most the memory budget's bytes of particle
// data (prt.DefaultMaxData when none is set).
func (s *settings) readFrame(path string) (*frame, error) {
	f, err := input.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pf, err := prt.ReadAllLimit(bufio.NewReaderSize(f, 1<<20), s.budget.Bytes)
	if err != nil {
		return nil, err
	}
	if _, ok := pf.Header.Channel("Position"); !ok {
		return nil, fmt.Errorf("no Position channel (channels: %s)", channelNames(pf.Header))
	}
	return &frame{path: path, Frame: pf}, nil
}

// channelNames lists a header's channels for messages.
func channelNames(h prt.Header) string {
	names := make([]string, len(h.Channels))
	for i, c := range h.Channels {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// positions returns x y z per particle, decoded once.
func (f *frame) positions() ([]float32, error) {
	if f.pos != nil {
		return f.pos, nil
	}
	pos, err := f.floats("Position", 3)
	f.pos = pos
	return pos, err
}

// readPositions reads the frame at path and its positions.
func (s *settings) readPositions(path string) (*frame, []float32, error) {
	f, err := s.readFrame(path)
	if err != nil {
		return nil, nil, err
	}
	pos, err := f.positions()
	return f, pos, err
}

// floats returns a float channel that must have the given arity (0: any).
func (f *frame) floats(name string, arity int) ([]float32, error) {
	c, ok := f.Header.Channel(name)
	if !ok {
		return nil, fmt.Errorf("no %s channel (channels: %s)", name, channelNames(f.Header))
	}
	if arity != 0 && c.Arity != arity {
		return nil, fmt.Errorf("channel %s has %d values per particle, want %d", name, c.Arity, arity)
	}
	v, _, err := f.Float32s(name)
	return v, err
}

// scalar returns one number per particle from a channel: its value, or the length
// of a vector (Velocity gives the speed). Integer channels are converted.
func (f *frame) scalar(name string) ([]float32, error) {
	c, ok := f.Header.Channel(name)
	if !ok {
		return nil, fmt.Errorf("no %s channel to colour by (channels: %s)", name, channelNames(f.Header))
	}
	var values []float64
	var err error
	if c.Type.IsFloat() {
		values, _, err = f.Float64s(name)
	} else {
		var ints []int64
		ints, _, err = f.Int64s(name)
		values = make([]float64, len(ints))
		for i, v := range ints {
			values[i] = float64(v)
		}
	}
	if err != nil {
		return nil, err
	}
	out := make([]float32, f.Len())
	for i := range out {
		if c.Arity == 1 {
			out[i] = float32(values[i])
			continue
		}
		sum := 0.0
		for _, v := range values[i*c.Arity : (i+1)*c.Arity] {
			sum += v * v
		}
		out[i] = float32(math.Sqrt(sum))
	}
	return out, nil
}

// masses returns the particles' masses: the Mass channel, or the -mass flag for
// files without one.
func (f *frame) masses(flagMass float64) ([]float32, error) {
	if _, ok := f.Header.Channel("Mass"); ok {
		return f.floats("Mass", 1)
	}
	if flagMass > 0 {
		m := make([]float32, f.Len())
		for i := range m {
			m[i] = float32(flagMass)
		}
		return m, nil
	}
	return nil, fmt.Errorf("no Mass channel: give each particle's mass with -mass kg")
}

// positionsAndMasses returns x y z and the mass of each particle (masses).
func (f *frame) positionsAndMasses(flagMass float64) (pos, mass []float32, err error) {
	if pos, err = f.positions(); err != nil {
		return nil, nil, err
	}
	mass, err = f.masses(flagMass)
	return pos, mass, err
}

// gridSpacing returns the simulation's h from the metadata snowsim writes.
func (f *frame) gridSpacing() (float64, bool) { return gridSpacing(f.Header) }

// gridSpacing returns the h of a PRT header's GridSpacing metadata.
func gridSpacing(h prt.Header) (float64, bool) {
	v, ok := h.Float64Meta("", "GridSpacing")
	if !ok || len(v) != 1 || !(v[0] > 0) || math.IsInf(v[0], 0) {
		return 0, false
	}
	return v[0], true
}

// colors returns r g b per particle coloured by s.color, or nil without -color.
func (s *settings) colors(f *frame) ([]uint8, error) {
	if s.color == "" {
		return nil, nil
	}
	values, err := s.colorValues(f)
	if err != nil {
		return nil, err
	}
	r := colormap.Robust(values)
	if s.colorRange != nil {
		r = *s.colorRange
	}
	rgb := make([]uint8, 3*len(values))
	for i, v := range values {
		c := s.colormap.At(r.Normalize(float64(v)))
		copy(rgb[3*i:], c[:])
	}
	return rgb, nil
}

// colorValues returns the values of the -color channel, one per particle.
func (s *settings) colorValues(f *frame) ([]float32, error) {
	name := s.color
	for from, to := range s.rename { // -color may name a channel by its new name
		if to == name {
			if _, ok := f.Header.Channel(name); !ok {
				name = from
			}
		}
	}
	return f.scalar(name)
}

// fileBounds returns the box of the particles of a file, from its BoundBox metadata when
// it has one (reading only the header), else from the positions.
func (s *settings) fileBounds(path string) (lo, hi [3]float64, n int64, err error) {
	h, err := readHeader(path)
	if err != nil {
		return lo, hi, 0, err
	}
	if box, ok := h.Float64Meta("", "BoundBox"); ok && len(box) == 6 && !slices.ContainsFunc(box, math.IsNaN) {
		return [3]float64(box[:3]), [3]float64(box[3:]), h.Count, nil
	}
	f, err := s.readFrame(path)
	if err != nil {
		return lo, hi, 0, err
	}
	pos, err := f.positions()
	if err != nil {
		return lo, hi, 0, err
	}
	lo, hi = pointBounds(pos)
	return lo, hi, int64(f.Len()), nil
}

// readHeader reads only the header of a PRT file.
func readHeader(path string) (prt.Header, error) {
	file, err := input.Open(path)
	if err != nil {
		return prt.Header{}, err
	}
	defer file.Close()
	r, err := prt.NewReader(bufio.NewReader(file))
	if err != nil {
		return prt.Header{}, err
	}
	return r.Header(), nil
}

// pointBounds returns the box of the finite points of pos (x y z each).
func pointBounds(pos []float32) (lo, hi [3]float64) {
	lo = [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for i := 0; i+2 < len(pos); i += 3 {
		for a := 0; a < 3; a++ {
			v := float64(pos[i+a])
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				lo[a], hi[a] = min(lo[a], v), max(hi[a], v)
			}
		}
	}
	return lo, hi
}

// ids returns the frame's ID channel as int32, the one ID type of every file export
// writes (idType); nil for a frame without IDs. Snow's IDs are int32 already; older
// spray frames hold int64, and an ID that does not fit is an error, not a wrap.
func (f *frame) ids() ([]int32, error) {
	c, ok := f.Header.Channel("ID")
	if !ok {
		return nil, nil
	}
	if c.Arity != 1 || !c.Type.IsInt() {
		return nil, fmt.Errorf("channel ID holds %s[%d], not one integer per particle", c.Type, c.Arity)
	}
	wide, _, err := f.Int64s("ID")
	if err != nil {
		return nil, err
	}
	ids := make([]int32, len(wide))
	for i, v := range wide {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return nil, fmt.Errorf("particle %d: ID %d does not fit the int32 that every file export writes holds IDs as", i, v)
		}
		ids[i] = int32(v)
	}
	return ids, nil
}
