package scene

import (
	"bytes"
	"fmt"
)

// Limits on a scene's text, checked before the TOML parser sees it. The parser
// spends time and memory that grow faster than the text with a header of many
// dotted parts (100,000 parts in 200 KB took more than 6 GB) and with values nested
// deep (100,000 inline tables likewise). The limits are far above any scene: the
// longest key has 4 parts (materials.NAME.sintering.rho_max) and the deepest
// nesting is 2 ([[collider.key]]).
const (
	MaxFileSize = 16 << 20 // bytes of scene text
	MaxNesting  = 64       // brackets and braces open at once
	MaxKeyParts = 32       // parts of one dotted key
)

// checkText returns an error when text is longer than MaxFileSize, or naming the
// line where it exceeds MaxNesting or MaxKeyParts; nil otherwise. It is a scan of the bytes outside strings and comments, not a
// parser: depth is the count of [ and { open (a table header's own brackets
// included), and a key's parts are the dots in a run of text between the
// structural characters = , [ ] { } and newlines, plus one. A number has at most
// one dot in such a run (1.5, 1e-3, a time's fraction), so only dotted keys come
// near the limit. Quoted key parts may hold dots; those are inside strings and not
// counted. TOML's edge cases of quotes just before a multi-line string's closing
// delimiter are followed as the spec says (up to two extra quotes).
func checkText(text []byte) error {
	if len(text) > MaxFileSize {
		return fmt.Errorf("more than %d bytes: too large for a scene file", MaxFileSize)
	}
	line, depth, dots := 1, 0, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case '\n':
			line++
			dots = 0
		case '#':
			for i+1 < len(text) && text[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			var n int
			i, n = skipString(text, i)
			line += n
		case '[', '{':
			depth++
			dots = 0
			if depth > MaxNesting {
				return fmt.Errorf("line %d: arrays, tables or inline tables nested more than %d deep", line, MaxNesting)
			}
		case ']', '}':
			depth = max(depth-1, 0)
			dots = 0
		case '=', ',':
			dots = 0
		case '.':
			dots++
			if dots+1 > MaxKeyParts {
				return fmt.Errorf("line %d: a dotted key of more than %d parts", line, MaxKeyParts)
			}
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string that starts at
// text[i] (a quote) and the newlines inside it. A single-line string ends at its
// closing quote or, unterminated, before the end of the line (the parser reports
// it); a basic string's backslash escapes the next byte.
func skipString(text []byte, i int) (end, newlines int) {
	q := text[i]
	basic := q == '"'
	if bytes.HasPrefix(text[i:], []byte{q, q, q}) {
		delim := []byte{q, q, q}
		for j := i + 3; j < len(text); j++ {
			switch {
			case basic && text[j] == '\\':
				if j+1 < len(text) && text[j+1] == '\n' {
					newlines++
				}
				j++
			case text[j] == '\n':
				newlines++
			case bytes.HasPrefix(text[j:], delim):
				j += 2
				for extra := 0; extra < 2 && j+1 < len(text) && text[j+1] == q; extra++ {
					j++
				}
				return j, newlines
			}
		}
		return len(text) - 1, newlines
	}
	for j := i + 1; j < len(text); j++ {
		switch {
		case basic && text[j] == '\\' && j+1 < len(text) && text[j+1] != '\n':
			j++
		case text[j] == q:
			return j, 0
		case text[j] == '\n':
			return j - 1, 0
		}
	}
	return len(text) - 1, 0
}
