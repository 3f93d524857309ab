package gltf

import "testing"

// BenchmarkMeshRiggedSimple measures one frame of a skinned, animated asset:
// sampling 3 channels, 5 world matrices, 2 joint matrices, 160 skinned vertices.
func BenchmarkMeshRiggedSimple(b *testing.B) {
	s := openAsset(b, "RiggedSimple.glb")
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := s.Mesh(0, float64(i%50)/24); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkMeshLarge measures per-frame cost per vertex on a synthetic 60k-vertex
// skinned mesh (two influences per vertex) with one animated joint.
func BenchmarkMeshLarge(b *testing.B) {
	const n = 60000
	d := newDoc()
	pos := make([]float32, 3*n)
	joints := make([]byte, 4*n)
	weights := make([]float32, 4*n)
	for v := range n {
		pos[3*v], pos[3*v+1] = float32(v%300), float32(v/300)
		joints[4*v+1] = 1
		weights[4*v], weights[4*v+1] = 0.5, 0.5
	}
	d.floats("VEC3", pos...)
	d.accessor("VEC4", 5121, n, joints)
	d.floats("VEC4", weights...)
	d.floats("SCALAR", 0, 1)
	d.floats("VEC4", 0, 0, 0, 1, 0, 0, 1, 0)
	d.json["meshes"] = []any{map[string]any{"primitives": []any{map[string]any{
		"attributes": map[string]any{"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "mode": 5}}}}
	d.json["nodes"] = []any{map[string]any{"mesh": 0, "skin": 0}, map[string]any{"children": []int{2}}, map[string]any{}}
	d.json["skins"] = []any{map[string]any{"joints": []int{1, 2}}}
	d.json["animations"] = []any{map[string]any{
		"samplers": []any{map[string]any{"input": 3, "output": 4}},
		"channels": []any{map[string]any{"sampler": 0, "target": map[string]any{"node": 2, "path": "rotation"}}},
	}}
	s := decodeDoc(b, d)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Mesh(0, 0.3); err != nil {
			b.Fatal(err)
		}
	}
}
