package gltf

import (
	"math"
	"strings"
	"testing"

	"snowtools/levelset/geom"
)

func TestSparseAccessor(t *testing.T) {
	// POSITION of the triangle with a sparse override: vertex 2 becomes (5,5,0)
	// (u8 index 2, one FLOAT VEC3 value).
	d := triangleDoc()
	iv := d.view([]byte{2})
	vv := d.view(f32bytes(5, 5, 0))
	d.accessors[0]["sparse"] = map[string]any{
		"count":   1,
		"indices": map[string]any{"bufferView": iv, "componentType": 5121},
		"values":  map[string]any{"bufferView": vv},
	}
	m := mesh(t, decodeDoc(t, d), -1, 0)
	near(t, "vertex 1", m.Positions[1], geom.Vec3{1, 0, 0}, 0)
	near(t, "vertex 2", m.Positions[2], geom.Vec3{5, 5, 0}, 0)

	// Without a bufferView the base is zeros: vertices 0 and 2 (u16 indices)
	// get values, vertex 1 stays at the origin.
	d = triangleDoc()
	iv = d.view(u16bytes(0, 2))
	vv = d.view(f32bytes(1, 2, 3, 4, 5, 6))
	delete(d.accessors[0], "bufferView")
	d.accessors[0]["sparse"] = map[string]any{
		"count":   2,
		"indices": map[string]any{"bufferView": iv, "componentType": 5123},
		"values":  map[string]any{"bufferView": vv},
	}
	m = mesh(t, decodeDoc(t, d), -1, 0)
	for i, want := range []geom.Vec3{{1, 2, 3}, {0, 0, 0}, {4, 5, 6}} {
		near(t, "zero-based sparse vertex", m.Positions[i], want, 0)
	}
}

func TestNormalizedIntegers(t *testing.T) {
	// Direct: the glTF 2.0 mapping of section 3.11.
	for _, tc := range []struct {
		ct   int
		b    []byte
		want float64
	}{
		{5121, []byte{255}, 1}, {5121, []byte{51}, 0.2}, {5121, []byte{0}, 0},
		{5120, []byte{127}, 1}, {5120, []byte{0x81}, -1}, {5120, []byte{0x80}, -1}, // -127 and -128 both -1
		{5123, u16bytes(65535), 1}, {5123, u16bytes(13107), 0.2},
		{5122, u16bytes(32767), 1}, {5122, u16bytes(0x8000), -1}, {5122, u16bytes(0xC001), -16383.0 / 32767},
	} {
		d := triangleDoc()
		a := d.accessor("SCALAR", tc.ct, 1, tc.b)
		a["normalized"] = true
		l := loaderFor(t, d)
		v, err := l.read(2, "test", 0, compNorm)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(v[0]-tc.want) > 1e-15 {
			t.Errorf("componentType %d bytes %v: %v, want %v", tc.ct, tc.b, v[0], tc.want)
		}
	}

	// In use: an i8-normalized morph target (127 -> +1), u8-normalized skin
	// weights (255, 0), and an i16-normalized rotation key (0, 0, 32767, 32767)
	// = 90° about z.
	d := triangleDoc()
	tg := d.accessor("VEC3", 5120, 3, []byte{0, 0, 0, 0, 0, 0, 127, 0x81, 0, 0, 0, 0})
	tg["normalized"] = true
	prim := d.json["meshes"].([]any)[0].(map[string]any)["primitives"].([]any)[0].(map[string]any)
	prim["targets"] = []any{map[string]any{"POSITION": 2}}
	d.json["meshes"].([]any)[0].(map[string]any)["weights"] = []float64{1}
	// Vertex 2 (0,1,0) + (1,-1,0) = (1,0,0).
	m := mesh(t, decodeDoc(t, d), -1, 0)
	near(t, "morphed vertex 2", m.Positions[2], geom.Vec3{1, 0, 0}, 0)

	d = triangleDoc()
	joints := d.accessor("VEC4", 5121, 3, make([]byte, 12)) // all joint 0
	_ = joints
	w := d.accessor("VEC4", 5121, 3, []byte{255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0})
	w["normalized"] = true
	prim = d.json["meshes"].([]any)[0].(map[string]any)["primitives"].([]any)[0].(map[string]any)
	prim["attributes"].(map[string]any)["JOINTS_0"] = 2
	prim["attributes"].(map[string]any)["WEIGHTS_0"] = 3
	q := d.accessor("VEC4", 5122, 1, u16bytes(0, 0, 32767, 32767))
	q["normalized"] = true
	d.floats("SCALAR", 0) // accessor 5: one key
	d.json["nodes"] = []any{
		map[string]any{"mesh": 0, "skin": 0, "translation": []float64{100, 0, 0}}, // ignored: skinned
		map[string]any{"rotation": []float64{0, 0, 1, 0}},                         // joint, animated
	}
	d.json["scenes"] = []any{map[string]any{"nodes": []int{0, 1}}}
	d.json["skins"] = []any{map[string]any{"joints": []int{1}}}
	d.json["animations"] = []any{map[string]any{
		"samplers": []any{map[string]any{"input": 5, "output": 4}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 1, "path": "rotation"}}},
	}}
	s := decodeDoc(t, d)
	// Rest: the joint turns 180° about z: (1,0,0) -> (-1,0,0). Animated: 90°.
	near(t, "skinned vertex 1 at rest", mesh(t, s, -1, 0).Positions[1], geom.Vec3{-1, 0, 0}, 1e-12)
	near(t, "skinned vertex 1", mesh(t, s, 0, 0).Positions[1], geom.Vec3{0, 1, 0}, 1e-12)
}

