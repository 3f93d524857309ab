package scene

import (
	"errors"
	"fmt"
	"math"

	"snowtools/cmd/internal/seq"
	"snowtools/formats/vdb"
	"snowtools/simcore/collider"
)

// sequence loads a deforming collider from the VDB files voxelize writes (grids
// "surface" and "velocity"): file n is the keyframe at n/fps seconds (or, with the
// key start, at start + (n - first)/fps, first being the first file's number), read
// when the simulation gets there. The first file is read now: for its frame rate, and
// to find a wrong file before the simulation starts.
func (l *loader) sequence(ck *colliderKeys, key string, contact collider.Surface) (*collider.Sequence, error) {
	frames, err := seq.Find(l.path(*ck.Path))
	if err != nil {
		return nil, keyError(key+".path", "%v", err)
	}
	first, err := vdb.ReadFile(frames[0].Path)
	if err != nil {
		return nil, keyError(key+".path", "%s: %v", frames[0].Path, err)
	}
	firstKeyframe, err := keyframeOf(first)
	if err != nil {
		return nil, keyError(key+".path", "%s: %v", frames[0].Path, err)
	}
	fps, ok := first.Meta["fps"].(float64)
	if ck.FPS != nil {
		fps = *ck.FPS
	} else if !ok {
		return nil, keyError(key+".path", "%s has no \"fps\" metadata: give %s.fps", frames[0].Path, key)
	}
	if !(fps > 0) || math.IsInf(fps, 0) {
		return nil, keyError(key+".fps", "%g: must be > 0", fps)
	}
	// File n is at n/fps, as in every file the tools write, and as snowsim's frame n to
	// the bit: n0/fps + (n - n0)/fps rounds differently for some n, and the solver
	// would stop a sliver short of (or past) the frame for the keyframe, a step of
	// 1e-17 s. A start given in the scene shifts the files: keyframes then fall between
	// frames, and the solver stops at each.
	times := make([]float64, len(frames))
	for i, f := range frames {
		times[i] = float64(f.Number) / fps
	}
	if ck.Start != nil {
		start := *ck.Start
		if math.IsNaN(start) || math.IsInf(start, 0) {
			return nil, keyError(key+".start", "%g: must be finite", start)
		}
		for i, f := range frames {
			times[i] = start + float64(f.Number-frames[0].Number)/fps
		}
	}
	load := func(i int) (*collider.Keyframe, error) {
		// The first file, read above, serves the first load if that is its own.
		kf := firstKeyframe
		firstKeyframe = nil
		if i == 0 && kf != nil {
			return kf, nil
		}
		kf, err := readKeyframe(frames[i].Path)
		if err != nil {
			return nil, fmt.Errorf("frame %d (%s): %v", frames[i].Number, frames[i].Path, err)
		}
		return kf, nil
	}
	return collider.NewSequence(key, times, load, contact)
}

// readKeyframe reads the keyframe in a collider file.
func readKeyframe(path string) (*collider.Keyframe, error) {
	file, err := vdb.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return keyframeOf(file)
}

// keyframeOf takes a collider file's grids "surface" (a float level set) and
// "velocity" (vec3, optional).
func keyframeOf(file *vdb.File) (*collider.Keyframe, error) {
	surface := file.Grid("surface")
	if surface == nil || surface.Float == nil {
		return nil, errors.New("no float grid named \"surface\" (write collider files with voxelize)")
	}
	kf := &collider.Keyframe{Surface: surface.Float}
	if v := file.Grid("velocity"); v != nil {
		if v.Vec3 == nil {
			return nil, errors.New("grid \"velocity\" is not a vector grid")
		}
		kf.Velocity = v.Vec3
	}
	return kf, nil
}
