package gltf

import (
	"fmt"
	"strconv"

	qgltf "github.com/qmuntal/gltf"
)

// prim is one decoded triangle primitive, shared by every node that instances its
// mesh.
type prim struct {
	mesh, index int       // meshes[mesh].primitives[index], for errors
	n           int       // vertex count
	pos         []float64 // 3n rest positions
	targets     [][]float64
	tris        [][3]int32 // into 0..n-1, counter-clockwise

	// Skin influences of vertex v: joints infJoint[infStart[v]:infStart[v+1]]
	// (indices into the skin's joint list) with normalized weights infW. nil when
	// the primitive has no JOINTS_0.
	infStart []int32
	infJoint []int32
	infW     []float64
	maxJoint int32
}

// meshData is the decoded form of one glTF mesh.
type meshData struct {
	prims    []*prim // triangle primitives only
	nTargets int
	weights  []float64 // mesh.weights, or nil
}

// loadMesh decodes meshes[m]: its triangle primitives (modes 4, 5, 6; points and
// lines are skipped), their morph targets and skin attributes.
func (l *loader) loadMesh(m int) (*meshData, error) {
	if md, ok := l.meshes[m]; ok {
		return md, nil
	}
	where := fmt.Sprintf("meshes[%d]", m)
	gm := l.doc.Meshes[m]
	if gm == nil {
		return nil, errorf(l.file, where, "null mesh")
	}
	md := &meshData{nTargets: -1, weights: gm.Weights}
	for k, p := range gm.Primitives {
		pw := fmt.Sprintf("%s.primitives[%d]", where, k)
		if p == nil {
			return nil, errorf(l.file, pw, "null primitive")
		}
		if md.nTargets >= 0 && len(p.Targets) != md.nTargets {
			return nil, errorf(l.file, pw, "%d morph targets, the mesh's other primitives have %d", len(p.Targets), md.nTargets)
		}
		md.nTargets = len(p.Targets)
		switch p.Mode {
		case qgltf.PrimitiveTriangles, qgltf.PrimitiveTriangleStrip, qgltf.PrimitiveTriangleFan:
		default:
			continue
		}
		pr, err := l.loadPrimitive(p, pw)
		if err != nil {
			return nil, err
		}
		pr.mesh, pr.index = m, k
		md.prims = append(md.prims, pr)
	}
	if md.nTargets < 0 {
		md.nTargets = 0
	}
	if len(md.weights) != 0 && len(md.weights) != md.nTargets {
		return nil, errorf(l.file, where+".weights", "%d weights for %d morph targets", len(md.weights), md.nTargets)
	}
	l.meshes[m] = md
	return md, nil
}

func (l *loader) loadPrimitive(p *qgltf.Primitive, where string) (*prim, error) {
	posAt, ok := p.Attributes[qgltf.POSITION]
	if !ok {
		return nil, errorf(l.file, where, "triangle primitive without POSITION")
	}
	posComps := compFloat
	if l.quantized {
		posComps |= compInt
	}
	pos, err := l.read(posAt, where+".attributes.POSITION", qgltf.AccessorVec3, posComps)
	if err != nil {
		return nil, err
	}
	pr := &prim{n: len(pos) / 3, pos: pos}
	sameCount := func(v []float64, width int, use string) error {
		if len(v) != width*pr.n {
			return errorf(l.file, use, "%d elements, POSITION has %d", len(v)/width, pr.n)
		}
		return nil
	}
	for t, tg := range p.Targets {
		at, ok := tg[qgltf.POSITION]
		if !ok {
			pr.targets = append(pr.targets, nil) // moves no position
			continue
		}
		use := fmt.Sprintf("%s.targets[%d].POSITION", where, t)
		d, err := l.read(at, use, qgltf.AccessorVec3, posComps|compNorm)
		if err != nil {
			return nil, err
		}
		if err := sameCount(d, 3, use); err != nil {
			return nil, err
		}
		pr.targets = append(pr.targets, d)
	}
	if err := l.loadInfluences(p, pr, where, sameCount); err != nil {
		return nil, err
	}
	var idx []float64
	if p.Indices != nil {
		use := where + ".indices"
		if idx, err = l.read(*p.Indices, use, qgltf.AccessorScalar, compUint); err != nil {
			return nil, err
		}
		for i, v := range idx {
			if v >= float64(pr.n) {
				return nil, errorf(l.file, use, "index %d at position %d is outside the %d vertices of POSITION", int64(v), i, pr.n)
			}
		}
	}
	if pr.tris, err = l.triangles(p.Mode, idx, pr.n, where); err != nil {
		return nil, err
	}
	return pr, nil
}