// loaderFor returns a loader over d's buffers, for testing accessors directly.
func loaderFor(t *testing.T, d *doc) *loader {
	t.Helper()
	doc, err := readDocument(strings.NewReader(string(d.bytes(t))), nil, "test.gltf")
	if err != nil {
		t.Fatal(err)
	}
	return &loader{doc: doc, file: "test.gltf", cache: map[int][]float64{}, budget: 1 << 20}
}

// animDoc is the triangle with node 0 animated by one sampler of the given
// interpolation, input times and output values.
func animDoc(path, interp string, times []float32, typ string, values ...float32) *doc {
	d := triangleDoc()
	in := d.floats("SCALAR", times...)
	out := d.floats(typ, values...)
	d.json["animations"] = []any{map[string]any{
		"name":     "anim",
		"samplers": []any{map[string]any{"input": in, "output": out, "interpolation": interp}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": path}}},
	}}
	return d
}

func TestStep(t *testing.T) {
	// STEP keys at 0, 1, 2 s with x = 0, 10, 20: the value of the last key at or
	// before t, clamped at both ends.
	s := decodeDoc(t, animDoc("translation", "STEP", []float32{0, 1, 2}, "VEC3", 0, 0, 0, 10, 0, 0, 20, 0, 0))
	for _, tc := range []struct{ t, x float64 }{{-1, 0}, {0, 0}, {0.999, 0}, {1, 10}, {1.5, 10}, {2, 20}, {9, 20}} {
		near(t, "STEP vertex 0", mesh(t, s, 0, tc.t).Positions[0], geom.Vec3{tc.x, 0, 0}, 0)
	}
}

func TestLinearAndCubicTranslation(t *testing.T) {
	// LINEAR: keys (0 s, x=0), (2 s, x=4): x(0.5) = 1.
	s := decodeDoc(t, animDoc("translation", "LINEAR", []float32{0, 2}, "VEC3", 0, 0, 0, 4, 0, 0))
	near(t, "LINEAR", mesh(t, s, 0, 0.5).Positions[0], geom.Vec3{1, 0, 0}, 1e-15)

	// CUBICSPLINE keys at 0 and 2 s (td = 2), x: v0 = 0, out-tangent b0 = 2,
	// in-tangent a1 = -2, v1 = 1. At s = 0.5 the Hermite basis is h00 = 0.5,
	// h10 = 0.125, h01 = 0.5, h11 = -0.125, so
	// x = 0.5*0 + 2*0.125*2 + 0.5*1 + 2*(-0.125)*(-2) = 1.5.
	s = decodeDoc(t, animDoc("translation", "CUBICSPLINE", []float32{0, 2}, "VEC3",
		9, 9, 9, 0, 0, 0, 2, 0, 0, // a0 (unused), v0, b0
		-2, 0, 0, 1, 0, 0, 9, 9, 9)) // a1, v1, b1 (unused)
	near(t, "CUBICSPLINE", mesh(t, s, 0, 1).Positions[0], geom.Vec3{1.5, 0, 0}, 1e-15)
	near(t, "CUBICSPLINE end", mesh(t, s, 0, 5).Positions[0], geom.Vec3{1, 0, 0}, 0)
}

func TestCubicRotationNormalized(t *testing.T) {
	// A CUBICSPLINE rotation from identity to 90° about z with zero tangents:
	// halfway the Hermite value is (0, 0, √½/2, (1+√½)/2), which must be
	// normalized: 45° about z.
	r := float32(math.Sqrt(0.5))
	s := decodeDoc(t, animDoc("rotation", "CUBICSPLINE", []float32{0, 1}, "VEC4",
		0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, r, r, 0, 0, 0, 0))
	c := math.Sqrt(0.5)
	near(t, "vertex 1", mesh(t, s, 0, 0.5).Positions[1], geom.Vec3{c, c, 0}, 1e-7)
}

func TestStripsAndFans(t *testing.T) {
	// Five vertices of a zigzag in the xy plane. Every triangle must face +z
	// (counter-clockwise seen from +z). pos, read through the indices 0,2,1,3,4,
	// gives the zigzag (0,0), (1,0), (0,1), (1,1), (0,2).
	pos := []float32{0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 2, 0}
	for _, tc := range []struct {
		mode    int
		indexed bool
		pos     []float32
		want    [][3]int32
	}{
		// Strip: triangle k is (k,k+1,k+2) for even k, (k,k+2,k+1) for odd k.
		{5, false, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0}, [][3]int32{{0, 1, 2}, {1, 3, 2}, {2, 3, 4}}},
		// Fan around vertex 0: (k+1, k+2, 0).
		{6, false, []float32{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, -1, 0.5, 0}, [][3]int32{{1, 2, 0}, {2, 3, 0}, {3, 4, 0}}},
		// Non-indexed TRIANGLES: consecutive triples.
		{4, false, []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0}, [][3]int32{{0, 1, 2}, {3, 4, 5}}},
		// Indexed strip with indices 0,2,1,3,4 over pos.
		{5, true, pos, [][3]int32{{0, 2, 1}, {2, 3, 1}, {1, 3, 4}}},
	} {
		d := newDoc()
		d.floats("VEC3", tc.pos...)
		p := map[string]any{"attributes": map[string]any{"POSITION": 0}, "mode": tc.mode}
		if tc.indexed {
			p["indices"] = d.u16s("SCALAR", 0, 2, 1, 3, 4)
		}
		d.json["meshes"] = []any{map[string]any{"primitives": []any{p}}}
		d.json["nodes"] = []any{map[string]any{"mesh": 0}}
		m := mesh(t, decodeDoc(t, d), -1, 0)
		if len(m.Triangles) != len(tc.want) {
			t.Fatalf("mode %d: triangles %v, want %v", tc.mode, m.Triangles, tc.want)
		}
		for i, tri := range m.Triangles {
			if tri != tc.want[i] {
				t.Errorf("mode %d indexed %v: triangle %d = %v, want %v", tc.mode, tc.indexed, i, tri, tc.want[i])
			}
			a, b, c := m.Positions[tri[0]], m.Positions[tri[1]], m.Positions[tri[2]]
			if n := b.Sub(a).Cross(c.Sub(a)); n[2] <= 0 {
				t.Errorf("mode %d: triangle %d %v faces %v, not +z", tc.mode, i, tri, n)
			}
		}
	}
}

