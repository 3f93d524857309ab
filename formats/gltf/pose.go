package gltf

import (
	"fmt"
	"math"

	"snowtools/levelset/geom"
)

// pose is the scratch state of one evaluation: the animated local properties and
// the world and joint matrices that follow from them. Scenes keep a pool of them
// so that evaluating a frame allocates only its output.
type pose struct {
	t       [][3]float64
	r       [][4]float64
	s       [][3]float64
	weights []float64
	world   []mat4
	joints  []mat4 // world(joint) x inverse bind matrix, for every skin
}

func (s *Scene) newPose() *pose {
	n := len(s.nodes)
	return &pose{
		t: make([][3]float64, n), r: make([][4]float64, n), s: make([][3]float64, n),
		weights: make([]float64, len(s.restWeights)),
		world:   make([]mat4, n),
		joints:  make([]mat4, s.nJoints),
	}
}

// evaluate fills p for clip c (-1: rest pose) at time t.
func (s *Scene) evaluate(p *pose, c int, t float64) {
	copy(p.t, s.restT)
	copy(p.r, s.restR)
	copy(p.s, s.restS)
	copy(p.weights, s.restWeights)
	clips := s.clips
	switch {
	case c >= 0:
		clips = clips[c : c+1]
	case c != AllClips:
		clips = nil
	}
	for ci := range clips {
		var v [4]float64
		for _, ch := range clips[ci].channels {
			n := ch.node
			switch ch.path {
			case pathTranslation:
				ch.smp.eval(t, false, v[:3])
				p.t[n] = [3]float64(v[:3])
			case pathRotation:
				ch.smp.eval(t, true, v[:])
				p.r[n] = normalize(v)
			case pathScale:
				ch.smp.eval(t, false, v[:3])
				p.s[n] = [3]float64(v[:3])
			case pathWeights:
				off := s.nodes[n].weightOff
				ch.smp.eval(t, false, p.weights[off:off+s.nodes[n].weightLen])
			}
		}
	}
	for _, i := range s.order {
		nd := &s.nodes[i]
		local := nd.local(p, int(i))
		if nd.parent < 0 {
			p.world[i] = local
		} else {
			p.world[i] = p.world[nd.parent].mul(&local)
		}
	}
	for k := range s.skins {
		sk := &s.skins[k]
		for j, jn := range sk.joints {
			p.joints[sk.off+j] = p.world[jn].mul(&sk.ibm[j])
		}
	}
}

// The clips Mesh accepts beside an index into Clips.
const (
	RestPose = -1 // no animation
	// AllClips plays every animation at once, in file order, so that a later one
	// wins where two drive the same node's same path: what Blender's whole-scene
	// export means, one animation per action, each moving its own objects.
	AllClips = -2
)

// Mesh returns the world-space mesh of the scene at time t (seconds) of clip
// (an index into Clips, RestPose or AllClips). Velocities are nil.
// Each call returns new slices, which the caller owns; the vertex count and the
// triangle list are the same for every clip and t.
//
// A position that is not finite after evaluation (an overflow in the transforms)
// is a *FormatError.
func (s *Scene) Mesh(clip int, t float64) (*geom.Mesh, error) {
	if clip < AllClips || clip >= len(s.clips) {
		return nil, fmt.Errorf("gltf: %s: clip %d does not exist (the file has %d animations; -1 is the rest pose, -2 all of them)", s.file, clip, len(s.clips))
	}
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return nil, fmt.Errorf("gltf: %s: time %v is not finite", s.file, t)
	}
	p := s.pool.Get().(*pose)
	defer s.pool.Put(p)
	s.evaluate(p, clip, t)

	m := &geom.Mesh{
		Positions: make([]geom.Vec3, s.nVerts),
		Triangles: make([][3]int32, len(s.tris)),
	}
	copy(m.Triangles, s.tris)
	for i := range s.draws {
		d := &s.draws[i]
		out := m.Positions[d.base : int(d.base)+d.prim.n]
		s.place(p, d, out)
		for v, q := range out {
			if !q.IsFinite() {
				where := "nodes"
				switch {
				case clip >= 0:
					where = fmt.Sprintf("animations[%d]", clip)
				case clip == AllClips:
					where = "animations"
				}
				return nil, errorf(s.file, where, "vertex %d of meshes[%d].primitives[%d] drawn by nodes[%d] is %v at t = %g s: not finite, the transforms overflow",
					v, d.prim.mesh, d.prim.index, d.node, q, t)
			}
		}
	}
	return m, nil
}

// place writes the world positions of draw d into out: morph, then skin or node
// transform.
func (s *Scene) place(p *pose, d *draw, out []geom.Vec3) {
	pr := d.prim
	var w []float64
	if d.weightOff >= 0 {
		w = p.weights[d.weightOff : int(d.weightOff)+len(pr.targets)]
	}
	world := &p.world[d.node]
	for v := range out {
		x, y, z := pr.pos[3*v], pr.pos[3*v+1], pr.pos[3*v+2]
		for k, tg := range pr.targets {
			if tg != nil && w[k] != 0 {
				x += w[k] * tg[3*v]
				y += w[k] * tg[3*v+1]
				z += w[k] * tg[3*v+2]
			}
		}
		if d.skin < 0 {
			out[v][0], out[v][1], out[v][2] = world.point(x, y, z)
			continue
		}
		// Σ_k w_k (M_k p) = (Σ_k w_k M_k) p: blend the affine part of the joint
		// matrices, then transform once.
		var b [12]float64
		jm := p.joints[s.skins[d.skin].off:]
		for i := pr.infStart[v]; i < pr.infStart[v+1]; i++ {
			m, wk := &jm[pr.infJoint[i]], pr.infW[i]
			for r := 0; r < 3; r++ {
				b[r] += wk * m[r]
				b[3+r] += wk * m[4+r]
				b[6+r] += wk * m[8+r]
				b[9+r] += wk * m[12+r]
			}
		}
		out[v] = geom.Vec3{
			b[0]*x + b[3]*y + b[6]*z + b[9],
			b[1]*x + b[4]*y + b[7]*z + b[10],
			b[2]*x + b[5]*y + b[8]*z + b[11],
		}
	}
}

// nodeWorld returns the world transform of node n for clip c at time t; tests use
// it on files whose animated nodes draw nothing.
func (s *Scene) nodeWorld(c int, t float64, n int) mat4 {
	p := s.pool.Get().(*pose)
	defer s.pool.Put(p)
	s.evaluate(p, c, t)
	return p.world[n]
}
