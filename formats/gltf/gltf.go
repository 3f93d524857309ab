// Package gltf reads a glTF 2.0 scene (.gltf with external or data: buffers, or
// .glb) and evaluates its animation at any time, giving the world-space triangle
// mesh of the scene then: what the voxelizer needs from an animated mesh cache.
//
// Everything is decoded and checked once, by Open or Decode, into plain slices:
// rest transforms, key arrays, vertex and skin data, the triangle list. Mesh then
// evaluates one frame without touching the JSON:
//
//  1. every channel of the clip is sampled at t (STEP, LINEAR with slerp for
//     rotations, CUBICSPLINE), overriding the nodes' rest translation, rotation,
//     scale and morph weights;
//  2. world(n) = world(parent) x local(n), local = matrix or T x R x S;
//  3. each vertex is morphed, p = p0 + Σ_i w_i d_i, then placed: by
//     world(mesh node) x p, or for a skinned mesh by Σ_k w_k world(J_k) x IBM(J_k) x p
//     (the mesh node's own transform is ignored, as the spec requires).
//
// The mesh holds every triangle primitive (modes TRIANGLES, TRIANGLE_STRIP,
// TRIANGLE_FAN; points and lines are skipped) of every node that the scene
// reaches, in depth-first order, one copy per node that instances a mesh. Its
// vertex count and triangle list are the same at every t, so frames can be paired
// vertex by vertex.
//
// Malformed input gives a *FormatError naming the file and the JSON location at
// fault. No count from the file sizes an allocation before it has been checked
// against the bytes that back it. The library github.com/qmuntal/gltf parses the
// JSON and the GLB container; its accessor readers are not used, because they
// allocate count x size before reading.
package gltf

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"snowtools/formats/input"
)

// Scene is a decoded glTF scene ready to be evaluated. Its methods are safe for
// concurrent use.
type Scene struct {
	file   string
	nodes  []node
	order  []int32 // every node, parents first
	drawn  []bool  // reachable from the scene's roots
	clips  []clip
	draws  []draw
	skins  []skin
	tris   [][3]int32
	nVerts int

	// Rest state copied into each pose before the channels override it.
	restT       [][3]float64
	restR       [][4]float64
	restS       [][3]float64
	restWeights []float64
	nJoints     int       // joint matrices of all skins
	pool        sync.Pool // of *pose, per-frame scratch space
}

// Clip is one animation of the file. Start and End are the earliest and latest
// key times of its channels, in seconds; outside them each channel holds its end
// value.
type Clip struct {
	Name       string
	Start, End float64
}

// Open reads a .gltf or .glb file. External buffers are read only through
// os.OpenRoot(filepath.Dir(path)), so neither "../" nor a symbolic link can make
// them come from outside the file's folder.
func Open(path string) (*Scene, error) {
	f, err := input.Open(path)
	if err != nil {
		return nil, &FormatError{File: path, Msg: "cannot open", Err: err}
	}
	defer f.Close()
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return nil, &FormatError{File: path, Msg: "cannot open its folder", Err: err}
	}
	defer root.Close()
	return Decode(f, root.FS(), path)
}

// Decode reads a .gltf or .glb stream. name is used in errors. External buffers
// are read from fsys, by paths relative to its root; with a nil fsys they are an
// error. Give an os.Root's FS to keep symbolic links from leading outside.
func Decode(r io.Reader, fsys fs.FS, name string) (*Scene, error) {
	s, err := decode(r, fsys, name)
	if err != nil {
		return nil, err
	}
	if len(s.tris) == 0 {
		return nil, &FormatError{File: name, Msg: "no triangle meshes in the scene (only empty nodes, points or lines)"}
	}
	return s, nil
}

// Clips returns the animations of the file, in file order; the index of a clip is
// what Mesh takes.
func (s *Scene) Clips() []Clip {
	out := make([]Clip, len(s.clips))
	for i, c := range s.clips {
		out[i] = c.Clip
	}
	return out
}

// ClipByName returns the index of the first clip with the given name. The error
// lists the names there are.
func (s *Scene) ClipByName(name string) (int, error) {
	names := make([]string, len(s.clips))
	for i, c := range s.clips {
		if c.Name == name {
			return i, nil
		}
		names[i] = strconv.Quote(c.Name)
	}
	if len(names) == 0 {
		return -1, fmt.Errorf("gltf: %s: no animation %q: the file has no animations", s.file, name)
	}
	return -1, fmt.Errorf("gltf: %s: no animation %q; the animations are %s", s.file, name, strings.Join(names, ", "))
}

// VertexCount returns the number of vertices of every mesh Mesh returns.
func (s *Scene) VertexCount() int { return s.nVerts }

// TriangleCount returns the number of triangles of every mesh Mesh returns.
func (s *Scene) TriangleCount() int { return len(s.tris) }
