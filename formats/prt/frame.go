package prt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// A Frame is a whole PRT file in memory: the header and the particle
// records back to back (Header.Count * Header.ParticleSize() bytes).
type Frame struct {
	Header Header
	Data   []byte
}

// DefaultMaxData is the most decompressed particle data, in bytes, that ReadAll
// holds in memory: 2 GiB, 50 million particles of snowsim's 40-byte records.
// Callers that know how much memory they may use pass it to ReadAllLimit.
const DefaultMaxData = 2 << 30

// ReadAll reads a whole PRT file from r, holding at most DefaultMaxData bytes
// of particle data; see ReadAllLimit.
func ReadAll(r io.Reader) (*Frame, error) {
	return ReadAllLimit(r, 0)
}

// ReadAllLimit reads a whole PRT file from r. A header whose particle count
// times particle size exceeds maxBytes (0 means DefaultMaxData) fails with a
// *FormatError about the count before a byte of particle data is
// decompressed: a tiny file of zeros compressed a thousandfold is refused by
// its header. Below the limit the particle buffer grows as data is
// decompressed, so a header that declares more particles than the file holds
// fails without first allocating for them, and decompression stops at the
// declared size (the reader checks a single byte past it).
func ReadAllLimit(r io.Reader, maxBytes int64) (*Frame, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxData
	}
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	if rd.total > maxBytes {
		return nil, headerError(offCount, "particle count "+strconv.FormatInt(rd.h.Count, 10)+" times "+
			strconv.FormatInt(rd.size, 10)+" bytes is "+strconv.FormatInt(rd.total, 10)+
			" bytes of particle data, more than the limit of "+strconv.FormatInt(maxBytes, 10))
	}
	buf := make([]byte, 0, min(rd.total, 64<<10))
	for {
		if len(buf) == cap(buf) && int64(len(buf)) < rd.total {
			// Grow geometrically, but never past the declared size.
			grow := min(int64(cap(buf)), rd.total-int64(len(buf)))
			buf = slices.Grow(buf, int(grow))
		}
		n, err := rd.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return &Frame{Header: rd.h, Data: buf}, nil
}

// Len returns the number of particles.
func (f *Frame) Len() int {
	size := f.Header.ParticleSize()
	if size == 0 {
		return 0
	}
	return len(f.Data) / size
}

// Particle returns the record of particle i.
func (f *Frame) Particle(i int) []byte {
	size := f.Header.ParticleSize()
	return f.Data[i*size : (i+1)*size : (i+1)*size]
}

func (f *Frame) channel(name string) (Channel, error) {
	c, ok := f.Header.Channel(name)
	if !ok {
		return c, errors.New("prt: no channel " + strconv.Quote(name))
	}
	return c, nil
}

// column decodes channel name of every particle into one slice of Len()*arity
// values (particle i's values are v[i*arity:(i+1)*arity]), after checking its
// type with ok. decode converts one value; false means it does not fit in T.
func column[T any](f *Frame, name string, ok func(DataType) bool, want string,
	decode func(t DataType, b []byte) (T, bool)) (v []T, arity int, err error) {
	c, err := f.channel(name)
	if err != nil {
		return nil, 0, err
	}
	if !ok(c.Type) {
		return nil, 0, fmt.Errorf("prt: channel %s is %s, not %s", c.Name, c.Type, want)
	}
	if f.Len() > 0 && c.End() > f.Header.ParticleSize() {
		return nil, 0, fmt.Errorf("prt: channel %s lies outside the particle record", c)
	}
	v = make([]T, f.Len()*c.Arity)
	size, a, ts := f.Header.ParticleSize(), c.Arity, c.Type.Size()
	for i := range f.Len() {
		b := f.Data[i*size+c.Offset : i*size+c.End()]
		out := v[i*a : (i+1)*a]
		for k := range out {
			x, fits := decode(c.Type, b[k*ts:])
			if !fits {
				return nil, 0, fmt.Errorf("prt: particle %d: channel %s[%d] does not fit in %T", i, c.Name, k, x)
			}
			out[k] = x
		}
	}
	return v, a, nil
}

// Float32s returns channel name of all particles as one slice of
// Len()*arity values (particle i's values are v[i*arity:(i+1)*arity]),
// converted from float16, float32 or float64.
func (f *Frame) Float32s(name string) (v []float32, arity int, err error) {
	return column(f, name, DataType.IsFloat, "a floating-point type", func(t DataType, b []byte) (float32, bool) {
		if t == Float32 {
			return math.Float32frombits(binary.LittleEndian.Uint32(b)), true // exact, no float64 detour
		}
		return float32(decodeFloat64(t, b)), true
	})
}

// Float64s is like Float32s but converts to float64.
func (f *Frame) Float64s(name string) (v []float64, arity int, err error) {
	return column(f, name, DataType.IsFloat, "a floating-point type", func(t DataType, b []byte) (float64, bool) {
		return decodeFloat64(t, b), true
	})
}

// Int64s returns channel name of all particles as one slice of Len()*arity
// values, converted from any integer type. A uint64 value above
// math.MaxInt64 is an error.
func (f *Frame) Int64s(name string) (v []int64, arity int, err error) {
	return column(f, name, DataType.IsInt, "an integer type", decodeInt64)
}

// WriteTo writes the frame as a PRT file to w. The header's Count is taken
// from the data.
func (f *Frame) WriteTo(w io.Writer) (int64, error) {
	h := f.Header
	size := h.ParticleSize()
	if size == 0 || len(f.Data)%size != 0 {
		return 0, errors.New("prt: frame data of " + strconv.Itoa(len(f.Data)) +
			" bytes is not a whole number of " + strconv.Itoa(size) + "-byte particles")
	}
	h.Count = int64(len(f.Data) / size)
	cw := &countWriter{w: w}
	pw, err := NewWriter(cw, h)
	if err != nil {
		return cw.n, err
	}
	if _, err := pw.Write(f.Data); err != nil {
		return cw.n, err
	}
	err = pw.Close()
	return cw.n, err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
