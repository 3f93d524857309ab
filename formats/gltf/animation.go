package gltf

import (
	"fmt"
	"sort"

	qgltf "github.com/qmuntal/gltf"
)

// Target paths of an animation channel.
const (
	pathTranslation = iota
	pathRotation
	pathScale
	pathWeights
)

// sampler holds the decoded keys of one animation sampler as used by one channel.
type sampler struct {
	times  []float64 // strictly increasing, seconds
	values []float64 // width values per key, or 3 x width (in-tangent, value, out-tangent) for CUBICSPLINE
	width  int       // 3 (translation, scale), 4 (rotation) or the morph target count
	interp qgltf.Interpolation
}

// channel drives one property of one node.
type channel struct {
	node int32
	path uint8
	smp  *sampler
}

// clip is one glTF animation.
type clip struct {
	Clip
	channels []channel
}

// loadAnimations decodes every animation into clips. Channels without a target
// node or with a path this package does not know (extensions) are ignored, as the
// spec allows.
func (l *loader) loadAnimations(s *Scene) error {
	for a, anim := range l.doc.Animations {
		where := fmt.Sprintf("animations[%d]", a)
		if anim == nil {
			return errorf(l.file, where, "null animation")
		}
		c := clip{Clip: Clip{Name: anim.Name}}
		first := true
		for k, ch := range anim.Channels {
			cw := fmt.Sprintf("%s.channels[%d]", where, k)
			if ch == nil {
				return errorf(l.file, cw, "null channel")
			}
			if ch.Target.Node == nil {
				continue
			}
			path, ok := map[qgltf.TRSProperty]uint8{
				qgltf.TRSTranslation: pathTranslation, qgltf.TRSRotation: pathRotation,
				qgltf.TRSScale: pathScale, qgltf.TRSWeights: pathWeights,
			}[ch.Target.Path]
			if !ok {
				continue
			}
			ni := *ch.Target.Node
			if ni < 0 || ni >= len(s.nodes) {
				return errorf(l.file, cw+".target.node", "node %d does not exist (the file has %d)", ni, len(s.nodes))
			}
			nd := &s.nodes[ni]
			if nd.hasMatrix {
				return errorf(l.file, cw+".target.node", "nodes[%d] has a matrix; an animated node must use translation/rotation/scale", ni)
			}
			width := 3
			switch path {
			case pathRotation:
				width = 4
			case pathWeights:
				if nd.weightOff < 0 {
					if s.drawn[ni] {
						return errorf(l.file, cw+".target.node", "nodes[%d] has no morph targets to weight", ni)
					}
					continue // a node outside the scene: nothing to animate
				}
				width = int(nd.weightLen)
			}
			if ch.Sampler < 0 || ch.Sampler >= len(anim.Samplers) || anim.Samplers[ch.Sampler] == nil {
				return errorf(l.file, cw+".sampler", "sampler %d does not exist (the animation has %d)", ch.Sampler, len(anim.Samplers))
			}
			smp, err := l.loadSampler(anim.Samplers[ch.Sampler], fmt.Sprintf("%s.samplers[%d]", where, ch.Sampler), path, width)
			if err != nil {
				return err
			}
			t0, t1 := smp.times[0], smp.times[len(smp.times)-1]
			if first || t0 < c.Start {
				c.Start = t0
			}
			if first || t1 > c.End {
				c.End = t1
			}
			first = false
			c.channels = append(c.channels, channel{node: int32(ni), path: path, smp: smp})
		}
		s.clips = append(s.clips, c)
	}
	return nil
}

// loadSampler decodes and checks the keys of sampler sm for a channel of the given
// path and width.
func (l *loader) loadSampler(sm *qgltf.AnimationSampler, where string, path uint8, width int) (*sampler, error) {
	times, err := l.read(sm.Input, where+".input", qgltf.AccessorScalar, compFloat)
	if err != nil {
		return nil, err
	}
	for i := 1; i < len(times); i++ {
		if !(times[i] > times[i-1]) {
			return nil, errorf(l.file, where, "input times must increase strictly: key %d at %g s follows %g s", i, times[i], times[i-1])
		}
	}
	typ := [...]qgltf.AccessorType{qgltf.AccessorVec3, qgltf.AccessorVec4, qgltf.AccessorVec3, qgltf.AccessorScalar}[path]
	values, err := l.read(sm.Output, where+".output", typ, compFloat|compNorm)
	if err != nil {
		return nil, err
	}
	per := 1
	if sm.Interpolation == qgltf.InterpolationCubicSpline {
		per = 3
		if len(times) < 2 {
			return nil, errorf(l.file, where, "CUBICSPLINE needs at least 2 keys, input has %d", len(times))
		}
	}
	if want := len(times) * per * width; len(values) != want {
		return nil, errorf(l.file, where, "%v output has %d values for %d keys; expected %d (%d per key)",
			sm.Interpolation, len(values), len(times), want, per*width)
	}
	return &sampler{times: times, values: values, width: width, interp: sm.Interpolation}, nil
}

// eval writes the sampler's value at time t into out (width values).
//
// t is clamped to [t_0, t_N]. Between keys k and k+1, with td = t_{k+1} - t_k and
// s = (t - t_k)/td: STEP gives v_k; LINEAR gives (1-s) v_k + s v_{k+1}, or the
// shortest-path slerp for rotations; CUBICSPLINE gives the Hermite spline
// (2s³-3s²+1) v_k + td (s³-2s²+s) b_k + (-2s³+3s²) v_{k+1} + td (s³-s²) a_{k+1}
// with a the in-tangents and b the out-tangents. Rotations are normalized by the
// caller.
func (sm *sampler) eval(t float64, rotation bool, out []float64) {
	w, n := sm.width, len(sm.times)
	stride, off := w, 0 // layout of the values of key k: values[k*stride+off:][:w]
	if sm.interp == qgltf.InterpolationCubicSpline {
		stride, off = 3*w, w
	}
	val := func(k int) []float64 { return sm.values[k*stride+off : k*stride+off+w] }
	// k is the last key at or before t.
	k := sort.Search(n, func(i int) bool { return sm.times[i] > t }) - 1
	if k < 0 {
		copy(out, val(0))
		return
	}
	if k >= n-1 || sm.interp == qgltf.InterpolationStep {
		copy(out, val(k))
		return
	}
	td := sm.times[k+1] - sm.times[k]
	s := (t - sm.times[k]) / td
	v0, v1 := val(k), val(k+1)
	switch {
	case sm.interp == qgltf.InterpolationCubicSpline:
		b0 := sm.values[k*stride+2*w : k*stride+3*w]   // out-tangent of key k
		a1 := sm.values[(k+1)*stride : (k+1)*stride+w] // in-tangent of key k+1
		s2, s3 := s*s, s*s*s
		h00, h10, h01, h11 := 2*s3-3*s2+1, td*(s3-2*s2+s), -2*s3+3*s2, td*(s3-s2)
		for i := range out {
			out[i] = h00*v0[i] + h10*b0[i] + h01*v1[i] + h11*a1[i]
		}
	case rotation:
		q := slerp(normalize([4]float64(v0)), normalize([4]float64(v1)), s)
		copy(out, q[:])
	default:
		for i := range out {
			out[i] = (1-s)*v0[i] + s*v1[i]
		}
	}
}
