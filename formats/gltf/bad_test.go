package gltf

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// prim0 returns the first primitive of the first mesh of d.
func prim0(d *doc) map[string]any {
	return d.json["meshes"].([]any)[0].(map[string]any)["primitives"].([]any)[0].(map[string]any)
}

func TestBadInput(t *testing.T) {
	nan := math.Float32frombits(0x7fc00000)
	for _, tc := range []struct {
		name, where, msg string
		doc              func() *doc
	}{
		{"huge count", "accessors[0]", "count 1000000000000 does not fit", func() *doc {
			d := triangleDoc()
			d.accessors[0]["count"] = 1e12
			return d
		}},
		{"count past the view", "accessors[0]", "room for 3 elements", func() *doc {
			d := triangleDoc()
			d.accessors[0]["count"] = 4
			return d
		}},
		{"byteOffset past the view", "accessors[0]", "byteOffset", func() *doc {
			d := triangleDoc()
			d.accessors[0]["byteOffset"] = 100
			return d
		}},
		{"view past the buffer", "bufferViews[0]", "do not fit in buffers[0]", func() *doc {
			d := triangleDoc()
			d.views[0]["byteLength"] = 1 << 40
			return d
		}},
		{"stride shorter than element", "bufferViews[0]", "byteStride 4", func() *doc {
			d := triangleDoc()
			d.views[0]["byteStride"] = 4
			return d
		}},
		{"zero-based count too large", "accessors[0]", "without a bufferView exceeds", func() *doc {
			d := triangleDoc()
			delete(d.accessors[0], "bufferView")
			d.accessors[0]["count"] = 1 << 40
			return d
		}},
		{"huge sparse count", "accessors[0]", "sparse.count", func() *doc {
			d := triangleDoc()
			d.accessors[0]["sparse"] = map[string]any{"count": 1e12,
				"indices": map[string]any{"bufferView": 1, "componentType": 5123}, "values": map[string]any{"bufferView": 0}}
			return d
		}},
		{"sparse past its view", "accessors[0]", "sparse.indices", func() *doc {
			d := triangleDoc()
			d.accessors[0]["sparse"] = map[string]any{"count": 3,
				"indices": map[string]any{"bufferView": 1, "componentType": 5123, "byteOffset": 2}, "values": map[string]any{"bufferView": 0}}
			return d
		}},
		{"sparse index not increasing", "accessors[0]", "not increasing", func() *doc {
			d := triangleDoc()
			iv := d.view(u16bytes(1, 1))
			d.accessors[0]["sparse"] = map[string]any{"count": 2,
				"indices": map[string]any{"bufferView": iv, "componentType": 5123}, "values": map[string]any{"bufferView": 0}}
			return d
		}},
		{"cycle", "nodes[", "cyclic", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0}, map[string]any{"children": []int{2}}, map[string]any{"children": []int{1}}}
			return d
		}},
		{"own child", "nodes[0].children[0]", "its own child", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "children": []int{0}}}
			return d
		}},
		{"two parents", "nodes[2].children[0]", "reachable twice", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0}, map[string]any{"children": []int{0}}, map[string]any{"children": []int{0}}}
			d.json["scenes"] = []any{map[string]any{"nodes": []int{1, 2}}}
			return d
		}},
		{"scene root is a child", "scenes[0].nodes[1]", "not a root", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0}, map[string]any{"children": []int{0}}}
			d.json["scenes"] = []any{map[string]any{"nodes": []int{1, 0}}}
			return d
		}},
		{"dangling child", "nodes[0].children[0]", "node 7 does not exist", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "children": []int{7}}}
			return d
		}},
		{"dangling scene node", "scenes[0].nodes[0]", "node 3 does not exist", func() *doc {
			d := triangleDoc()
			d.json["scenes"] = []any{map[string]any{"nodes": []int{3}}}
			return d
		}},
		{"dangling scene", "scene", "scene 2 does not exist", func() *doc {
			d := triangleDoc()
			d.json["scene"] = 2
			return d
		}},
		{"dangling mesh", "nodes[0].mesh", "mesh 5 does not exist", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 5}}
			return d
		}},
		{"dangling accessor", "attributes.POSITION", "accessor 9 does not exist", func() *doc {
			d := triangleDoc()
			prim0(d)["attributes"] = map[string]any{"POSITION": 9}
			return d
		}},
		{"dangling bufferView", "accessors[0].bufferView", "bufferView 9 does not exist", func() *doc {
			d := triangleDoc()
			d.accessors[0]["bufferView"] = 9
			return d
		}},
		{"dangling buffer", "bufferViews[0]", "buffer 3 does not exist", func() *doc {
			d := triangleDoc()
			d.views[0]["buffer"] = 3
			return d
		}},
		{"dangling skin", "nodes[0].skin", "skin 2 does not exist", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "skin": 2}}
			return d
		}},
		{"dangling joint", "skins[0].joints[0]", "node 9 does not exist", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "skin": 0}}
			d.json["skins"] = []any{map[string]any{"joints": []int{9}}}
			return d
		}},
		{"skin without joints attribute", "meshes[0].primitives[0]", "no JOINTS_0", func() *doc {
			d := triangleDoc()
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "skin": 0}}
			d.json["skins"] = []any{map[string]any{"joints": []int{0}}}
			return d
		}},
		{"joint index past the skin", "meshes[0].primitives[0]", "joint 3 is outside the 1 joints", func() *doc {
			d := triangleDoc()
			d.accessor("VEC4", 5121, 3, []byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
			d.floats("VEC4", 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)
			prim0(d)["attributes"].(map[string]any)["JOINTS_0"] = 2
			prim0(d)["attributes"].(map[string]any)["WEIGHTS_0"] = 3
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "skin": 0}}
			d.json["skins"] = []any{map[string]any{"joints": []int{0}}}
			return d
		}},
		{"index past the vertices", "meshes[0].primitives[0].indices", "index 5 at position 2 is outside the 3 vertices", func() *doc {
			d := triangleDoc()
			d.accessors[1]["bufferView"] = d.view(u16bytes(0, 1, 5))
			return d
		}},
		{"NaN position", "accessors[0]", "NaN", func() *doc {
			d := triangleDoc()
			d.accessors[0]["bufferView"] = d.view(f32bytes(0, 0, 0, 1, nan, 0, 0, 1, 0))
			return d
		}},
		{"infinite position", "accessors[0]", "+Inf", func() *doc {
			d := triangleDoc()
			d.accessors[0]["bufferView"] = d.view(f32bytes(0, 0, 0, 1, float32(math.Inf(1)), 0, 0, 1, 0))
			return d
		}},
		{"NaN animation key", "accessors[3]", "NaN", func() *doc {
			return animDoc("translation", "LINEAR", []float32{0, 1}, "VEC3", 0, 0, 0, nan, 0, 0)
		}},
		{"no triangles", "", "no triangle meshes", func() *doc {
			d := triangleDoc()
			prim0(d)["mode"] = 1
			return d
		}},
		{"POSITION not VEC3", "accessors[0]", "type VEC2, expected VEC3", func() *doc {
			d := triangleDoc()
			d.accessors[0]["type"] = "VEC2"
			return d
		}},
		{"POSITION not float", "accessors[0]", "componentType 5123", func() *doc {
			d := triangleDoc()
			d.accessors[0]["componentType"] = 5123
			return d
		}},
		{"indices float", "accessors[2]", "componentType 5126", func() *doc {
			d := triangleDoc()
			prim0(d)["indices"] = d.floats("SCALAR", 0, 1, 2)
			return d
		}},
		{"triangle count not a multiple of 3", "meshes[0].primitives[0]", "not a multiple of 3", func() *doc {
			d := triangleDoc()
			d.accessors[1]["bufferView"] = d.view(u16bytes(0, 1, 2, 0))
			d.accessors[1]["count"] = 4
			return d
		}},
		{"times not increasing", "animations[0].samplers[0]", "increase strictly", func() *doc {
			return animDoc("translation", "LINEAR", []float32{0, 1, 1}, "VEC3", 0, 0, 0, 1, 0, 0, 2, 0, 0)
		}},
		{"cubic with one key", "animations[0].samplers[0]", "at least 2 keys", func() *doc {
			return animDoc("translation", "CUBICSPLINE", []float32{0}, "VEC3", 0, 0, 0, 1, 0, 0, 0, 0, 0)
		}},
		{"cubic output count", "animations[0].samplers[0]", "expected 18", func() *doc {
			return animDoc("translation", "CUBICSPLINE", []float32{0, 1}, "VEC3", 0, 0, 0, 1, 0, 0)
		}},
		{"rotation output VEC3", "accessors[3]", "expected VEC4", func() *doc {
			return animDoc("rotation", "LINEAR", []float32{0, 1}, "VEC3", 0, 0, 0, 1, 0, 0)
		}},
		{"dangling sampler", "animations[0].channels[0].sampler", "sampler 3 does not exist", func() *doc {
			d := animDoc("translation", "LINEAR", []float32{0}, "VEC3", 0, 0, 0)
			d.json["animations"].([]any)[0].(map[string]any)["channels"] = []any{
				map[string]any{"sampler": 3, "target": map[string]any{"node": 0, "path": "translation"}}}
			return d
		}},
		{"dangling channel node", "animations[0].channels[0].target.node", "node 4 does not exist", func() *doc {
			d := animDoc("translation", "LINEAR", []float32{0}, "VEC3", 0, 0, 0)
			d.json["animations"].([]any)[0].(map[string]any)["channels"] = []any{
				map[string]any{"sampler": 0, "target": map[string]any{"node": 4, "path": "translation"}}}
			return d
		}},
		{"weights without targets", "animations[0].channels[0].target.node", "no morph targets", func() *doc {
			return animDoc("weights", "LINEAR", []float32{0}, "SCALAR", 0)
		}},
		{"animated matrix node", "animations[0].channels[0].target.node", "has a matrix", func() *doc {
			d := animDoc("translation", "LINEAR", []float32{0}, "VEC3", 0, 0, 0)
			d.json["nodes"] = []any{map[string]any{"mesh": 0, "matrix": []float64{2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}}}
			return d
		}},
		{"required draco", "extensionsRequired", "KHR_draco_mesh_compression", func() *doc {
			d := triangleDoc()
			d.json["extensionsRequired"] = []string{"KHR_draco_mesh_compression"}
			d.json["extensionsUsed"] = []string{"KHR_draco_mesh_compression"}
			return d
		}},
		{"external buffer without a folder", "buffers[0]", "no folder", func() *doc {
			d := newDoc()
			d.json["buffers"] = []any{map[string]any{"uri": "mesh.bin", "byteLength": 36}}
			return d
		}},
		{"absolute buffer path", "buffers[0]", "", func() *doc {
			d := newDoc()
			d.json["buffers"] = []any{map[string]any{"uri": "/etc/passwd", "byteLength": 36}}
			return d
		}},
		{"http buffer", "buffers[0]", "only relative file names", func() *doc {
			d := newDoc()
			d.json["buffers"] = []any{map[string]any{"uri": "https://example.com/a.bin", "byteLength": 36}}
			return d
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.doc()
			_, err := Decode(bytes.NewReader(d.bytes(t)), nil, "bad.gltf")
			if err == nil {
				t.Fatal("accepted")
			}
			t.Log(err)
			wantFormatError(t, err, tc.where, tc.msg)
			if !strings.HasPrefix(err.Error(), "gltf: bad.gltf: ") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

// TestHugeCountFailsFast checks that a count of 1e12 is refused before any
// allocation of its size: quickly and with little memory.
func TestHugeCountFailsFast(t *testing.T) {
	d := triangleDoc()
	d.accessors[0]["count"] = 1e12
	d.accessors[1]["count"] = 1e12
	b := d.bytes(t)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Decode(bytes.NewReader(b), nil, "huge.gltf")
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	wantFormatError(t, err, "accessors[0]", "does not fit")
	if elapsed > time.Second {
		t.Errorf("took %v", elapsed)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes", grew)
	}
}

// TestOverflowAfterEvaluation checks that positions that only become infinite
// when transforms combine are reported by Mesh.
func TestOverflowAfterEvaluation(t *testing.T) {
	d := triangleDoc()
	d.json["nodes"] = []any{
		map[string]any{"scale": []float64{1e300, 1e300, 1e300}, "children": []int{1}},
		map[string]any{"mesh": 0, "scale": []float64{1e300, 1e300, 1e300}},
	}
	d.json["scenes"] = []any{map[string]any{"nodes": []int{0}}}
	s := decodeDoc(t, d)
	_, err := s.Mesh(-1, 0)
	wantFormatError(t, err, "nodes", "not finite")
}

func TestBadContainers(t *testing.T) {
	glb := func(version uint32, json []byte, bin []byte) []byte {
		for len(json)%4 != 0 {
			json = append(json, ' ')
		}
		var b bytes.Buffer
		total := 12 + 8 + len(json)
		if bin != nil {
			total += 8 + len(bin)
		}
		for _, v := range []uint32{0x46546c67, version, uint32(total), uint32(len(json)), 0x4e4f534a} {
			binary.Write(&b, binary.LittleEndian, v)
		}
		b.Write(json)
		if bin != nil {
			binary.Write(&b, binary.LittleEndian, uint32(len(bin)))
			binary.Write(&b, binary.LittleEndian, uint32(0x004e4942))
			b.Write(bin)
		}
		return b.Bytes()
	}
	d := triangleDoc()
	bin := d.bin
	d.bin = nil
	js := d.bytes(t)
	js = append(js[:len(js)-1], []byte(`,"buffers":[{"byteLength":`+itoa(len(bin))+`}],"bufferViews":`)...)
	vj, _ := jsonMarshal(d.views)
	aj, _ := jsonMarshal(d.accessors)
	js = append(js, vj...)
	js = append(js, `,"accessors":`...)
	js = append(js, aj...)
	js = append(js, '}')

	good := glb(2, js, bin)
	s, err := Decode(bytes.NewReader(good), nil, "good.glb")
	if err != nil {
		t.Fatalf("valid GLB: %v", err)
	}
	if s.VertexCount() != 3 {
		t.Fatalf("%d vertices", s.VertexCount())
	}
	for name, b := range map[string][]byte{
		"version 1":     glb(1, js, bin),
		"truncated BIN": good[:len(good)-5],
		"no BIN chunk":  glb(2, js, nil),
		"not JSON":      []byte("glTF but not really"),
		"empty":         nil,
		"JSON no asset": []byte(`{"nodes":[]}`),
	} {
		_, err := Decode(bytes.NewReader(b), nil, name)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		wantFormatError(t, err, "", name)
	}
	_, err = Open(filepath.Join(t.TempDir(), "missing.glb"))
	wantFormatError(t, err, "", "cannot open")
}

// TestExternalBuffers reads a .gltf with a .bin beside it, and refuses buffers
// that lie outside the folder, by "../" or through a symbolic link.
func TestExternalBuffers(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "scene")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	d := triangleDoc()
	bin := d.bin
	write := func(path string, b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gltfWith := func(uri string) string {
		d.bin = nil
		js := d.bytes(t)
		vj, _ := jsonMarshal(d.views)
		aj, _ := jsonMarshal(d.accessors)
		js = append(js[:len(js)-1], []byte(`,"buffers":[{"byteLength":`+itoa(len(bin))+`,"uri":"`+uri+`"}],"bufferViews":`)...)
		js = append(js, vj...)
		js = append(js, `,"accessors":`...)
		js = append(js, aj...)
		js = append(js, '}')
		path := filepath.Join(dir, "a.gltf")
		write(path, js)
		return path
	}
	write(filepath.Join(dir, "mesh data.bin"), bin)
	write(filepath.Join(top, "outside.bin"), bin)

	s, err := Open(gltfWith("mesh%20data.bin"))
	if err != nil {
		t.Fatalf("buffer beside the file: %v", err)
	}
	if m := mesh(t, s, -1, 0); m.Positions[1] != [3]float64{1, 0, 0} {
		t.Errorf("vertex 1 = %v", m.Positions[1])
	}

	_, err = Open(gltfWith("../outside.bin"))
	wantFormatError(t, err, "buffers[0]", "outside the folder")

	_, err = Open(gltfWith("sub/../../outside.bin"))
	wantFormatError(t, err, "buffers[0]", "outside the folder")

	_, err = Open(gltfWith(filepath.ToSlash(filepath.Join(top, "outside.bin"))))
	wantFormatError(t, err, "buffers[0]", "")

	_, err = Open(gltfWith("missing.bin"))
	wantFormatError(t, err, "buffers[0]", "cannot read external buffer")

	if err := os.Symlink(filepath.Join(top, "outside.bin"), filepath.Join(dir, "link.bin")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	_, err = Open(gltfWith("link.bin"))
	wantFormatError(t, err, "buffers[0]", "cannot read external buffer")

	write(filepath.Join(dir, "short.bin"), bin[:10])
	_, err = Open(gltfWith("short.bin"))
	wantFormatError(t, err, "buffers[0]", "holds 10 bytes")
}
