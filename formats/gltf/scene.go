package gltf

import (
	"fmt"
	"io"
	"io/fs"

	qgltf "github.com/qmuntal/gltf"
)

// Limits on what one file may make, so that a small file cannot ask for
// gigabytes through instancing (many nodes drawing one big mesh).
const (
	maxVertices  = 1 << 24
	maxTriangles = 1 << 25
)

// draw is one primitive drawn by one node: a block of the output vertices.
type draw struct {
	node      int32
	skin      int32 // index into Scene.skins, -1 if not skinned
	weightOff int32 // the node's morph weights in pose.weights, -1 without targets
	base      int32 // first output vertex
	prim      *prim
}

// loader holds what decoding needs and the Scene does not.
type loader struct {
	doc         *qgltf.Document
	file        string
	quantized   bool // KHR_mesh_quantization: integer positions allowed
	cache       map[int][]float64
	budget      int // values the accessors may still decode
	bufferBytes int
	meshes      map[int]*meshData
	skins       map[int]int // glTF skin index -> index in Scene.skins
}

// decode reads a document and builds the Scene, without requiring triangles (so
// that tests can evaluate files that only animate nodes).
func decode(r io.Reader, fsys fs.FS, file string) (*Scene, error) {
	doc, err := readDocument(r, fsys, file)
	if err != nil {
		return nil, err
	}
	l := &loader{doc: doc, file: file, cache: map[int][]float64{}, meshes: map[int]*meshData{}, skins: map[int]int{}}
	for _, b := range doc.Buffers {
		l.bufferBytes += len(b.Data)
	}
	l.budget = 4*l.bufferBytes + 4*zeroSlack
	for _, e := range doc.ExtensionsUsed {
		l.quantized = l.quantized || e == "KHR_mesh_quantization"
	}
	s := &Scene{file: file}
	if err := l.loadNodes(s); err != nil {
		return nil, err
	}
	roots, err := l.sceneRoots(s)
	if err != nil {
		return nil, err
	}
	var drawOrder []int32
	for _, r := range roots {
		drawOrder = l.appendSubtree(drawOrder, r)
	}
	s.drawn = make([]bool, len(s.nodes))
	for _, i := range drawOrder {
		s.drawn[i] = true
		if err := l.addDraws(s, i); err != nil {
			return nil, err
		}
	}
	if err := l.loadAnimations(s); err != nil {
		return nil, err
	}
	s.restT = make([][3]float64, len(s.nodes))
	s.restR = make([][4]float64, len(s.nodes))
	s.restS = make([][3]float64, len(s.nodes))
	for i, n := range s.nodes {
		s.restT[i], s.restR[i], s.restS[i] = n.t, n.r, n.s
	}
	s.pool.New = func() any { return s.newPose() }
	return s, nil
}

// addDraws appends the primitives that node i draws, if it has a mesh, with the
// node's morph weights and skin.
func (l *loader) addDraws(s *Scene, i int32) error {
	gn := l.doc.Nodes[i]
	if gn.Mesh == nil {
		return nil
	}
	where := fmt.Sprintf("nodes[%d]", i)
	md, err := l.loadMesh(*gn.Mesh)
	if err != nil {
		return err
	}
	nd := &s.nodes[i]
	if md.nTargets > 0 {
		// Weights: node.weights, else mesh.weights, else zero; animation
		// channels override them per frame.
		w := gn.Weights
		if len(w) == 0 {
			w = md.weights
		}
		if len(w) != 0 && len(w) != md.nTargets {
			return errorf(l.file, where+".weights", "%d weights for %d morph targets", len(w), md.nTargets)
		}
		nd.weightOff, nd.weightLen = int32(len(s.restWeights)), int32(md.nTargets)
		s.restWeights = append(s.restWeights, make([]float64, md.nTargets)...)
		copy(s.restWeights[nd.weightOff:], w)
	}
	sk := int32(-1)
	if gn.Skin != nil {
		k, err := l.loadSkin(s, *gn.Skin)
		if err != nil {
			return err
		}
		sk = int32(k)
	}
	for _, p := range md.prims {
		pw := fmt.Sprintf("meshes[%d].primitives[%d]", p.mesh, p.index)
		if sk >= 0 {
			if p.infStart == nil {
				return errorf(l.file, pw, "drawn with skin %d by %s but has no JOINTS_0/WEIGHTS_0", *gn.Skin, where)
			}
			if int(p.maxJoint) >= len(s.skins[sk].joints) {
				return errorf(l.file, pw, "joint %d is outside the %d joints of skins[%d]", p.maxJoint, len(s.skins[sk].joints), *gn.Skin)
			}
		}
		if s.nVerts+p.n > maxVertices || len(s.tris)+len(p.tris) > maxTriangles {
			return errorf(l.file, where, "the scene would have more than %d vertices or %d triangles", maxVertices, maxTriangles)
		}
		base := int32(s.nVerts)
		s.draws = append(s.draws, draw{node: i, skin: sk, weightOff: nd.weightOff, base: base, prim: p})
		for _, t := range p.tris {
			s.tris = append(s.tris, [3]int32{t[0] + base, t[1] + base, t[2] + base})
		}
		s.nVerts += p.n
	}
	return nil
}