func TestMatrixNodesAndInstances(t *testing.T) {
	// Node 0: matrix, column-major, scale 2 and translation (1,2,3); children 1
	// and 2 both draw the triangle: node 1 with translation (10,0,0), node 2 with
	// rotation 90° about z. World of vertex (1,0,0):
	//   node 1: 2*((1,0,0)+(10,0,0)) + (1,2,3) = (23, 2, 3)
	//   node 2: 2*(0,1,0) + (1,2,3) = (1, 4, 3)
	// A points primitive in the mesh is skipped; each node contributes a copy.
	d := triangleDoc()
	prims := d.json["meshes"].([]any)[0].(map[string]any)
	prims["primitives"] = append(prims["primitives"].([]any), map[string]any{"attributes": map[string]any{"POSITION": 0}, "mode": 0})
	r := math.Sqrt(0.5)
	d.json["nodes"] = []any{
		map[string]any{"matrix": []float64{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}, "children": []int{1, 2}},
		map[string]any{"mesh": 0, "translation": []float64{10, 0, 0}},
		map[string]any{"mesh": 0, "rotation": []float64{0, 0, r, r}},
	}
	m := mesh(t, decodeDoc(t, d), -1, 0)
	if len(m.Positions) != 6 || len(m.Triangles) != 2 {
		t.Fatalf("%d vertices, %d triangles; want 6, 2", len(m.Positions), len(m.Triangles))
	}
	near(t, "node 1 vertex 1", m.Positions[1], geom.Vec3{23, 2, 3}, 1e-12)
	near(t, "node 2 vertex 1", m.Positions[4], geom.Vec3{1, 4, 3}, 1e-12)
	if m.Triangles[1] != [3]int32{3, 4, 5} {
		t.Errorf("second copy's triangle %v, want [3 4 5]", m.Triangles[1])
	}
}

