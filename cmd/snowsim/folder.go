package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"snowtools/cmd/internal/cli"
	"snowtools/cmd/internal/scene"
	"snowtools/cmd/internal/seq"
)

// maxFrame is the highest frame number snowsim writes: PRT frames record it as a
// 32-bit integer (the Frame metadata), and no animation has more frames.
const maxFrame = math.MaxInt32

// checkFrames refuses a run whose frame numbers go past maxFrame; it is checked before
// any work, in a form that does not overflow (Start + Frames may not fit an int).
func checkFrames(sc *scene.Scene) error {
	if sc.Frames > maxFrame || sc.Start > maxFrame-sc.Frames {
		return fmt.Errorf("%d frames from frame %d: frame numbers stop at %d (a PRT frame records its number as a 32-bit integer): lower -frames, time.frames or time.start",
			sc.Frames, sc.Start, maxFrame)
	}
	return nil
}

// claimOutputFolder makes the run's output folder and locks it (cli.LockFolder), so
// that a second run into the same folder fails at once, naming this one, instead of
// mixing its frames with this run's. The caller releases the lock when the run ends;
// a run killed before that leaves a stale lock, which the next run takes over with a
// note.
func claimOutputFolder(sc *scene.Scene, log io.Writer) (*cli.FolderLock, error) {
	if err := os.MkdirAll(sc.OutDir, 0o755); err != nil {
		return nil, err
	}
	lock, note, err := cli.LockFolder(sc.OutDir, "snowsim")
	if err != nil {
		return nil, err
	}
	if note != "" {
		fmt.Fprintf(log, "snowsim: %s\n", note)
	}
	return lock, nil
}

// outputPatterns are the file patterns of the sequences a run writes into its folder:
// the frames, and the pictures, the colliders' meshes and the ground's meshes and
// height maps when it writes them.
func outputPatterns(sc *scene.Scene, preview bool) []string {
	patterns := []string{sc.Pattern}
	if preview {
		patterns = append(patterns, previewPattern(sc.Pattern))
	}
	optional := []string{sc.ColliderMesh}
	if g := sc.Ground; g != nil {
		optional = append(optional, g.Mesh, g.HeightMap)
	}
	for _, p := range optional {
		if p != "" {
			patterns = append(patterns, p)
		}
	}
	return patterns
}

// removeStaleFrames deletes, for a run that starts over, the files of its own
// sequences (outputPatterns) that lie outside its frames Start..Last(): those of an
// earlier, longer run or one that started elsewhere. Left there, they would join this
// run's frames into one sequence for export and every DCC, although they are another
// run's (another scene, or other settings). Deleting them loses nothing of worth: the
// frames this run writes replace that earlier run's frames in the same range, so its
// sequence is broken anyway. Only names of this run's patterns are touched, never
// another file, and the log says how many went and which.
func removeStaleFrames(sc *scene.Scene, preview bool, log io.Writer) error {
	for _, pattern := range outputPatterns(sc, preview) {
		p, _, err := seq.ParsePattern(filepath.Join(sc.OutDir, pattern))
		if err != nil {
			return err
		}
		stale, err := seq.Outside(p, sc.Start, sc.Last())
		if err != nil {
			return err
		}
		for _, f := range stale {
			if err := os.Remove(f.Path); err != nil {
				return fmt.Errorf("removing %s, a frame of an earlier run: %v", f.Path, err)
			}
		}
		if n := len(stale); n > 0 {
			fmt.Fprintf(log, "snowsim: removed %d files of an earlier run outside this run's frames %d-%d (%s): %s\n",
				n, sc.Start, sc.Last(), pattern, describeRemoved(stale))
		}
	}
	return nil
}

// describeRemoved names the removed frames, the first and last of many.
func describeRemoved(frames []seq.Frame) string {
	names := func(f seq.Frame) string { return filepath.Base(f.Path) }
	switch len(frames) {
	case 1:
		return names(frames[0])
	case 2:
		return names(frames[0]) + " and " + names(frames[1])
	}
	return fmt.Sprintf("%s ... %s", names(frames[0]), names(frames[len(frames)-1]))
}
