package main

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"snowtools/formats/input"
	"strings"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/scene"
	"snowtools/cmd/internal/seq"
	"snowtools/simcore"
	"snowtools/simcore/checkpoint"
)

// checkpointExt replaces the frame pattern's extension in checkpoint names, so that
// snow.0010.snowstate sits next to snow.0010.prt, the frame it continues from, and runs
// with different patterns in one folder keep apart.
const checkpointExt = ".snowstate"

// checkpoints writes, prunes and finds the checkpoints of one run in its output folder.
type checkpoints struct {
	dir    string
	frames seq.Pattern // the frame files
	names  seq.Pattern // the checkpoint files
	scene  [32]byte    // sceneIdentity of the run
	last   int         // frame of the checkpoint this run last wrote or resumed from; -1 if none
	limit  int64       // the most particle data a checkpoint may hold when read: the memory budget
}

// sceneIdentity is what a checkpoint records of the scene it belongs to: a hash of the
// scene text and of the grid spacing, which -quality scales. The thread count, the
// frame count and the output folder are left out: they do not change the state at a
// frame, so a resumed run may use other ones.
func sceneIdentity(text []byte, h float64) [32]byte {
	d := sha256.New()
	d.Write([]byte("snowsim scene\x00"))
	d.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(h)))
	d.Write(text)
	var id [32]byte
	d.Sum(id[:0])
	return id
}

func newCheckpoints(dir, framePattern string, scene [32]byte) (*checkpoints, error) {
	frames, _, err := seq.ParsePattern(framePattern)
	if err != nil {
		return nil, err
	}
	suffix := frames.Suffix()
	suffix = strings.TrimSuffix(suffix, filepath.Ext(suffix)) + checkpointExt
	names, ok, err := seq.ParsePattern(frames.Prefix() + strings.Repeat("#", frames.Width()) + suffix)
	if err != nil || !ok {
		return nil, fmt.Errorf("output pattern %q: no checkpoint name follows from it", framePattern)
	}
	return &checkpoints{dir: dir, frames: frames, names: names, scene: scene, last: -1}, nil
}

func (c *checkpoints) path(frame int) string { return filepath.Join(c.dir, c.names.Path(frame)) }

// list returns the frames that have a checkpoint file, newest first.
func (c *checkpoints) list() ([]int, error) {
	entries, err := os.ReadDir(c.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var frames []int
	for _, e := range entries {
		if f, ok := c.names.Match(e.Name()); ok && e.Type().IsRegular() {
			frames = append(frames, f)
		}
	}
	slices.Sort(frames)
	slices.Reverse(frames)
	return slices.Compact(frames), nil
}

// write saves the state of sim at the end of frame, atomically, and then deletes every
// other checkpoint but the previous one: two, so that one damaged on disk leaves one
// to fall back on.
func (c *checkpoints) write(frame int, sim *simcore.Sim) error {
	st := sim.Snapshot()
	h := checkpoint.Header{Frame: int64(frame), Scene: c.scene}
	path := c.path(frame)
	if err := cli.WriteFileAtomic(path, func(w io.Writer) error {
		return checkpoint.Write(wrapOutput(path, w), h, &st)
	}); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	keep := c.last
	c.last = frame
	frames, err := c.list()
	if err != nil {
		return err
	}
	for _, f := range frames {
		if f != frame && f != keep {
			if err := os.Remove(c.path(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}

// removeAll deletes every checkpoint: a run that starts over overwrites the frames they
// continue from, so resuming from one of them would splice two runs together. It
// returns how many it removed.
func (c *checkpoints) removeAll() (int, error) {
	frames, err := c.list()
	for _, f := range frames {
		if err := os.Remove(c.path(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
	}
	return len(frames), err
}

// removeTemporary deletes the temporary files that a killed run left behind
// (cli.WriteFileAtomic writes .<name>.tmp<random> next to <name>) for frames and
// checkpoints of this run's patterns; nothing else.
func (c *checkpoints) removeTemporary() {
	entries, _ := os.ReadDir(c.dir)
	for _, e := range entries {
		name, ok := strings.CutPrefix(e.Name(), ".")
		if !ok {
			continue
		}
		i := strings.LastIndex(name, ".tmp")
		if i < 0 {
			continue
		}
		_, isFrame := c.frames.Match(name[:i])
		_, isCheckpoint := c.names.Match(name[:i])
		if (isFrame || isCheckpoint) && e.Type().IsRegular() {
			os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
}

// newest reads the newest checkpoint that is intact, telling log about damaged ones it
// skips. A checkpoint of another scene is an error rather than skipped: it means that
// the folder or the scene is not the one the user thinks.
func (c *checkpoints) newest(log io.Writer) (int, simcore.State, error) {
	frames, err := c.list()
	if err != nil {
		return 0, simcore.State{}, err
	}
	if len(frames) == 0 {
		return 0, simcore.State{}, fmt.Errorf("-resume: no checkpoint (%s) in %s: run without -resume to start from the first frame",
			c.names, c.dir)
	}
	for _, f := range frames {
		path := c.path(f)
		h, st, err := readCheckpoint(path, c.limit)
		if err == nil && h.Scene != c.scene {
			return 0, simcore.State{}, fmt.Errorf("-resume: %s was written for a different scene or -quality: "+
				"resume with the scene and -quality it was written for, or run without -resume to start over", path)
		}
		if err == nil && h.Frame != int64(f) {
			err = fmt.Errorf("it holds frame %d, not frame %d as its name says", h.Frame, f)
		}
		if err == nil {
			return f, st, nil
		}
		fmt.Fprintf(log, "snowsim: skipping the checkpoint %s: %v\n", path, err)
	}
	return 0, simcore.State{}, fmt.Errorf("-resume: no usable checkpoint in %s (all %d are damaged): run without -resume to start over",
		c.dir, len(frames))
}

// resumeSim restores the newest usable checkpoint. It returns a nil Sim, and no error,
// when that checkpoint is already at or past the last frame.
func resumeSim(sc *scene.Scene, cps *checkpoints, log io.Writer) (*simcore.Sim, int, error) {
	frame, st, err := cps.newest(log)
	if err != nil {
		return nil, 0, err
	}
	if frame >= sc.Last() {
		fmt.Fprintf(log, "snowsim: the checkpoint %s is at frame %d, past the last frame %d: nothing to do "+
			"(give -frames to simulate more)\n", cps.path(frame), frame, sc.Last())
		return nil, 0, nil
	}
	sim, err := simcore.Restore(sc.Config, st)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %v", cps.path(frame), err)
	}
	cps.last = frame
	fmt.Fprintf(log, "snowsim: resuming from %s (frame %d, t = %.6g s, step %d)\n", cps.path(frame), frame, sim.Time, sim.Steps)
	return sim, frame + 1, nil
}

// readCheckpoint reads a checkpoint whose particle data is at most limit bytes (0:
// checkpoint.DefaultMaxState).
func readCheckpoint(path string, limit int64) (checkpoint.Header, simcore.State, error) {
	f, err := input.Open(path)
	if err != nil {
		return checkpoint.Header{}, simcore.State{}, err
	}
	defer f.Close()
	return checkpoint.ReadLimit(f, limit)
}

// wrapOutput lets tests interpose on the writing of an output file (to kill the
// process in the middle of one); it is the identity otherwise.
var wrapOutput = func(path string, w io.Writer) io.Writer { return w }
