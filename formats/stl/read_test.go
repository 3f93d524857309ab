package stl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hschendel/stl"

	"snowtools/levelset/geom"
)

func TestCube(t *testing.T) {
	for _, ascii := range []bool{false, true} {
		m := mustRead(t, encode(t, cubeSolid(), ascii))
		if len(m.Positions) != 8 || len(m.Triangles) != 12 {
			t.Fatalf("ascii %v: %d vertices, %d triangles; want 8 and 12", ascii, len(m.Positions), len(m.Triangles))
		}
		checkClosed(t, m)
		if v := signedVolume(m); math.Abs(v-1) > 1e-12 {
			t.Errorf("ascii %v: signed volume %g, want 1", ascii, v)
		}
	}
	bin := mustRead(t, encode(t, cubeSolid(), false))
	asc := mustRead(t, encode(t, cubeSolid(), true))
	if !sameMesh(bin, asc) {
		t.Error("binary and ASCII read differently")
	}
}

func TestWeldOrder(t *testing.T) {
	// Vertices are numbered in order of first appearance; only bit-identical
	// positions weld (and -0 with +0).
	next := math.Nextafter32(1, 2)
	negZero := float32(math.Copysign(0, -1))
	s := &stl.Solid{Triangles: []stl.Triangle{
		{Vertices: [3]stl.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}},
		{Vertices: [3]stl.Vec3{{1, 0, 0}, {next, 0, 0}, {0, 1, negZero}}},
	}}
	m := mustRead(t, encode(t, s, false))
	want := []geom.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {float64(next), 0, 0}}
	if len(m.Positions) != len(want) {
		t.Fatalf("positions %v, want %v", m.Positions, want)
	}
	for i := range want {
		if m.Positions[i] != want[i] {
			t.Errorf("vertex %d: %v, want %v", i, m.Positions[i], want[i])
		}
	}
	if m.Triangles[0] != [3]int32{0, 1, 2} || m.Triangles[1] != [3]int32{1, 3, 2} {
		t.Errorf("triangles %v", m.Triangles)
	}
	if math.Signbit(m.Positions[2][2]) {
		t.Error("a welded zero kept the sign of -0")
	}
}

func TestSequenceTopology(t *testing.T) {
	// Two frames of a moving cube weld to the same topology.
	a := mustRead(t, encode(t, cubeSolid(), false))
	s := cubeSolid()
	s.Translate(stl.Vec3{0.5, 2, -1})
	b := mustRead(t, encode(t, s, false))
	if err := geom.SameTopology(a, b); err != nil {
		t.Fatal(err)
	}
}

func TestBinaryHeaderSayingSolid(t *testing.T) {
	// Some exporters start binary headers with "solid"; the size decides.
	s := cubeSolid()
	s.BinaryHeader = []byte("solid cube exported by a careless tool" + strings.Repeat(" ", 42))
	data := encode(t, s, false)
	if !bytes.HasPrefix(data, []byte("solid cube")) {
		t.Fatalf("header %q", data[:20])
	}
	if m := mustRead(t, data); len(m.Triangles) != 12 {
		t.Fatalf("%d triangles", len(m.Triangles))
	}
	// Truncated, it is still recognised as binary by its zero bytes, so the
	// error says what is wrong rather than what the ASCII parser expected.
	if e := readError(t, data[:300]); !strings.Contains(e.Error(), "truncated") || e.Triangle != 4 {
		t.Errorf("truncated: %v", e)
	}
}

func TestTruncated(t *testing.T) {
	data := encode(t, cubeSolid(), false) // 84 + 12*50 = 684 bytes
	for _, c := range []struct {
		size int
		tri  int64
		want string
	}{
		{683, 11, "ending inside triangle 11"},
		{634, 11, "ending before triangle 11"},
		{100, 0, "inside triangle 0"},
		{84, 0, "before triangle 0"},
	} {
		e := readError(t, data[:c.size])
		if e.Triangle != c.tri || e.Offset != 84+50*c.tri || !strings.Contains(e.Error(), c.want) ||
			!strings.Contains(e.Error(), "header says 12 triangles (684 bytes)") {
			t.Errorf("%d bytes: %v (triangle %d, offset %d)", c.size, e, e.Triangle, e.Offset)
		}
	}
	e := readError(t, append(data, 0, 0, 0))
	if !strings.Contains(e.Error(), "3 bytes too many") || e.Offset != 80 {
		t.Errorf("trailing bytes: %v", e)
	}
	if e := readError(t, data[:50]); !strings.Contains(e.Error(), "too short") {
		t.Errorf("50 bytes: %v", e)
	}
}

