package prt

import (
	"errors"
	"math"
	"slices"
	"strconv"
)

// Limits on what a header may declare. They keep a corrupt or hostile file
// from making the reader allocate or loop without bound, and are far above
// what Krakatoa and the DCC exporters write.
const (
	MaxChannels     = 4096    // channels in the channel table
	MaxParticleSize = 1 << 20 // bytes in one particle record
)

// Header is the content of a PRT header: the channel layout of a particle
// record, the number of particles and the metadata.
type Header struct {
	// Channels lists the channels in file order. Offsets need not be in
	// increasing order and records may have gaps, but channels must not
	// overlap.
	Channels []Channel

	// Count is the number of particles in the file.
	Count int64

	// Meta lists the metadata entries in file order.
	Meta []Meta
}

// AddChannel appends a channel named name of arity values of type t,
// placed just after the end of the current record (at ParticleSize), and
// returns it. Use the returned Channel to fill records:
//
//	pos := h.AddChannel("Position", prt.Float32, 3)
//	pos.PutFloat32s(rec, x, y, z)
//
// AddChannel does not validate; NewWriter does.
func (h *Header) AddChannel(name string, t DataType, arity int) Channel {
	c := Channel{Name: name, Type: t, Arity: arity, Offset: h.ParticleSize()}
	h.Channels = append(h.Channels, c)
	return c
}

// ParticleSize returns the size in bytes of one particle record: the
// largest end (offset + arity*size) over all channels.
func (h Header) ParticleSize() int {
	n := 0
	for _, c := range h.Channels {
		n = max(n, c.End())
	}
	return n
}

// Channel returns the channel called name.
func (h Header) Channel(name string) (Channel, bool) {
	for _, c := range h.Channels {
		if c.Name == name {
			return c, true
		}
	}
	return Channel{}, false
}

// Lookup returns the metadata entry of the given channel ("" for the file)
// and name. If the file holds several, the last one wins, as in Krakatoa.
func (h Header) Lookup(channel, name string) (Meta, bool) {
	for i := len(h.Meta) - 1; i >= 0; i-- {
		if m := h.Meta[i]; m.Channel == channel && m.Name == name {
			return m, true
		}
	}
	return Meta{}, false
}

// SetMeta replaces the entry with the same channel and name as m, or
// appends m if there is none.
func (h *Header) SetMeta(m Meta) {
	for i := range h.Meta {
		if h.Meta[i].Channel == m.Channel && h.Meta[i].Name == m.Name {
			h.Meta[i] = m
			return
		}
	}
	h.Meta = append(h.Meta, m)
}

// Float64Meta returns the values of the numeric metadata entry channel.name
// converted to float64, whatever numeric type is stored.
func (h Header) Float64Meta(channel, name string) ([]float64, bool) {
	m, ok := h.Lookup(channel, name)
	if !ok {
		return nil, false
	}
	return m.Float64s()
}

// Int64Meta returns the values of the integer metadata entry channel.name
// converted to int64, whatever integer type is stored.
func (h Header) Int64Meta(channel, name string) ([]int64, bool) {
	m, ok := h.Lookup(channel, name)
	if !ok {
		return nil, false
	}
	return m.Int64s()
}

// StringMeta returns the value of the string metadata entry channel.name.
func (h Header) StringMeta(channel, name string) (string, bool) {
	m, ok := h.Lookup(channel, name)
	if !ok {
		return "", false
	}
	return m.Text()
}

// Clone returns a copy of h that shares no memory with it.
func (h Header) Clone() Header {
	c := Header{Count: h.Count, Channels: slices.Clone(h.Channels), Meta: slices.Clone(h.Meta)}
	for i := range c.Meta {
		c.Meta[i].Data = slices.Clone(c.Meta[i].Data)
	}
	return c
}

