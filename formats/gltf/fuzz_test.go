package gltf

import (
	"bytes"
	"errors"
	"testing"
	"testing/fstest"

	"snowtools/levelset/geom"
)

// FuzzDecode feeds arbitrary bytes to Decode (with a folder holding one external
// buffer). It must never panic or allocate without bound; every error must be a
// *FormatError; an accepted scene must evaluate, at the rest pose and at the
// start, middle and end of every clip, to valid meshes of one topology or to a
// *FormatError.
func FuzzDecode(f *testing.F) {
	for _, d := range fuzzSeeds() {
		f.Add(d.bytes(f))
	}
	f.Add(glbSeed(f))
	f.Add([]byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"a.bin","byteLength":36}],"bufferViews":[{"buffer":0,"byteLength":36}],"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],"nodes":[{"mesh":0}]}`))
	fsys := fstest.MapFS{"a.bin": {Data: f32bytes(0, 0, 0, 1, 0, 0, 0, 1, 0)}}

	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode(bytes.NewReader(data), fsys, "fuzz.gltf")
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T) is not a *FormatError", err, err)
			}
			return
		}
		if s.VertexCount() > 1<<16 {
			return // legitimate instancing of big meshes; evaluating it is slow, not wrong
		}
		var first *geom.Mesh
		check := func(clip int, time float64) {
			m, err := s.Mesh(clip, time)
			if err != nil {
				var fe *FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("Mesh(%d, %g): error %v (%T) is not a *FormatError", clip, time, err, err)
				}
				return
			}
			if err := m.Validate(); err != nil {
				t.Fatalf("Mesh(%d, %g): %v", clip, time, err)
			}
			if first == nil {
				first = m
			} else if err := geom.SameTopology(first, m); err != nil {
				t.Fatalf("Mesh(%d, %g): topology changes: %v", clip, time, err)
			}
		}
		check(-1, 0)
		for i, c := range s.Clips() {
			check(i, c.Start)
			check(i, (c.Start+c.End)/2)
			check(i, c.End)
		}
	})
}

// fuzzSeeds are small documents that reach every part of the reader.
func fuzzSeeds() []*doc {
	tri := triangleDoc()

	sparse := triangleDoc()
	iv := sparse.view([]byte{2})
	vv := sparse.view(f32bytes(5, 5, 0))
	sparse.accessors[0]["sparse"] = map[string]any{"count": 1,
		"indices": map[string]any{"bufferView": iv, "componentType": 5121}, "values": map[string]any{"bufferView": vv}}

	strip := triangleDoc()
	prim0(strip)["mode"] = 5

	skin := triangleDoc()
	skin.accessor("VEC4", 5121, 3, make([]byte, 12))
	w := skin.accessor("VEC4", 5121, 3, []byte{255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0})
	w["normalized"] = true
	attr := prim0(skin)["attributes"].(map[string]any)
	attr["JOINTS_0"], attr["WEIGHTS_0"] = 2, 3
	skin.floats("SCALAR", 0, 1)
	skin.floats("VEC4", 0, 0, 0, 1, 0, 0, 1, 0)
	skin.json["nodes"] = []any{map[string]any{"mesh": 0, "skin": 0}, map[string]any{"children": []int{2}}, map[string]any{}}
	skin.json["scenes"] = []any{map[string]any{"nodes": []int{0, 1}}}
	skin.json["skins"] = []any{map[string]any{"joints": []int{1, 2}}}
	skin.json["animations"] = []any{map[string]any{
		"samplers": []any{map[string]any{"input": 4, "output": 5}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 2, "path": "rotation"}}},
	}}

	morph := triangleDoc()
	morph.floats("VEC3", 0, 0, 0, 0, 0, 0, 1, 1, 0)
	prim0(morph)["targets"] = []any{map[string]any{"POSITION": 2}}
	morph.floats("SCALAR", 0, 1)
	morph.floats("SCALAR", 0, 1)
	morph.json["animations"] = []any{map[string]any{
		"samplers": []any{map[string]any{"input": 3, "output": 4, "interpolation": "STEP"}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 0, "path": "weights"}}},
	}}

	return []*doc{
		tri, sparse, strip, skin, morph,
		animDoc("translation", "CUBICSPLINE", []float32{0, 1}, "VEC3", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0),
		animDoc("scale", "LINEAR", []float32{0, 1}, "VEC3", 1, 1, 1, 2, 2, 2),
	}
}

// glbSeed is the triangle document as a GLB.
func glbSeed(t testing.TB) []byte {
	d := triangleDoc()
	bin := d.bin
	d.bin = nil
	d.json["buffers"] = []any{map[string]any{"byteLength": len(bin)}}
	d.json["bufferViews"] = d.views
	d.json["accessors"] = d.accessors
	d.views, d.accessors = nil, nil
	js := d.bytes(t)
	for len(js)%4 != 0 {
		js = append(js, ' ')
	}
	var b bytes.Buffer
	put := func(v ...uint32) {
		for _, x := range v {
			b.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)})
		}
	}
	put(0x46546c67, 2, uint32(12+8+len(js)+8+len(bin)), uint32(len(js)), 0x4e4f534a)
	b.Write(js)
	put(uint32(len(bin)), 0x004e4942)
	b.Write(bin)
	return b.Bytes()
}
