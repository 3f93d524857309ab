package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// samples are buffers like the ones OpenVDB compresses, and a few that test the
// edges: a level set's leaf of float32 distances, a vec3s leaf, random bytes
// (which do not compress), zeros, a buffer too short for a split, and sizes that
// leave a partial element or block.
func samples() map[string][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	floats := func(n int, f func(i int) float32) []byte {
		b := make([]byte, 0, 4*n)
		for i := range n {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f(i)))
		}
		return b
	}
	random := make([]byte, 12000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return map[string][]byte{
		"level set leaf": floats(512, func(i int) float32 {
			x, y, z := float64(i>>6), float64(i>>3&7), float64(i&7)
			return float32(0.05 * (math.Sqrt(x*x+y*y+z*z) - 6))
		}),
		"vec3s leaf":    floats(3*512, func(i int) float32 { return float32(math.Sin(float64(i) * 0.37)) }),
		"random":        random[:3000],
		"far repeat":    append(random[:10000:10000], random[:2000]...), // BloscLZ's far matches
		"zeros":         make([]byte, 30000),
		"empty":         {},
		"short":         {1, 2, 3},
		"partial":       floats(1000, func(i int) float32 { return float32(i % 17) })[:3999],
		"one of each":   {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
		"long repeated": bytes.Repeat([]byte("snow falls on "), 3000),
	}
}

// allOptions are the option sets the round trip covers: every codec and shuffle,
// type sizes 1, 2, 4, 12 and 20 (above 16 blocks are not split), one block or
// several.
func allOptions() []Options {
	var opts []Options
	for _, codec := range []Codec{LZ4, BloscLZ, Zlib} {
		for _, shuffle := range []Shuffle{NoShuffle, ByteShuffle, BitShuffle} {
			for _, ts := range []int{1, 2, 4, 12, 20} {
				for _, bs := range []int{0, 1000} {
					opts = append(opts, Options{Codec: codec, Shuffle: shuffle, TypeSize: ts, BlockSize: bs})
				}
			}
		}
	}
	return opts
}

func TestRoundTrip(t *testing.T) {
	var e Encoder
	var d Decoder
	for name, data := range samples() {
		for _, o := range allOptions() {
			frame, err := e.Compress([]byte("prefix"), data, o)
			if err != nil {
				t.Fatalf("%s %+v: %v", name, o, err)
			}
			frame = frame[len("prefix"):]
			if len(frame) > len(data)+HeaderSize {
				t.Errorf("%s %+v: frame of %d bytes for %d", name, o, len(frame), len(data))
			}
			got, err := d.Decompress([]byte("x"), frame)
			if err != nil {
				t.Fatalf("%s %+v: %v", name, o, err)
			}
			if !bytes.Equal(got[1:], data) || got[0] != 'x' {
				t.Fatalf("%s %+v: round trip differs", name, o)
			}
		}
	}
}

// Compressible data compresses: the figures OpenVDB's own choice (LZ4, byte
// shuffle of float32) and the others reach on a level set's leaf, measured once
// and kept as bounds a regression would cross.
func TestCompresses(t *testing.T) {
	leaf := samples()["level set leaf"]
	for _, c := range []struct {
		codec    Codec
		shuffle  Shuffle
		maxRatio float64
	}{{LZ4, ByteShuffle, 0.80}, {BloscLZ, ByteShuffle, 0.80}, {Zlib, ByteShuffle, 0.75}} {
		frame, err := Compress(nil, leaf, Options{Codec: c.codec, Shuffle: c.shuffle, TypeSize: 4})
		if err != nil {
			t.Fatal(err)
		}
		ratio := float64(len(frame)) / float64(len(leaf))
		t.Logf("%v: %d bytes of %d (%.3f)", c.codec, len(frame), len(leaf), ratio)
		if ratio > c.maxRatio {
			t.Errorf("%v: frame is %.3f of the data, want at most %.2f", c.codec, ratio, c.maxRatio)
		}
	}
	zeros := samples()["zeros"]
	for _, codec := range []Codec{LZ4, BloscLZ, Zlib} {
		frame, _ := Compress(nil, zeros, Options{Codec: codec, TypeSize: 4})
		if len(frame) > len(zeros)/100 {
			t.Errorf("%v: %d zeros take %d bytes", codec, len(zeros), len(frame))
		}
	}
}

func TestShufflesInvert(t *testing.T) {
	src := make([]byte, 203)
	for i := range src {
		src[i] = byte(i*37 + 11)
	}
	for _, ts := range []int{1, 2, 3, 4, 8, 12, 16, 25} {
		for _, f := range []struct {
			name   string
			do, un func(dst, src []byte, ts int)
		}{{"byte", shuffleBytes, unshuffleBytes}, {"bit", shuffleBits, unshuffleBits}} {
			for _, n := range []int{0, 1, 8 * ts, 8*ts + 3, 16 * ts, len(src)} {
				if n > len(src) {
					continue
				}
				mid, back := make([]byte, n), make([]byte, n)
				f.do(mid, src[:n], ts)
				f.un(back, mid, ts)
				if !bytes.Equal(back, src[:n]) {
					t.Errorf("%s shuffle, type size %d, %d bytes: does not invert", f.name, ts, n)
				}
			}
		}
	}
	// Byte j of element i goes to j*n + i.
	mid := make([]byte, 8)
	shuffleBytes(mid, []byte{1, 2, 3, 4, 5, 6, 7, 8}, 4)
	if !bytes.Equal(mid, []byte{1, 5, 2, 6, 3, 7, 4, 8}) {
		t.Errorf("byte shuffle of 2 elements of 4 bytes: %v", mid)
	}
	// Eight elements of one byte, element m = 1<<m: bit plane k holds bit k of
	// every element, element m at bit m, so it is 1<<k.
	elems := []byte{1, 2, 4, 8, 16, 32, 64, 128}
	shuffleBits(mid, elems, 1)
	if !bytes.Equal(mid, elems) {
		t.Errorf("bit shuffle of the unit vectors: %v", mid)
	}
	shuffleBits(mid, []byte{1, 1, 1, 1, 1, 1, 1, 1}, 1)
	if !bytes.Equal(mid, []byte{255, 0, 0, 0, 0, 0, 0, 0}) {
		t.Errorf("bit shuffle of eight ones: %v", mid)
	}
}

func TestBloscLZMatches(t *testing.T) {
	// Hand-made streams: a literal run with the level marker, a run of one byte
	// (distance 1), a long match with length bytes, and a far match.
	far := samples()["far repeat"][:9000] // random bytes
	var w blzWriter
	w.literals([]byte("ab"))
	w.match(10, 1) // "bbbbbbbbbb"
	w.literals(far[:10])
	w.match(300, 22) // repeats from the start
	w.out[0] |= blzMarker
	want := append([]byte("ab"), bytes.Repeat([]byte("b"), 10)...)
	want = append(want, far[:10]...)
	for range 300 {
		want = append(want, want[len(want)-22])
	}
	got := make([]byte, len(want))
	if err := decodeBloscLZ(got, w.out); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("hand-made stream: %v", err)
	}

	data := append(append([]byte{}, far...), far[:100]...) // 100 bytes 9000 back
	var e blzEncoder
	stream := e.encode(nil, data, 2*len(data)) // random literals do not shrink
	if stream == nil {
		t.Fatal("no stream")
	}
	got = make([]byte, len(data))
	if err := decodeBloscLZ(got, stream); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("far match: %v", err)
	}
	// The literals cost one byte in 32; the repeat, if found, a few bytes.
	if len(stream) > len(far)+len(far)/32+10 {
		t.Errorf("far match not used: %d bytes for %d", len(stream), len(data))
	}
}

