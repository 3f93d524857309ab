package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"snowtools/formats/vdb"
	"snowtools/levelset"
	"snowtools/levelset/geom"
)

// writeMeshGLTF writes m as a one-node glTF with its buffer in a data: URI: indexed
// (the positions once and a uint16 index list), or unindexed, each triangle's three
// corners as vertices of their own, as many exporters write a mesh.
func writeMeshGLTF(t *testing.T, path string, m *geom.Mesh, indexed bool) {
	t.Helper()
	positions := m.Positions
	if !indexed {
		positions = nil
		for _, tri := range m.Triangles {
			for _, v := range tri {
				positions = append(positions, m.Positions[v])
			}
		}
	}
	var buf bytes.Buffer
	lo, hi := [3]float32{}, [3]float32{}
	for i, p := range positions {
		for k := range 3 {
			x := float32(p[k])
			binary.Write(&buf, binary.LittleEndian, x)
			if i == 0 || x < lo[k] {
				lo[k] = x
			}
			if i == 0 || x > hi[k] {
				hi[k] = x
			}
		}
	}
	positionBytes := buf.Len()
	accessors := fmt.Sprintf(`{"bufferView": 0, "componentType": 5126, "count": %d, "type": "VEC3", "min": [%g, %g, %g], "max": [%g, %g, %g]}`,
		len(positions), lo[0], lo[1], lo[2], hi[0], hi[1], hi[2])
	views := fmt.Sprintf(`{"buffer": 0, "byteOffset": 0, "byteLength": %d}`, positionBytes)
	primitive := `{"attributes": {"POSITION": 0}}`
	if indexed {
		for _, tri := range m.Triangles {
			for _, v := range tri {
				binary.Write(&buf, binary.LittleEndian, uint16(v))
			}
		}
		accessors += fmt.Sprintf(`, {"bufferView": 1, "componentType": 5123, "count": %d, "type": "SCALAR"}`, 3*len(m.Triangles))
		views += fmt.Sprintf(`, {"buffer": 0, "byteOffset": %d, "byteLength": %d}`, positionBytes, buf.Len()-positionBytes)
		primitive = `{"attributes": {"POSITION": 0}, "indices": 1}`
	}
	doc := fmt.Sprintf(`{"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
"meshes": [{"primitives": [%s]}], "accessors": [%s], "bufferViews": [%s],
"buffers": [{"byteLength": %d, "uri": "data:application/octet-stream;base64,%s"}]}`,
		primitive, accessors, views, buf.Len(), base64.StdEncoding.EncodeToString(buf.Bytes()))
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A closed mesh stored unindexed is welded by position, found closed, and takes the
// pseudonormal path, with the grids of the same mesh stored indexed, bit for bit;
// the log says so once.
func TestVoxelizeUnindexedGLTFIsClosed(t *testing.T) {
	dir := t.TempDir()
	m := geom.SphereMesh(geom.Vec3{0.03, 0.51, -0.02}, 0.5, 10, 20)
	indexed, unindexed := filepath.Join(dir, "indexed.gltf"), filepath.Join(dir, "unindexed.gltf")
	writeMeshGLTF(t, indexed, m, true)
	writeMeshGLTF(t, unindexed, m, false)
	var files [2]*vdb.File
	for i, path := range []string{indexed, unindexed} {
		out := filepath.Join(dir, fmt.Sprintf("out%d.vdb", i))
		code, log := runVoxelize(t, "-voxel", "0.04", "-o", out, path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, log)
		}
		t.Log(log)
		if strings.Count(log, "welded by position is closed: pseudonormal signs") != 1 {
			t.Errorf("%s: the log does not say once that the mesh is closed: %s", path, log)
		}
		files[i] = readVDB(t, out)
		if files[i].Meta["sign"] != "pseudonormal" {
			t.Errorf("%s: sign %v", path, files[i].Meta["sign"])
		}
	}
	for _, name := range []string{"surface", "velocity", "normal"} {
		a, b := files[0].Grid(name), files[1].Grid(name)
		same := a.Float != nil && sameLeaves(a.Float, b.Float) && slices.Equal(a.Float.Tiles(), b.Float.Tiles()) ||
			a.Vec3 != nil && sameLeaves(a.Vec3, b.Vec3)
		if !same {
			t.Errorf("grid %s of the unindexed mesh differs from the indexed mesh's", name)
		}
	}
}

// sameLeaves reports whether two grids hold the same leaves, bit for bit.
func sameLeaves[T levelset.Value](a, b *levelset.Grid[T]) bool {
	if b == nil || a.LeafCount() != b.LeafCount() {
		return false
	}
	for i, l := range a.Leaves() {
		if *l != *b.Leaves()[i] {
			return false
		}
	}
	return true
}

// Vertices an export moved apart by 1e-7 m stay apart when welded by position, and
// the mesh takes winding numbers; -weld 1e-6 closes it.
func TestVoxelizeWeldTolerance(t *testing.T) {
	dir := t.TempDir()
	m := geom.SphereMesh(geom.Vec3{}, 0.5, 8, 16)
	var b strings.Builder
	for i, tri := range m.Triangles {
		for k, v := range tri {
			p := m.Positions[v]
			jitter := 1e-7 * math.Sin(float64(3*i+k))
			fmt.Fprintf(&b, "v %.10f %.10f %.10f\n", p[0]+jitter, p[1]-jitter, p[2]+jitter)
		}
		fmt.Fprintf(&b, "f %d %d %d\n", 3*i+1, 3*i+2, 3*i+3)
	}
	path := filepath.Join(dir, "soup.obj")
	os.WriteFile(path, []byte(b.String()), 0o644)
	for _, tc := range []struct {
		weld, want string
	}{
		{"0", "the mesh welded by position is open"},
		{"1e-6", "the mesh welded within 1e-06 m is closed: pseudonormal signs"},
	} {
		code, log := runVoxelize(t, "-voxel", "0.05", "-weld", tc.weld, "-o", filepath.Join(dir, "out.vdb"), path)
		if code != 0 || !strings.Contains(log, tc.want) {
			t.Errorf("-weld %s: exit %d, log %q; want %q", tc.weld, code, log, tc.want)
		}
	}
}
