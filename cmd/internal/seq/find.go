package seq

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A Frame is one existing file of a sequence.
type Frame struct {
	Number int
	Path   string // the folder as the user wrote it, joined to the file name
}

// Find returns the frames that path designates, sorted by number:
//
//   - a pattern (see ParsePattern): every file in its folder that it matches
//     (see Pattern.Match); it is an error if there is none;
//   - an existing file whose name ends in a number before the extension
//     ("cube1.obj", "cube_000001.obj", "spot.0003.obj"): every file of its
//     folder with the same text before the number, the same extension and any
//     number, with any padding, so that any one frame of a sequence finds it
//     all; a file without such siblings is a single frame with its number;
//   - any other existing file: a single frame numbered 1.
//
// Two files with the same number, such as a1.obj and a01.obj, are an error
// that names both. The extension is the text after the last dot, so the number
// of "name.0001.bgeo.sc" is not found; an extension of digits only ("name.0001")
// counts as none.
func Find(path string) ([]Frame, error) {
	p, ok, err := ParsePattern(path)
	if err != nil {
		return nil, err
	}
	if ok {
		return findPattern(p)
	}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file (for a sequence, write the frame number as #### or %%04d)", path)
	}
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("%s: is a folder; name a file, or a sequence with #### or %%04d for the frame number", path)
	}
	dir, name := filepath.Split(path)
	prefix, _, ext, ok := splitNumber(name)
	if !ok {
		return []Frame{{Number: 1, Path: path}}, nil
	}
	return collect(dir, func(name string) (int, bool) {
		digits, ok := strings.CutPrefix(name, prefix)
		if !ok {
			return 0, false
		}
		if digits, ok = strings.CutSuffix(digits, ext); !ok {
			return 0, false
		}
		return parseFrame(digits)
	}, path)
}

// findPattern lists the files that p matches.
func findPattern(p Pattern) ([]Frame, error) {
	frames, err := collect(p.dir, p.Match, p.text)
	if err == nil && len(frames) == 0 {
		err = fmt.Errorf("%s: no file matches (frame numbers padded to %d digits)", p.text, p.width)
		if p.width == 1 {
			err = fmt.Errorf("%s: no file matches", p.text)
		}
	}
	return frames, err
}

// collect returns the files of folder dir (as written: "" is the working
// folder) whose names match, sorted by number, or an error naming what for if
// two have the same number.
func collect(dir string, match func(name string) (int, bool), what string) ([]Frame, error) {
	entries, err := os.ReadDir(cmp.Or(dir, "."))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var frames []Frame
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if n, ok := match(e.Name()); ok {
			frames = append(frames, Frame{Number: n, Path: dir + e.Name()})
		}
	}
	// ReadDir sorts by name, so ties are in a deterministic order.
	slices.SortStableFunc(frames, func(a, b Frame) int { return cmp.Compare(a.Number, b.Number) })
	for i := 1; i < len(frames); i++ {
		if frames[i].Number == frames[i-1].Number {
			return nil, fmt.Errorf("%s: %s and %s are both frame %d; remove or rename one",
				what, frames[i-1].Path, frames[i].Path, frames[i].Number)
		}
	}
	return frames, nil
}

// splitNumber splits a file name into the text before a frame number that ends
// its stem, the number and the extension; ok is false if the stem does not end
// in digits.
func splitNumber(name string) (prefix string, frame int, ext string, ok bool) {
	ext = filepath.Ext(name)
	if _, digits := parseFrame(ext[min(1, len(ext)):]); digits {
		ext = "" // "name.0001": the dot separates the number, it is no extension
	}
	stem := name[:len(name)-len(ext)]
	i := len(stem)
	for i > 0 && stem[i-1] >= '0' && stem[i-1] <= '9' {
		i--
	}
	frame, ok = parseFrame(stem[i:])
	return stem[:i], frame, ext, ok
}

// Outside returns the existing files of the pattern p whose frame numbers lie outside
// first..last, sorted by number: what a run that writes frames first..last of p would
// leave beside its own from an earlier run, for a reader to take as one sequence. A
// folder that does not exist has none.
func Outside(p Pattern, first, last int) ([]Frame, error) {
	frames, err := collect(p.dir, p.Match, p.text)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(frames, func(f Frame) bool { return f.Number >= first && f.Number <= last }), nil
}