// Bad frames: each is an *Error, and none allocates what its header claims.
func TestBadFrames(t *testing.T) {
	good, err := Compress(nil, samples()["level set leaf"], Options{TypeSize: 4, Shuffle: ByteShuffle})
	if err != nil {
		t.Fatal(err)
	}
	set32 := func(at int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[at:], v)
		return b
	}
	set8 := func(at int, v byte) []byte {
		b := bytes.Clone(good)
		b[at] = v
		return b
	}
	setBoth := func(nbytes uint32) []byte { // nbytes and block size
		b := set32(4, nbytes)
		binary.LittleEndian.PutUint32(b[8:], nbytes)
		return b
	}
	cases := []struct {
		name  string
		frame []byte
		want  string
	}{
		{"empty", nil, "only 0 bytes"},
		{"truncated header", good[:10], "only 10 bytes"},
		{"truncated", good[:len(good)-1], "frame size"},
		{"blosc2", set8(0, 3), "not Blosc2"},
		{"reserved flag", set8(2, good[2]|flagReserved), "reserved"},
		{"both shuffles", set8(2, good[2]|flagBitShuffle), "both byte and bit"},
		{"type size 0", set8(3, 0), "type size 0"},
		{"codec 7", set8(2, good[2]|7<<5), "does not define"},
		{"zstd", set8(2, good[2]&0x1f|4<<5), "zstd is not supported"},
		{"huge nbytes", set32(4, 0x7ffffff0), "larger than Blosc allows"},
		{"lying nbytes", setBoth(1 << 30), "more than lz4 can expand to"},
		{"nbytes too large", set32(4, 4096), "block"},
		{"nbytes too small", set32(4, 1024), "bad lz4 data"},
		{"block size 0", set32(8, 0), "block size 0"},
		{"many blocks", set32(8, 1), "start table"},
		{"block start outside", set32(16, 5000), "outside the frame"},
		{"block start in table", set32(16, 2), "outside the frame"},
		{"split size negative", set32(20, 0xffffffff), "compressed bytes where"},
		{"split size too large", set32(20, 100000), "compressed bytes where"},
		{"cbytes larger", set32(12, uint32(len(good)+1)), "frame size"},
		{"memcpyed, wrong size", set8(2, good[2]|flagMemcpyed), "stored uncompressed"},
	}
	for _, c := range cases {
		_, err := Decompress(nil, c.frame)
		var be *Error
		if !errors.As(err, &be) {
			t.Errorf("%s: error %v, want a *blosc.Error", c.name, err)
			continue
		}
		if !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
}

