package gltf

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"snowtools/levelset/geom"
	"snowtools/levelset/sharedtest"
)

// doc builds a glTF document in a test: one buffer, embedded as a data: URI,
// holding the bytes of every accessor added, and free-form JSON for the rest.
type doc struct {
	bin       []byte
	views     []map[string]any
	accessors []map[string]any
	json      map[string]any // top-level properties other than buffers, views, accessors
}

func newDoc() *doc { return &doc{json: map[string]any{"asset": map[string]any{"version": "2.0"}}} }

// view appends data (padded to 4 bytes) as a new bufferView and returns its index.
func (d *doc) view(data []byte) int {
	for len(d.bin)%4 != 0 {
		d.bin = append(d.bin, 0)
	}
	d.views = append(d.views, map[string]any{"buffer": 0, "byteOffset": len(d.bin), "byteLength": len(data)})
	d.bin = append(d.bin, data...)
	return len(d.views) - 1
}

// accessor adds an accessor reading data through a new bufferView; extra
// properties (normalized, sparse, ...) may be set on the returned map.
func (d *doc) accessor(typ string, componentType, count int, data []byte) map[string]any {
	a := map[string]any{"bufferView": d.view(data), "componentType": componentType, "count": count, "type": typ}
	d.accessors = append(d.accessors, a)
	return a
}

// floats adds a FLOAT accessor of the given type and returns its index.
func (d *doc) floats(typ string, v ...float32) int {
	n := map[string]int{"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[typ]
	d.accessor(typ, 5126, len(v)/n, f32bytes(v...))
	return len(d.accessors) - 1
}

// u16s adds an UNSIGNED_SHORT accessor and returns its index.
func (d *doc) u16s(typ string, v ...uint16) int {
	n := map[string]int{"SCALAR": 1, "VEC4": 4}[typ]
	d.accessor(typ, 5123, len(v)/n, u16bytes(v...))
	return len(d.accessors) - 1
}

func f32bytes(v ...float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func u16bytes(v ...uint16) []byte {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], x)
	}
	return b
}

// bytes returns the document as .gltf JSON.
func (d *doc) bytes(t testing.TB) []byte {
	m := map[string]any{}
	for k, v := range d.json {
		m[k] = v
	}
	if len(d.bin) > 0 {
		m["buffers"] = []any{map[string]any{
			"byteLength": len(d.bin),
			"uri":        "data:application/octet-stream;base64," + base64.StdEncoding.EncodeToString(d.bin),
		}}
	}
	if len(d.views) > 0 {
		m["bufferViews"] = d.views
	}
	if len(d.accessors) > 0 {
		m["accessors"] = d.accessors
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// triangleDoc is a unit right triangle (0,0,0), (1,0,0), (0,1,0) drawn by node 0
// with indices 0, 1, 2: accessor 0 is POSITION, accessor 1 the indices.
func triangleDoc() *doc {
	d := newDoc()
	d.floats("VEC3", 0, 0, 0, 1, 0, 0, 0, 1, 0)
	d.u16s("SCALAR", 0, 1, 2)
	d.json["meshes"] = []any{map[string]any{"primitives": []any{
		map[string]any{"attributes": map[string]any{"POSITION": 0}, "indices": 1},
	}}}
	d.json["nodes"] = []any{map[string]any{"mesh": 0}}
	d.json["scenes"] = []any{map[string]any{"nodes": []int{0}}}
	d.json["scene"] = 0
	return d
}

// decodeDoc decodes d, failing the test on error.
func decodeDoc(t testing.TB, d *doc) *Scene {
	t.Helper()
	s, err := Decode(bytes.NewReader(d.bytes(t)), nil, "test.gltf")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mesh evaluates s, failing the test on error.
func mesh(t testing.TB, s *Scene, clip int, time float64) *geom.Mesh {
	t.Helper()
	m, err := s.Mesh(clip, time)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// near fails the test unless got and want agree to tol in every component.
func near(t testing.TB, what string, got, want geom.Vec3, tol float64) {
	t.Helper()
	for i := range got {
		if !(math.Abs(got[i]-want[i]) <= tol) {
			t.Errorf("%s = %v, want %v (tolerance %g)", what, got, want, tol)
			return
		}
	}
}

// wantFormatError fails the test unless err is a *FormatError whose Where
// contains where and whose message contains msg.
func wantFormatError(t testing.TB, err error, where, msg string) {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	if !strings.Contains(fe.Where, where) || !strings.Contains(fe.Error(), msg) {
		t.Fatalf("error %q: want Where containing %q and a message containing %q", fe.Error(), where, msg)
	}
}

// openAsset opens ../shared/assets/name. Without it the test skips with a message, or
// fails when SNOWTOOLS_REQUIRE_SHARED is set (package sharedtest).
func openAsset(t testing.TB, name string) *Scene {
	t.Helper()
	s, err := Open(sharedtest.Asset(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func itoa(i int) string { return strconv.Itoa(i) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