func TestClipsByName(t *testing.T) {
	// Two clips moving node 0 along x: "Walk" (0..1 s, to x=1) and "Run" (0.5..2 s,
	// to x=8).
	d := triangleDoc()
	d.floats("SCALAR", 0, 1)           // 2
	d.floats("VEC3", 0, 0, 0, 1, 0, 0) // 3
	d.floats("SCALAR", 0.5, 2)         // 4
	d.floats("VEC3", 0, 0, 0, 8, 0, 0) // 5
	clip := func(name string, in, out int) map[string]any {
		return map[string]any{
			"name":     name,
			"samplers": []any{map[string]any{"input": in, "output": out}},
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "translation"}}},
		}
	}
	d.json["animations"] = []any{clip("Walk", 2, 3), clip("Run", 4, 5)}
	s := decodeDoc(t, d)
	want := []Clip{{"Walk", 0, 1}, {"Run", 0.5, 2}}
	got := s.Clips()
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("clips %v, want %v", got, want)
	}
	i, err := s.ClipByName("Run")
	if err != nil || i != 1 {
		t.Fatalf("ClipByName(Run) = %d, %v", i, err)
	}
	near(t, "Run at 2 s", mesh(t, s, i, 2).Positions[0], geom.Vec3{8, 0, 0}, 0)
	near(t, "Walk at 2 s", mesh(t, s, 0, 2).Positions[0], geom.Vec3{1, 0, 0}, 0)
	if _, err := s.ClipByName("Fly"); err == nil || !strings.Contains(err.Error(), `"Walk", "Run"`) {
		t.Errorf("ClipByName(Fly) error %v should list the clips", err)
	}
	if _, err := s.Mesh(2, 0); err == nil {
		t.Error("clip 2 of 2 accepted")
	}
	if _, err := s.Mesh(0, math.NaN()); err == nil {
		t.Error("NaN time accepted")
	}
}

// AllClips plays every animation at once: one clip translating the node and one
// scaling it give both motions, as Blender's one-animation-per-action export means.
func TestAllClips(t *testing.T) {
	d := triangleDoc()
	d.floats("SCALAR", 0, 1)           // 2
	d.floats("VEC3", 0, 0, 0, 1, 0, 0) // 3: translation to x = 1
	d.floats("VEC3", 1, 1, 1, 2, 2, 2) // 4: scale to 2
	clip := func(name string, out int, path string) map[string]any {
		return map[string]any{
			"name":     name,
			"samplers": []any{map[string]any{"input": 2, "output": out}},
			"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": path}}},
		}
	}
	d.json["animations"] = []any{clip("Move", 3, "translation"), clip("Grow", 4, "scale")}
	s := decodeDoc(t, d)
	// Vertex 1 is (1, 0, 0): scaled by 2, then moved by 1 along x.
	near(t, "both at 1 s", mesh(t, s, AllClips, 1).Positions[1], geom.Vec3{3, 0, 0}, 1e-12)
	near(t, "Move alone", mesh(t, s, 0, 1).Positions[1], geom.Vec3{2, 0, 0}, 1e-12)
	near(t, "Grow alone", mesh(t, s, 1, 1).Positions[1], geom.Vec3{2, 0, 0}, 1e-12)
	near(t, "rest", mesh(t, s, RestPose, 1).Positions[1], geom.Vec3{1, 0, 0}, 0)
	if _, err := s.Mesh(-3, 0); err == nil {
		t.Error("clip -3 accepted")
	}
}

func TestSkinWeightSets(t *testing.T) {
	// Two joint sets: vertex 1 has weight 1 on joint 0 (set 0) and weight 3 on
	// joint 1 (set 1): normalized 0.25 and 0.75. Joint 0 is at rest, joint 1
	// translated by (4,0,0): (1,0,0) -> (1,0,0) + 0.75*(4,0,0) = (4,0,0).
	d := triangleDoc()
	j0 := d.accessor("VEC4", 5121, 3, make([]byte, 12))
	_ = j0
	d.accessor("VEC4", 5121, 3, []byte{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0})
	d.floats("VEC4", 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
	d.floats("VEC4", 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0)
	prim := d.json["meshes"].([]any)[0].(map[string]any)["primitives"].([]any)[0].(map[string]any)
	attr := prim["attributes"].(map[string]any)
	attr["JOINTS_0"], attr["JOINTS_1"], attr["WEIGHTS_0"], attr["WEIGHTS_1"] = 2, 3, 4, 5
	d.json["nodes"] = []any{
		map[string]any{"mesh": 0, "skin": 0},
		map[string]any{},
		map[string]any{"translation": []float64{4, 0, 0}},
	}
	d.json["scenes"] = []any{map[string]any{"nodes": []int{0, 1, 2}}}
	d.json["skins"] = []any{map[string]any{"joints": []int{1, 2}}}
	m := mesh(t, decodeDoc(t, d), -1, 0)
	near(t, "vertex 0", m.Positions[0], geom.Vec3{0, 0, 0}, 0)
	near(t, "vertex 1", m.Positions[1], geom.Vec3{4, 0, 0}, 1e-15)
}