// triangles lists the triangles of a primitive of the given mode, from its indices
// or, when idx is nil, from the vertices in order (glTF 2.0 section 3.7.2.1):
// TRIANGLES (i0, i1, i2), (i3, i4, i5), ...; TRIANGLE_STRIP triangle k is
// (k, k+1, k+2) for even k and (k, k+2, k+1) for odd k, keeping the winding;
// TRIANGLE_FAN triangle k is (k+1, k+2, 0). Degenerate triangles (a repeated
// vertex, as strips use to restart) have no area and are dropped.
func (l *loader) triangles(mode qgltf.PrimitiveMode, idx []float64, n int, where string) ([][3]int32, error) {
	count := n
	if idx != nil {
		count = len(idx)
	}
	at := func(i int) int32 {
		if idx == nil {
			return int32(i)
		}
		return int32(idx[i])
	}
	var tris [][3]int32
	add := func(a, b, c int) {
		ta, tb, tc := at(a), at(b), at(c)
		if ta != tb && tb != tc && ta != tc {
			tris = append(tris, [3]int32{ta, tb, tc})
		}
	}
	switch mode {
	case qgltf.PrimitiveTriangles:
		if count%3 != 0 {
			return nil, errorf(l.file, where, "TRIANGLES with %d vertices, not a multiple of 3", count)
		}
		tris = make([][3]int32, 0, count/3)
		for i := 0; i+2 < count; i += 3 {
			add(i, i+1, i+2)
		}
	case qgltf.PrimitiveTriangleStrip, qgltf.PrimitiveTriangleFan:
		if count < 3 {
			return nil, errorf(l.file, where, "%v with %d vertices, fewer than 3", mode, count)
		}
		tris = make([][3]int32, 0, count-2)
		for k := 0; k+2 < count; k++ {
			switch {
			case mode == qgltf.PrimitiveTriangleFan:
				add(k+1, k+2, 0)
			case k%2 == 0:
				add(k, k+1, k+2)
			default:
				add(k, k+2, k+1)
			}
		}
	}
	return tris, nil
}

// loadInfluences reads JOINTS_0/WEIGHTS_0, JOINTS_1/WEIGHTS_1, ... (four joints per
// set) into per-vertex lists of the joints with a non-zero weight, the weights
// divided by their sum: exporters do not always write weights that sum to 1.
func (l *loader) loadInfluences(p *qgltf.Primitive, pr *prim, where string, sameCount func([]float64, int, string) error) error {
	var joints, weights [][]float64
	for set := 0; ; set++ {
		js, ws := "JOINTS_"+strconv.Itoa(set), "WEIGHTS_"+strconv.Itoa(set)
		ja, okj := p.Attributes[js]
		wa, okw := p.Attributes[ws]
		if !okj && !okw {
			break
		}
		if okj != okw {
			return errorf(l.file, where+".attributes", "%s and %s must come together", js, ws)
		}
		juse, wuse := where+".attributes."+js, where+".attributes."+ws
		j, err := l.read(ja, juse, qgltf.AccessorVec4, compUint816)
		if err != nil {
			return err
		}
		w, err := l.read(wa, wuse, qgltf.AccessorVec4, compFloat|compNorm)
		if err != nil {
			return err
		}
		if err := sameCount(j, 4, juse); err != nil {
			return err
		}
		if err := sameCount(w, 4, wuse); err != nil {
			return err
		}
		joints, weights = append(joints, j), append(weights, w)
	}
	if len(joints) == 0 {
		return nil
	}
	pr.infStart = make([]int32, 0, pr.n+1)
	pr.infJoint = make([]int32, 0, 4*pr.n)
	pr.infW = make([]float64, 0, 4*pr.n)
	for v := range pr.n {
		pr.infStart = append(pr.infStart, int32(len(pr.infJoint)))
		start, sum := len(pr.infW), 0.0
		for s := range joints {
			for c := 4 * v; c < 4*v+4; c++ {
				w := weights[s][c]
				if w < 0 {
					return errorf(l.file, fmt.Sprintf("%s.attributes.WEIGHTS_%d", where, s), "vertex %d has negative weight %g", v, w)
				}
				if w == 0 {
					continue
				}
				j := int32(joints[s][c])
				pr.infJoint = append(pr.infJoint, j)
				pr.infW = append(pr.infW, w)
				pr.maxJoint = max(pr.maxJoint, j)
				sum += w
			}
		}
		if sum == 0 {
			return errorf(l.file, where+".attributes.WEIGHTS_0", "vertex %d has no skin weight", v)
		}
		for i := start; i < len(pr.infW); i++ {
			pr.infW[i] /= sum
		}
	}
	pr.infStart = append(pr.infStart, int32(len(pr.infJoint)))
	return nil
}
