package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"snowtools/levelset/geom"
	"snowtools/levelset/limittest"
)

// writeClipGLTF writes a unit cube drawn by nodes nodes, the first moved 1 m along x
// by a clip named "Slide" whose keys are at 0 and end seconds.
func writeClipGLTF(path string, end float32, nodes int) error {
	m := geom.BoxMesh(geom.Vec3{}, geom.Vec3{1, 1, 1})
	var buf bytes.Buffer
	for _, p := range m.Positions {
		binary.Write(&buf, binary.LittleEndian, [3]float32{float32(p[0]), float32(p[1]), float32(p[2])})
	}
	for _, tri := range m.Triangles {
		binary.Write(&buf, binary.LittleEndian, [3]uint16{uint16(tri[0]), uint16(tri[1]), uint16(tri[2])})
	}
	times := buf.Len()
	binary.Write(&buf, binary.LittleEndian, [2]float32{0, end})
	moves := buf.Len()
	binary.Write(&buf, binary.LittleEndian, [6]float32{0, 0, 0, 1, 0, 0})
	nodeList, roots := make([]string, nodes), make([]string, nodes)
	for i := range nodes {
		nodeList[i], roots[i] = `{"mesh": 0}`, fmt.Sprint(i)
	}
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [%s]}], "nodes": [%s],
"meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
"accessors": [
 {"bufferView": 0, "componentType": 5126, "count": %d, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 1]},
 {"bufferView": 1, "componentType": 5123, "count": %d, "type": "SCALAR"},
 {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [%g]},
 {"bufferView": 3, "componentType": 5126, "count": 2, "type": "VEC3"}],
"bufferViews": [
 {"buffer": 0, "byteOffset": 0, "byteLength": %d},
 {"buffer": 0, "byteOffset": %d, "byteLength": %d},
 {"buffer": 0, "byteOffset": %d, "byteLength": 8},
 {"buffer": 0, "byteOffset": %d, "byteLength": 24}],
"animations": [{"name": "Slide", "samplers": [{"input": 2, "output": 3}], "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}],
"buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}]}`,
		strings.Join(roots, ","), strings.Join(nodeList, ","), len(m.Positions), 3*len(m.Triangles), end,
		12*len(m.Positions), 12*len(m.Positions), 6*len(m.Triangles), times, moves,
		buf.Len(), base64.StdEncoding.EncodeToString(buf.Bytes()))
	return os.WriteFile(path, []byte(doc), 0o644)
}

// hostileInputs are voxelize runs on crafted glTF files: the clip's end time, the
// nodes drawing the cube, the flags; the exit status and what the log must say.
var hostileInputs = map[string]struct {
	end   float32
	nodes int
	args  []string
	code  int
	want  []string
}{
	// Finding 1 of issue 24: main made a slot per frame, 2.4e10 of them, and ran out
	// of memory; a key at 3e38 s overflowed int(math.Floor(...)) and panicked.
	"clip of 1e9 s":                            {1e9, 1, nil, 1, []string{`(clip "Slide"): frames 0-24000000000 (0 s to 1e+09 s at 24 fps): 24000000001 frames, more than 1e+07: voxelize part of it with -frames A-B`}},
	"clip of 3e38 s":                           {3e38, 1, nil, 1, []string{`(clip "Slide"): ends at 3e+38 s, frame 7.2e+39 at 24 fps: frame numbers must stay below 9.01e+15`}},
	"clip of 3e38 s, 2 frames":                 {3e38, 1, []string{"-frames", "1-2"}, 1, []string{"frame numbers must stay below"}},
	"clip of 1e9 s, 2 frames":                  {1e9, 1, []string{"-frames", "1-2"}, 0, []string{"2 frames (1-2) of"}},
	"clip of 1e9 s, last 2 frames, renumbered": {1e9, 1, []string{"-start", "5", "-frames", "24000000004-24000000005"}, 0, []string{"2 frames (24000000004-24000000005)"}},
	"clip of 1e9 s, 1e12 frames":               {1e9, 1, []string{"-frames", "0-999999999999"}, 1, []string{"more than 1e+07"}},
	"frame slots over the budget":              {1e5, 1, []string{"-memory", "1M"}, 1, []string{"frames 0-2400000 (0 s to 100000 s at 24 fps) need about 54.9 MiB, more than the memory budget of 1 MiB (-memory 1M"}},
	// Finding 6: one mesh drawn by 20,000 nodes is 240,000 triangles to voxelize.
	"20,000 instances": {1, 20000, []string{"-memory", "100M"}, 1, []string{"240000 triangles (every mesh as often as the nodes draw it) need about 195 MiB, more than the memory budget of 100 MiB"}},
}

// Each hostile glTF stops with its error, or runs the frames selected, in a child
// process that peaks below 150 MB and ends within 60 s (measured: about 40-60 MB,
// under 0.3 s each).
func TestHostileGLTF(t *testing.T) {
	for name, c := range hostileInputs {
		t.Run(name, func(t *testing.T) {
			status, msgs, _ := limittest.Tool(t, limittest.Limits{RSS: 150 << 20, Time: time.Minute}, func(stderr io.Writer) int {
				dir, _ := os.MkdirTemp("", "voxelize-hostile")
				defer os.RemoveAll(dir)
				in := filepath.Join(dir, "clip.gltf")
				if err := writeClipGLTF(in, c.end, c.nodes); err != nil {
					panic(err)
				}
				args := append([]string{"-voxel", "0.25", "-fps", "24", "-o", filepath.Join(dir, "c.####.vdb")}, c.args...)
				return run(append(args, in), stderr)
			})
			if status != c.code {
				t.Errorf("exit %d (want %d): %s", status, c.code, msgs)
			}
			for _, want := range c.want {
				if !strings.Contains(msgs, want) {
					t.Errorf("%q does not say %q", msgs, want)
				}
			}
		})
	}
}