func TestLyingCount(t *testing.T) {
	// A header claiming 2^32-1 triangles over one real triangle must fail at
	// once, without reserving room for the claim (200 GB of triangles).
	data := encode(t, &stl.Solid{Triangles: cubeSolid().Triangles[:1]}, false)
	binary.LittleEndian.PutUint32(data[80:], math.MaxUint32)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	e := readError(t, data)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if !strings.Contains(e.Error(), "header says 4294967295 triangles") || e.Triangle != 1 {
		t.Errorf("error %v", e)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("allocated %d bytes", alloc)
	}
	if elapsed > time.Second {
		t.Errorf("took %v", elapsed)
	}
	// A count that is too small leaves bytes over: also rejected.
	binary.LittleEndian.PutUint32(data[80:], 0)
	if e := readError(t, data); !strings.Contains(e.Error(), "50 bytes too many") {
		t.Errorf("error %v", e)
	}
}

func TestNoTriangles(t *testing.T) {
	for _, c := range []struct {
		data []byte
		want string
	}{
		{nil, "empty file"},
		{encode(t, &stl.Solid{Name: "empty"}, false), "binary file with no triangles"},
		{encode(t, &stl.Solid{Name: "empty"}, true), "no triangles"},
	} {
		if e := readError(t, c.data); !strings.Contains(e.Error(), c.want) {
			t.Errorf("error %v, want %q", e, c.want)
		}
	}
}

func TestNotFinite(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	s := cubeSolid()
	s.Triangles[3].Vertices[1][2] = nan
	s.Triangles[5].Vertices[0][0] = inf
	e := readError(t, encode(t, s, false))
	if e.Triangle != 3 || e.Offset != 84+3*50 || !strings.Contains(e.Error(), "corner 1") || !strings.Contains(e.Error(), "not finite") {
		t.Errorf("binary: %v", e)
	}
	s.Triangles[3].Vertices[1][2] = 0
	e = readError(t, encode(t, s, true))
	if e.Triangle != 5 || e.Offset != -1 || !strings.Contains(e.Error(), "stl: triangle 5: corner 0 is (+Inf") {
		t.Errorf("ASCII: %v", e)
	}
}

func TestASCIIErrors(t *testing.T) {
	good := string(encode(t, &stl.Solid{Name: "t", Triangles: cubeSolid().Triangles[:2]}, true))
	for _, c := range []struct {
		src  string
		line int
		want string
	}{
		{strings.Replace(good, "vertex", "vertx", 1), 4, `"vertex" expected`},
		{strings.Replace(good, "outer loop", "outer", 1), 0, "expected"},
		{strings.Replace(good, "endsolid t", "", 1), 0, `"endsolid" expected`},
		{"solid x\nfacet normal 0 0 1\n outer loop\n vertex 1 2 banana\n", 4, "Unable to parse float"},
		{"solid x\nfacet normal 0 0 1\n outer loop\n vertex 1 2 1e39\n", 4, "Unable to parse float"},
		{"solidx\nendsolid\n", 1, `must start with "solid "`},
	} {
		e := readError(t, []byte(c.src))
		if (c.line > 0 && e.Line != c.line) || !strings.Contains(e.Error(), c.want) || !strings.Contains(e.Error(), "ASCII STL") {
			t.Errorf("%.30q: error %q on line %d, want %q on line %d", c.src, e, e.Line, c.want, c.line)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	for _, c := range []struct {
		e    FormatError
		want string
	}{
		{FormatError{Triangle: 3, Offset: 234, Msg: "m"}, "stl: triangle 3 (byte 234): m"},
		{FormatError{Triangle: 3, Offset: -1, Msg: "m"}, "stl: triangle 3: m"},
		{FormatError{Triangle: -1, Offset: 80, Msg: "m"}, "stl: byte 80: m"},
		{FormatError{Triangle: -1, Offset: -1, Line: 7, Msg: "m"}, "stl: line 7: m"},
		{FormatError{Triangle: -1, Offset: -1, Msg: "m"}, "stl: m"},
	} {
		if s := c.e.Error(); s != c.want {
			t.Errorf("%q, want %q", s, c.want)
		}
	}
}

// failSeeker fails every Seek.
type failSeeker struct{ bytes.Reader }

var errSeek = errors.New("not seekable")

func (*failSeeker) Seek(int64, int) (int64, error) { return 0, errSeek }

func TestSeekFailure(t *testing.T) {
	_, err := Read(&failSeeker{})
	var fe *FormatError
	if !errors.Is(err, errSeek) || errors.As(err, &fe) {
		t.Errorf("error %v", err)
	}
}
