package seq

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// maxWidth bounds the padding of a placeholder; no frame number needs more.
const maxWidth = 18

// A Pattern is a path with one frame placeholder in its file name. The zero
// Pattern is not useful; make one with ParsePattern.
type Pattern struct {
	text   string // as the user wrote it
	dir    string // folder part, with its trailing separator; may be empty
	prefix string // file name before the placeholder
	suffix string // file name after the placeholder
	width  int    // minimum number of digits; 1 means unpadded
}

// ParsePattern finds the frame placeholder in path. ok is false, with no error,
// when there is none; it is an error for the file name to hold two, or for a
// folder name to hold one (the frames of a sequence share a folder).
func ParsePattern(path string) (p Pattern, ok bool, err error) {
	dir, name := filepath.Split(path)
	if _, _, _, found, err := findPlaceholder(dir); err != nil || found {
		return Pattern{}, false, fmt.Errorf("%q: the frame number must be in the file name, not in a folder name", path)
	}
	start, end, width, found, err := findPlaceholder(name)
	if err != nil {
		return Pattern{}, false, fmt.Errorf("%q: %v", path, err)
	}
	if !found {
		return Pattern{}, false, nil
	}
	if _, _, _, again, _ := findPlaceholder(name[end:]); again {
		return Pattern{}, false, fmt.Errorf("%q: more than one frame placeholder (#### or %%04d)", path)
	}
	return Pattern{text: path, dir: dir, prefix: name[:start], suffix: name[end:], width: width}, true, nil
}

// findPlaceholder returns the byte range and padding of the first placeholder
// in s.
func findPlaceholder(s string) (start, end, width int, found bool, err error) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#':
			j := i
			for j < len(s) && s[j] == '#' {
				j++
			}
			if j-i > maxWidth {
				return 0, 0, 0, false, fmt.Errorf("%d '#': at most %d digits of padding", j-i, maxWidth)
			}
			return i, j, j - i, true, nil
		case '%':
			j := i + 1
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j == len(s) || s[j] != 'd' {
				continue // not a verb: an ordinary '%'
			}
			digits := s[i+1 : j]
			switch {
			case digits == "":
				return i, j + 1, 1, true, nil
			case digits[0] != '0':
				return 0, 0, 0, false, fmt.Errorf("%q pads with spaces; write %%0%sd for zero padding", s[i:j+1], digits)
			}
			w, err := strconv.Atoi(digits[1:])
			if err != nil || w < 1 || w > maxWidth {
				return 0, 0, 0, false, fmt.Errorf("%q: padding must be 1 to %d digits", s[i:j+1], maxWidth)
			}
			return i, j + 1, w, true, nil
		}
	}
	return 0, 0, 0, false, nil
}

// String returns the pattern as it was written.
func (p Pattern) String() string { return p.text }

// Prefix returns the path before the placeholder, folder included, and Suffix
// the text after it: Path(f) is Prefix() + the padded number + Suffix().
func (p Pattern) Prefix() string { return p.dir + p.prefix }

// Suffix returns the text after the placeholder; see Prefix.
func (p Pattern) Suffix() string { return p.suffix }

// Width returns the number of digits frame numbers are padded to; 1 means no
// padding.
func (p Pattern) Width() int { return p.width }

// Path returns the path of frame f. It panics if f is negative: sequences are
// numbered from zero up (see the package documentation).
func (p Pattern) Path(f int) string {
	if f < 0 {
		panic(fmt.Sprintf("seq: negative frame number %d for %q", f, p.text))
	}
	return p.dir + p.prefix + pad(f, p.width) + p.suffix
}

// pad writes f with at least width digits.
func pad(f, width int) string {
	s := strconv.Itoa(f)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// Match reports whether the file name (without folder) name is a frame of p,
// and which. A padded pattern matches only the name it would write for that
// frame, so that "a.####.obj" does not take a.07.obj or a.00007.obj; an
// unpadded one ("#", "%d") takes any padding, since unpadded names are what
// the pattern would write and padded ones are no other sequence's.
func (p Pattern) Match(name string) (frame int, ok bool) {
	digits, ok := strings.CutPrefix(name, p.prefix)
	if !ok {
		return 0, false
	}
	if digits, ok = strings.CutSuffix(digits, p.suffix); !ok {
		return 0, false
	}
	f, ok := parseFrame(digits)
	if !ok || (p.width > 1 && pad(f, p.width) != digits) {
		return 0, false
	}
	return f, true
}

// parseFrame parses a non-empty run of ASCII digits (no sign) that fits an int.
func parseFrame(s string) (int, bool) {
	if s == "" || len(s) > maxWidth {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	f, err := strconv.Atoi(s)
	return f, err == nil
}

// Stem names a sequence or a file of one after its file name, without the folder,
// the frame number and the extension: walk.####.obj, walk.%04d.obj, walk1.obj and
// walk.obj all give "walk". Separators at its end are trimmed; it may be empty.
func Stem(path string) string {
	base := filepath.Base(path)
	if p, ok, err := ParsePattern(base); ok && err == nil {
		base = p.Prefix()
	} else {
		base = strings.TrimSuffix(base, filepath.Ext(base))
		base = strings.TrimRight(base, "0123456789")
	}
	return strings.TrimRight(base, "._- ")
}
