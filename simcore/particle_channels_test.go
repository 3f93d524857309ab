package simcore

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"snowtools/levelset/geom"
)

// fieldOf returns field k of *p as a settable value, unexported fields too.
func fieldOf(p *Particles, k int) reflect.Value {
	f := reflect.ValueOf(p).Elem().Field(k)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// channelField returns the index of the Particles field that holds channel c: the
// one field whose length the channel sees change.
func channelField(t *testing.T, c *Channel) int {
	t.Helper()
	found := -1
	typ := reflect.TypeOf(Particles{})
	for k := range typ.NumField() {
		var p Particles
		fieldOf(&p, k).Set(reflect.MakeSlice(typ.Field(k).Type, 7, 7))
		if c.Len(&p) == 7 {
			if found >= 0 {
				t.Fatalf("channel %s reaches both %s and %s", c.Name, typ.Field(found).Name, typ.Field(k).Name)
			}
			found = k
		}
	}
	if found < 0 {
		t.Fatalf("channel %s reaches no field of Particles", c.Name)
	}
	return found
}

// The table has every field of Particles, each once: they are all slices of one value
// per particle, so nothing is left out of Add, permute, Snapshot, checkpoints.
func TestChannelsCoverParticles(t *testing.T) {
	typ := reflect.TypeOf(Particles{})
	owner := map[int]string{}
	for i := range Channels {
		c := &Channels[i]
		k := channelField(t, c)
		if prev, ok := owner[k]; ok {
			t.Errorf("channels %s and %s both hold %s", prev, c.Name, typ.Field(k).Name)
		}
		owner[k] = c.Name
	}
	for k := range typ.NumField() {
		if _, ok := owner[k]; !ok {
			t.Errorf("Particles.%s (%s) is in no channel: add it to Channels", typ.Field(k).Name, typ.Field(k).Type)
		}
	}
}

// randomChannels returns n particles whose every channel (the Optional ones too) holds
// random bits, and those bits by channel.
func randomChannels(n int, seed uint64) (*Particles, map[string][]byte) {
	rng := rand.New(rand.NewPCG(seed, 2))
	p := &Particles{}
	bits := map[string][]byte{}
	for i := range Channels {
		c := &Channels[i]
		b := make([]byte, n*c.Size())
		for k := range b {
			b[k] = byte(rng.Uint32())
		}
		if c.Scalar() == Float32 {
			quietNaNs(b)
		}
		c.Grow(p, n, n)
		c.Decode(p, 0, b)
		bits[c.Name] = b
	}
	return p, bits
}

// quietNaNs makes the signaling NaNs among the float32 values in b quiet: the reference
// of TestCodecsMatchMemory, binary.Write, reads float32 values through reflect's
// float64, and the conversion back quiets them. (The codecs keep every bit; the
// checkpoint round trip checks that with arbitrary bits.)
func quietNaNs(b []byte) {
	for k := 0; k+4 <= len(b); k += 4 {
		w := binary.LittleEndian.Uint32(b[k:])
		if w&0x7f800000 == 0x7f800000 && w&0x007fffff != 0 {
			binary.LittleEndian.PutUint32(b[k:], w|0x00400000)
		}
	}
}

// A codec's bytes are the values' bytes in memory (little-endian, as this machine is):
// no number is left out, doubled or misplaced, and the arity and type it declares
// are the element's. Encoding gives back the bytes decoded.
func TestCodecsMatchMemory(t *testing.T) {
	const n = 5
	p, bits := randomChannels(n, 1)
	for i := range Channels {
		c := &Channels[i]
		var mem bytes.Buffer
		if err := binary.Write(&mem, binary.LittleEndian, fieldOf(p, channelField(t, c)).Interface()); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !bytes.Equal(mem.Bytes(), bits[c.Name]) {
			t.Errorf("%s: decoding %x gives values whose bytes are %x", c.Name, bits[c.Name], mem.Bytes())
		}
		again := make([]byte, n*c.Size())
		c.Encode(p, 0, again)
		if !bytes.Equal(again, bits[c.Name]) {
			t.Errorf("%s: encoding does not give back the bytes decoded", c.Name)
		}
		if c.Size() > maxValueSize {
			t.Errorf("%s: values of %d bytes; maxValueSize is %d", c.Name, c.Size(), maxValueSize)
		}
	}
}

// permute moves every channel (an absent Optional one stays absent), and leaves dest
// as the identity.
func TestPermute(t *testing.T) {
	const n = 300
	for _, sinters := range []bool{true, false} {
		p, bits := randomChannels(n, 3)
		if !sinters {
			p.Sinter = nil
		}
		rng := rand.New(rand.NewPCG(4, 4))
		dest := make([]int32, n)
		for i, d := range rng.Perm(n) {
			dest[i] = int32(d)
		}
		if !sinters {
			j := dest[7] // make particle j stay where it is
			dest[7], dest[j] = dest[j], j
		}
		want := append([]int32(nil), dest...)
		p.permute(dest)
		for i := range Channels {
			c := &Channels[i]
			if !c.Present(p) {
				if sinters || c.Name != "Sinter" {
					t.Errorf("%s: absent after permute", c.Name)
				}
				continue
			}
			got, size := make([]byte, n*c.Size()), c.Size()
			c.Encode(p, 0, got)
			for from, to := range want {
				if !bytes.Equal(got[int(to)*size:int(to+1)*size], bits[c.Name][from*size:(from+1)*size]) {
					t.Fatalf("%s: particle %d did not reach %d", c.Name, from, to)
				}
			}
		}
		for i, d := range dest {
			if int(d) != i {
				t.Fatalf("dest[%d] = %d after permute, want the identity", i, d)
			}
		}
	}
}

// Add gives every channel p carries one more value, and no Optional channel that p
// lacks; trim leaves no spare capacity.
func TestAddAndTrim(t *testing.T) {
	p := &Particles{}
	for i := range 5 {
		p.Add(geom.Vec3{float64(i)}, geom.Vec3{}, 1, ParticleMaterial{})
	}
	if err := p.CheckLengths(); err != nil || p.Sinter != nil {
		t.Fatalf("without sintering: %v, Sinter %v", err, p.Sinter)
	}
	p.setSintering(2, ParticleSintering{MaxDensity: 400})
	p.Add(geom.Vec3{}, geom.Vec3{}, 1, ParticleMaterial{})
	if err := p.CheckLengths(); err != nil || len(p.Sinter) != 6 || p.Sinter[5] != (ParticleSintering{}) {
		t.Fatalf("with sintering: %v, %d states", err, len(p.Sinter))
	}
	p.trim()
	for i := range Channels {
		c := &Channels[i]
		if f := fieldOf(p, channelField(t, c)); f.Cap() != f.Len() {
			t.Errorf("%s: capacity %d for %d values after trim", c.Name, f.Cap(), f.Len())
		}
	}
}

// Reserve gives every channel p carries, and the Optional ones that seeding adds
// later, room for the particles reserved, so that seeding within it moves no channel;
// trim keeps a spare of at most a sixteenth and copies a larger one away.
func TestReserve(t *testing.T) {
	src := ballSource(geom.Vec3{0.5, 0.5, 0.5}, 0.1, DefaultMaterial, 1)
	src.Spin = geom.Vec3{0, 1, 0} // gives the Affine channel
	n, err := Fill(&Particles{}, src, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	reserved := n + n/(2*spareFraction) // as an estimate a little high would
	p := &Particles{}
	p.Reserve(reserved)
	x0 := &p.X[:1][0]
	if _, err := Fill(p, src, 0.02); err != nil {
		t.Fatal(err)
	}
	p.setSintering(0, ParticleSintering{MaxDensity: 400})
	if &p.X[0] != x0 {
		t.Error("seeding within the reservation moved the positions")
	}
	p.trim()
	for i := range Channels {
		c := &Channels[i]
		f := fieldOf(p, channelField(t, c))
		if c.Present(p) && f.Cap() != reserved {
			t.Errorf("%s: capacity %d for %d values after trim, want the %d reserved", c.Name, f.Cap(), f.Len(), reserved)
		}
	}
	if &p.X[0] != x0 {
		t.Error("trim copied the positions for a spare under a sixteenth")
	}
	p.Reserve(2 * reserved)
	p.trim()
	if cap(p.X) != n || cap(p.Affine) != n {
		t.Errorf("trim left capacities %d and %d for %d particles", cap(p.X), cap(p.Affine), n)
	}
}

// EncodeFrame writes what output frames carry: the encoded value itself when the
// frame's type is the channel's, float64 narrowed (rounded) to float32 otherwise.
func TestEncodeFrame(t *testing.T) {
	p, _ := randomChannels(1, 5)
	p.X[0] = geom.Vec3{0.1, -0.2, 1e-40}
	for i := range Channels {
		c := &Channels[i]
		if c.Frame == nil {
			continue
		}
		got := make([]byte, c.Arity()*c.Frame.Type.size())
		c.EncodeFrame(p, 0, got)
		want := make([]byte, c.Size())
		c.Encode(p, 0, want)
		switch {
		case c.Frame.Type == c.Scalar():
		case c.Scalar() == Float64 && c.Frame.Type == Float32:
			var narrow []byte
			for k := range c.Arity() {
				x := math.Float64frombits(binary.LittleEndian.Uint64(want[8*k:]))
				narrow = binary.LittleEndian.AppendUint32(narrow, math.Float32bits(float32(x)))
			}
			want = narrow
		default:
			t.Fatalf("%s: no test of frames that turn %d into %d", c.Name, c.Scalar(), c.Frame.Type)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %x, want %x", c.Name, got, want)
		}
	}
}

// BenchmarkPermute measures the physical sort of the particles (binParticles) on the
// snowball of BenchmarkStep, 1e5 particles, by the permutation of its reordering at
// step 40: nearly every particle moves, as a particle that changes block shifts the
// ones after it.
func BenchmarkPermute(b *testing.B) {
	s := snowballScene(b, 2)
	for s.Steps < 2*reorderInterval {
		if err := s.Step(s.stableDt()); err != nil {
			b.Fatal(err)
		}
	}
	before := append([]int32(nil), s.P.ID...)
	if err := s.Step(s.stableDt()); err != nil { // reorders first
		b.Fatal(err)
	}
	index := make(map[int32]int32, len(before))
	for k, id := range s.P.ID {
		index[id] = int32(k)
	}
	perm := make([]int32, len(before))
	for i, id := range before {
		perm[i] = index[id]
	}
	dest := make([]int32, len(perm))
	b.ResetTimer()
	for b.Loop() {
		copy(dest, perm)
		s.P.permute(dest)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(perm)), "ns/particle")
}
