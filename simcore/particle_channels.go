package simcore

import (
	"fmt"
	"sync"

	"snowtools/levelset/geom"
)

// Channels is the table of particle channels: one line per slice field of Particles.
// Everything that treats the fields one by one iterates it rather than naming them:
// Add and Fill (which make room in every channel), trim, permute, Restore's checks,
// the checkpoint file (simcore/checkpoint: one column per channel, in this order) and
// the columns of snowsim's output frames. The struct-of-arrays fields stay, for the
// hot loops.
//
// To add a channel, add its slice to Particles and one line at the end of the table,
// as the rest position was (the last line): an Optional channel, which output frames
// carry as RestPosition when the scene asks for it.
//
// The codec (vec3s: 3 float64) fixes the element type and arity and the bytes of a
// value; a new element type needs a codec beside the others (particle_codecs.go). A
// new particle starts at zero in the channel; Particles.set gives the values that do
// not. Frame is nil for a channel that output frames leave out.
//
// Every channel is checkpointed: a resumed run must take the same steps and write the
// same frames as one that never stopped, so everything a particle carries must survive,
// even what the solver itself ignores (a renderer's rest position). A new channel
// therefore changes the checkpoint layout, and simcore/checkpoint's TestLayoutVersion
// fails until its version is raised. An Optional channel is nil until some particle
// needs it (Sinter, until one sinters) or the caller asks for it (Rest,
// KeepRestPositions); a checkpoint stores it behind a flag of its own.
//
// The table is not to be modified.
var Channels = []Channel{
	{Name: "ID", data: field(int32s, func(p *Particles) *[]int32 { return &p.ID }), Frame: &FrameColumn{Name: "ID", Type: Int32, At: 3}},
	{Name: "X", data: field(vec3s, func(p *Particles) *[]geom.Vec3 { return &p.X }), Frame: &FrameColumn{Name: "Position", Type: Float32, At: 0}},
	{Name: "V", data: field(vec3s, func(p *Particles) *[]geom.Vec3 { return &p.V }), Frame: &FrameColumn{Name: "Velocity", Type: Float32, At: 1}},
	{Name: "Mass", data: field(float32s, func(p *Particles) *[]float32 { return &p.Mass }), Frame: &FrameColumn{Name: "Mass", Type: Float32, At: 4}},
	{Name: "Vol0", data: field(float32s, func(p *Particles) *[]float32 { return &p.Vol0 })},
	{Name: "FE", data: field(mat3fs, func(p *Particles) *[]Mat3f { return &p.FE })},
	{Name: "JP", data: field(float32s, func(p *Particles) *[]float32 { return &p.JP }), Frame: &FrameColumn{Name: "PlasticJ", Type: Float32, At: 6}},
	{Name: "Mat", data: field(materials, func(p *Particles) *[]ParticleMaterial { return &p.Mat })},
	{Name: "Stress", data: field(sym3fs, func(p *Particles) *[]sym3f { return &p.stress })},
	{Name: "Sinter", data: field(sinterings, func(p *Particles) *[]ParticleSintering { return &p.Sinter }), Optional: true},
	{Name: "Affine", data: field(mat3fs, func(p *Particles) *[]Mat3f { return &p.Affine }), Optional: true},
	{Name: "Rho0", data: field(float32s, func(p *Particles) *[]float32 { return &p.Rho0 })},
	{Name: "Rest", data: field(vec3s, func(p *Particles) *[]geom.Vec3 { return &p.Rest }), Optional: true,
		Frame: &FrameColumn{Name: "RestPosition", Type: Float32, At: 8, OnRequest: true}},
	{Name: "Quiet", data: field(float32s, func(p *Particles) *[]float32 { return &p.Quiet }), Optional: true},
}