// Validate reports whether h can be written: Count >= 0; one to
// MaxChannels channels with valid, unique names, known types, positive
// arities and non-overlapping byte ranges within MaxParticleSize; metadata
// with valid names, values and sizes, attached to existing channels, no
// two entries with the same channel and name, and Interpretation values
// compatible with their channel.
func (h Header) Validate() error {
	if h.Count < 0 {
		return errors.New("prt: negative particle count " + strconv.FormatInt(h.Count, 10))
	}
	if len(h.Channels) == 0 {
		return errors.New("prt: no channels")
	}
	if len(h.Channels) > MaxChannels {
		return errors.New("prt: " + strconv.Itoa(len(h.Channels)) + " channels exceed the limit of " + strconv.Itoa(MaxChannels))
	}
	for i, c := range h.Channels {
		if p := channelProblem(c.Name, int64(c.Type), int64(c.Arity), int64(c.Offset)); p != "" {
			return errors.New("prt: channel " + strconv.Itoa(i) + ": " + p)
		}
	}
	if i, p := layoutProblem(h.Channels); p != "" {
		return errors.New("prt: channel " + strconv.Itoa(i) + ": " + p)
	}
	if size := int64(h.ParticleSize()); h.Count > math.MaxInt64/size {
		return errors.New("prt: " + strconv.FormatInt(h.Count, 10) + " particles of " +
			strconv.FormatInt(size, 10) + " bytes overflow a 64-bit byte count")
	}
	type key struct{ channel, name string }
	seen := make(map[key]bool, len(h.Meta))
	for _, m := range h.Meta {
		if p := m.check(); p != "" {
			return errors.New("prt: " + p)
		}
		k := key{m.Channel, m.Name}
		if seen[k] {
			return errors.New("prt: duplicate metadata " + metaKey(m.Channel, m.Name))
		}
		seen[k] = true
		if m.Channel == "" {
			continue
		}
		c, ok := h.Channel(m.Channel)
		if !ok {
			return errors.New("prt: metadata " + m.Name + " for missing channel " + strconv.Quote(m.Channel))
		}
		if m.Name == MetaInterpretation {
			if p := interpretationProblem(m, c); p != "" {
				return errors.New("prt: " + p)
			}
		}
	}
	return nil
}

// channelProblem returns what is wrong with one channel table entry, or "".
// The numbers are int64 so that values read from a file are checked before
// any arithmetic on them can overflow.
func channelProblem(name string, typ, arity, offset int64) string {
	switch {
	case !validName(name):
		return "bad channel " + nameProblem(name)
	case typ < 0 || !DataType(typ).Valid():
		return "channel " + name + ": unknown data type " + strconv.FormatInt(typ, 10)
	case arity <= 0:
		return "channel " + name + ": arity " + strconv.FormatInt(arity, 10) + " is not positive"
	case offset < 0:
		return "channel " + name + ": negative offset " + strconv.FormatInt(offset, 10)
	case arity > MaxParticleSize || offset > MaxParticleSize ||
		offset+arity*int64(DataType(typ).Size()) > MaxParticleSize:
		return "channel " + name + ": " + DataType(typ).String() + "[" + strconv.FormatInt(arity, 10) +
			"] at offset " + strconv.FormatInt(offset, 10) + " ends beyond the particle size limit of " +
			strconv.Itoa(MaxParticleSize) + " bytes"
	}
	return ""
}

// layoutProblem checks channels that each passed channelProblem for
// duplicate names and overlapping byte ranges. It returns the index of the
// offending channel and the problem, or "".
func layoutProblem(chs []Channel) (int, string) {
	names := make(map[string]int, len(chs))
	for i, c := range chs {
		if j, dup := names[c.Name]; dup {
			return i, "duplicate channel name " + c.Name + " (also channel " + strconv.Itoa(j) + ")"
		}
		names[c.Name] = i
	}
	order := make([]int, len(chs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return chs[a].Offset - chs[b].Offset })
	last := -1 // index of the channel reaching furthest so far
	for _, i := range order {
		if last >= 0 && chs[i].Offset < chs[last].End() {
			return i, "channel " + chs[i].String() + " overlaps channel " + chs[last].String()
		}
		if last < 0 || chs[i].End() > chs[last].End() {
			last = i
		}
	}
	return -1, ""
}
