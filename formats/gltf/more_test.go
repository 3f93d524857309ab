package gltf

import (
	"bytes"
	"sync"
	"testing"

	"snowtools/levelset/geom"
)

func TestMorphWeightPrecedence(t *testing.T) {
	// Target 0 moves vertex 2 by (1,0,0). mesh.weights = 0.25, node.weights = 0.5:
	// the node's win (2 -> (0.5,1,0)); without either, weight 0.
	d := triangleDoc()
	d.floats("VEC3", 0, 0, 0, 0, 0, 0, 1, 0, 0)
	prim0(d)["targets"] = []any{map[string]any{"POSITION": 2}}
	d.json["meshes"].([]any)[0].(map[string]any)["weights"] = []float64{0.25}
	near(t, "mesh weights", mesh(t, decodeDoc(t, d), -1, 0).Positions[2], geom.Vec3{0.25, 1, 0}, 0)
	d.json["nodes"] = []any{map[string]any{"mesh": 0, "weights": []float64{0.5}}}
	near(t, "node weights", mesh(t, decodeDoc(t, d), -1, 0).Positions[2], geom.Vec3{0.5, 1, 0}, 0)
	delete(d.json["meshes"].([]any)[0].(map[string]any), "weights")
	d.json["nodes"] = []any{map[string]any{"mesh": 0}}
	near(t, "no weights", mesh(t, decodeDoc(t, d), -1, 0).Positions[2], geom.Vec3{0, 1, 0}, 0)
	d.json["nodes"] = []any{map[string]any{"mesh": 0, "weights": []float64{0.5, 1}}}
	_, err := Decode(bytes.NewReader(d.bytes(t)), nil, "bad.gltf")
	wantFormatError(t, err, "nodes[0].weights", "2 weights for 1 morph targets")
}

func TestMeshQuantization(t *testing.T) {
	// KHR_mesh_quantization allows integer positions: UNSIGNED_SHORT (0,0,0),
	// (2,0,0), (0,2,0) read as those numbers. Without the extension they are
	// refused.
	d := triangleDoc()
	d.accessors[0]["componentType"] = 5123
	d.accessors[0]["bufferView"] = d.view(u16bytes(0, 0, 0, 2, 0, 0, 0, 2, 0))
	_, err := Decode(bytes.NewReader(d.bytes(t)), nil, "q.gltf")
	wantFormatError(t, err, "accessors[0]", "expected FLOAT")
	d.json["extensionsUsed"] = []string{"KHR_mesh_quantization"}
	d.json["extensionsRequired"] = []string{"KHR_mesh_quantization"}
	near(t, "vertex 1", mesh(t, decodeDoc(t, d), -1, 0).Positions[1], geom.Vec3{2, 0, 0}, 0)
}

// TestConcurrentMesh evaluates frames from several goroutines (run with -race):
// voxelize may work on several frames at once.
func TestConcurrentMesh(t *testing.T) {
	s := decodeDoc(t, animDoc("translation", "LINEAR", []float32{0, 1}, "VEC3", 0, 0, 0, 1, 0, 0))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				tm := float64((g+i)%11) / 10
				m, err := s.Mesh(0, tm)
				if err != nil {
					t.Error(err)
					return
				}
				if m.Positions[0][0] != tm {
					t.Errorf("t = %g: vertex 0 at %v", tm, m.Positions[0])
					return
				}
			}
		}()
	}
	wg.Wait()
}