// Channel is one per-particle field of Particles.
type Channel struct {
	// Name is the field's name (Stress for the unexported stress), as checkpoint
	// errors show it.
	Name string
	// Optional channels are nil until a particle needs them, then one value per particle.
	Optional bool
	// Frame says how output frames carry the channel; nil if they do not.
	Frame *FrameColumn

	data columnOps
}

// FrameColumn is a channel's column in output frames (PRT files).
type FrameColumn struct {
	Name string // PRT channel name
	Type Scalar // the type frames store its numbers as; Float32 rounds float64 ones
	// At is the column's place in the particle record, from 0; snowsim's derived
	// columns (cmd/snowsim/output.go) take the places that no channel takes. The places
	// only keep the frames' bytes as they were: readers find columns by name.
	At int
	// OnRequest columns are written only when the scene asks for them (snowsim's
	// output.channels), so that frames keep their columns otherwise; they take the
	// places after those of the columns always written, and a frame that leaves some
	// out closes up the gaps.
	OnRequest bool
}

// Scalar is a type of the numbers that make up a channel's values.
type Scalar uint8

const (
	Int32 Scalar = iota + 1
	Float32
	Float64
)

// size returns the bytes of one number.
func (s Scalar) size() int {
	if s == Float64 {
		return 8
	}
	return 4
}

// Scalar returns the type of the numbers that make up a value.
func (c *Channel) Scalar() Scalar { return c.data.codec().scalar }

// Arity returns the numbers per value.
func (c *Channel) Arity() int { return c.data.codec().arity }

// Size returns the bytes of one encoded value: Arity numbers of Scalar.
func (c *Channel) Size() int { return c.Arity() * c.Scalar().size() }

// Len returns the number of values p holds.
func (c *Channel) Len(p *Particles) int { return c.data.length(p) }

// Present reports whether p carries the channel: always, unless it is Optional and nil.
func (c *Channel) Present(p *Particles) bool { return !c.Optional || !c.data.isNil(p) }

// Encode writes the values of particles from, from+1, ... into b, which holds a whole
// number of them, each as Arity numbers, little-endian, bit for bit.
func (c *Channel) Encode(p *Particles, from int, b []byte) { c.data.encode(p, from, b) }

// Decode sets the values of particles from, from+1, ... from b, as Encode wrote them.
func (c *Channel) Decode(p *Particles, from int, b []byte) { c.data.decode(p, from, b) }

// Grow appends k zero values towards a total of n. The capacity at most doubles at a
// time, so that it stays within twice the values that have really arrived (a reader
// of a file that claims more than it holds allocates little), and ends at exactly n.
func (c *Channel) Grow(p *Particles, k, n int) { c.data.grow(p, k, n) }

// EncodeFrame writes particle i's value into b as output frames carry it: Arity
// numbers of Frame.Type, little-endian.
func (c *Channel) EncodeFrame(p *Particles, i int, b []byte) {
	from, to := c.Scalar(), c.Frame.Type
	if from == to {
		c.data.encode(p, i, b[:c.Size()])
		return
	}
	raw := encodeBuffers.Get().(*[maxValueSize]byte)
	defer encodeBuffers.Put(raw)
	c.data.encode(p, i, raw[:c.Size()])
	for k := range c.Arity() {
		putScalar(b[k*to.size():], to, scalarAt(raw[:], from, k))
	}
}

// encodeBuffers holds EncodeFrame's scratch for a value: a buffer of its own on the
// stack escapes to the heap through the codec's call, two allocations per particle of
// every frame (40 MB of garbage for two frames of 9e5 particles).
var encodeBuffers = sync.Pool{New: func() any { return new([maxValueSize]byte) }}

// CheckLengths returns an error if a channel that p carries does not have one value per
// particle.
func (p *Particles) CheckLengths() error {
	n := p.Len()
	for i := range Channels {
		c := &Channels[i]
		if l := c.Len(p); c.Present(p) && l != n {
			return fmt.Errorf("the particle channels have different lengths: %d values of %s for %d particles", l, c.Name, n)
		}
	}
	return nil
}
