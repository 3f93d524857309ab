package gltf

import (
	"fmt"

	qgltf "github.com/qmuntal/gltf"
)

// node is the rest state of one glTF node.
type node struct {
	parent    int32 // -1 for a root
	hasMatrix bool  // local transform given by matrix rather than T x R x S
	matrix    mat4
	t         [3]float64
	r         [4]float64 // unit quaternion x, y, z, w
	s         [3]float64
	weightOff int32 // first of its morph weights in pose.weights, -1 if none
	weightLen int32
}

// local returns the node's local transform: its matrix, or T x R x S from the
// (possibly animated) translation, rotation and scale in p.
func (n *node) local(p *pose, i int) mat4 {
	if n.hasMatrix {
		return n.matrix
	}
	return trs(p.t[i], p.r[i], p.s[i])
}

// loadNodes checks the node graph and records each node's rest transform.
//
// The graph must be a forest: every child index exists, no node has two parents
// (it would be reachable twice) and following parents never comes back to where it
// started (a cycle). s.order then lists every node after its parent, so that world
// transforms can be computed in one pass as world = parent world x local.
func (l *loader) loadNodes(s *Scene) error {
	doc := l.doc
	n := len(doc.Nodes)
	s.nodes = make([]node, n)
	for i := range s.nodes {
		s.nodes[i].parent = -1
		s.nodes[i].weightOff = -1
	}
	for i, nd := range doc.Nodes {
		where := fmt.Sprintf("nodes[%d]", i)
		if nd == nil {
			return errorf(l.file, where, "null node")
		}
		for k, c := range nd.Children {
			cw := fmt.Sprintf("%s.children[%d]", where, k)
			switch {
			case c < 0 || c >= n:
				return errorf(l.file, cw, "node %d does not exist (the file has %d)", c, n)
			case c == i:
				return errorf(l.file, cw, "node %d is its own child (cyclic node graph)", c)
			case s.nodes[c].parent >= 0:
				return errorf(l.file, cw, "node %d is already a child of nodes[%d]: a node may have one parent (reachable twice)", c, s.nodes[c].parent)
			}
			s.nodes[c].parent = int32(i)
		}
		if nd.Mesh != nil && (*nd.Mesh < 0 || *nd.Mesh >= len(doc.Meshes)) {
			return errorf(l.file, where+".mesh", "mesh %d does not exist (the file has %d)", *nd.Mesh, len(doc.Meshes))
		}
		if nd.Skin != nil && (*nd.Skin < 0 || *nd.Skin >= len(doc.Skins)) {
			return errorf(l.file, where+".skin", "skin %d does not exist (the file has %d)", *nd.Skin, len(doc.Skins))
		}
		nn := &s.nodes[i]
		// The library fills in identity defaults for both forms and refuses nodes
		// that give both, so a matrix other than identity means the matrix form.
		if m := nd.MatrixOrDefault(); m != qgltf.DefaultMatrix {
			nn.hasMatrix, nn.matrix = true, mat4(m)
		}
		nn.t, nn.r, nn.s = nd.TranslationOrDefault(), normalize(nd.RotationOrDefault()), nd.ScaleOrDefault()
	}
	if err := l.checkCycles(s); err != nil {
		return err
	}
	// Pre-order from every root: parents come before their children.
	s.order = make([]int32, 0, n)
	for i := range s.nodes {
		if s.nodes[i].parent < 0 {
			s.order = l.appendSubtree(s.order, int32(i))
		}
	}
	return nil
}

// checkCycles finds a loop of parent links. Nodes are marked 1 while on the path
// being walked and 2 once known to lead to a root, so each node is walked once.
func (l *loader) checkCycles(s *Scene) error {
	state := make([]uint8, len(s.nodes))
	for i := range s.nodes {
		j := int32(i)
		for j >= 0 && state[j] == 0 {
			state[j] = 1
			j = s.nodes[j].parent
		}
		if j >= 0 && state[j] == 1 {
			return errorf(l.file, fmt.Sprintf("nodes[%d]", j), "node %d is its own ancestor (cyclic node graph)", j)
		}
		for j = int32(i); j >= 0 && state[j] == 1; j = s.nodes[j].parent {
			state[j] = 2
		}
	}
	return nil
}

// appendSubtree appends root and its descendants in depth-first pre-order,
// children in the order the file lists them. The graph is a forest by now, so the
// walk ends; it uses an explicit stack because hierarchies can be deep.
func (l *loader) appendSubtree(dst []int32, root int32) []int32 {
	stack := []int32{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		dst = append(dst, i)
		ch := l.doc.Nodes[i].Children
		for k := len(ch) - 1; k >= 0; k-- {
			stack = append(stack, int32(ch[k]))
		}
	}
	return dst
}

// sceneRoots returns the root nodes to draw: those of scenes[scene], else of
// scenes[0], else every node without a parent.
func (l *loader) sceneRoots(s *Scene) ([]int32, error) {
	doc := l.doc
	si := 0
	if doc.Scene != nil {
		si = *doc.Scene
		if si < 0 || si >= len(doc.Scenes) {
			return nil, errorf(l.file, "scene", "scene %d does not exist (the file has %d)", si, len(doc.Scenes))
		}
	}
	if len(doc.Scenes) == 0 {
		var roots []int32
		for i := range s.nodes {
			if s.nodes[i].parent < 0 {
				roots = append(roots, int32(i))
			}
		}
		return roots, nil
	}
	sc := doc.Scenes[si]
	where := fmt.Sprintf("scenes[%d]", si)
	if sc == nil {
		return nil, errorf(l.file, where, "null scene")
	}
	seen := make(map[int]bool, len(sc.Nodes))
	roots := make([]int32, 0, len(sc.Nodes))
	for k, r := range sc.Nodes {
		rw := fmt.Sprintf("%s.nodes[%d]", where, k)
		switch {
		case r < 0 || r >= len(s.nodes):
			return nil, errorf(l.file, rw, "node %d does not exist (the file has %d)", r, len(s.nodes))
		case s.nodes[r].parent >= 0:
			return nil, errorf(l.file, rw, "node %d is a child of nodes[%d], not a root (reachable twice)", r, s.nodes[r].parent)
		case seen[r]:
			return nil, errorf(l.file, rw, "node %d is listed twice (reachable twice)", r)
		}
		seen[r] = true
		roots = append(roots, int32(r))
	}
	return roots, nil
}