// A header that claims a gigabyte allocates nothing near it.
func TestLyingSizeBoundsMemory(t *testing.T) {
	frame, _ := Compress(nil, make([]byte, 4096), Options{TypeSize: 4, Codec: Zlib})
	for _, nbytes := range []uint32{1 << 30, uint32(len(frame)-HeaderSize) * 1032} {
		f := bytes.Clone(frame)
		binary.LittleEndian.PutUint32(f[4:], nbytes)
		binary.LittleEndian.PutUint32(f[8:], nbytes)
		before := allocated()
		got, err := Decompress(nil, f)
		grew := allocated() - before
		if err == nil || len(got) != 0 {
			t.Errorf("nbytes %d: no error", nbytes)
		}
		// The second claim passes the expansion check (1032 bytes per byte for
		// zlib): its output, about 600 kB here, is allocated and the error found
		// as the split is decoded.
		t.Logf("nbytes %d: %v; %d bytes allocated", nbytes, err, grew)
		if grew > 2<<20 {
			t.Errorf("nbytes %d: allocated %d bytes", nbytes, grew)
		}
	}
}

// allocated returns the bytes the program has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

func TestCompressRefuses(t *testing.T) {
	for _, o := range []Options{{TypeSize: 0}, {TypeSize: 256}, {TypeSize: 4, Codec: Zstd}, {TypeSize: 4, Shuffle: 3}} {
		if _, err := Compress(nil, []byte{1, 2, 3, 4}, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func ExampleCompress() {
	values := make([]byte, 2048) // 512 float32 values, as in an OpenVDB leaf
	frame, _ := Compress(nil, values, Options{Codec: LZ4, Shuffle: ByteShuffle, TypeSize: 4})
	h, _ := ReadHeader(frame)
	back, _ := Decompress(nil, frame)
	fmt.Println(h.NBytes, h.TypeSize, h.Shuffle() == ByteShuffle, len(back))
	// Output: 2048 4 true 2048
}
