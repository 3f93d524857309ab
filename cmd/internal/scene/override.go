package scene

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Settings is the -set flag (a flag.Value): scene keys that replace the scene file's,
// so that one scene serves a series of runs (the press experiment's pressures, say)
// without a copy per run.
type Settings []string

func (s *Settings) String() string     { return strings.Join(*s, " ") }
func (s *Settings) Set(v string) error { *s = append(*s, v); return nil }

// Override returns the scene text with each "key=value" of sets applied: key is a
// dotted path (time.frames, materials.fresh.E0, press.2.pressure; a number picks an
// entry of an array of tables, from 1) and value is a TOML value (150, "fresh",
// [0, 1, 0]). Missing tables are created; a path through a value that is not a table
// is an error.
func Override(text []byte, sets []string) ([]byte, error) {
	if len(sets) == 0 {
		return text, nil
	}
	doc := map[string]any{}
	if err := checkText(text); err != nil {
		return text, nil // Read reports it, before parsing
	}
	if _, err := toml.Decode(string(text), &doc); err != nil {
		return text, nil // Read reports the file's own errors, with their lines
	}
	for _, set := range sets {
		path, value, ok := strings.Cut(set, "=")
		path = strings.TrimSpace(path)
		if !ok || path == "" {
			return nil, fmt.Errorf("-set %q: use key=value, as in time.frames=24", set)
		}
		var v struct{ V any }
		if md, err := toml.Decode("V = "+value, &v); err != nil || len(md.Undecoded()) > 0 {
			return nil, fmt.Errorf("-set %s: value %q is not a TOML value (text needs quotes: \"fresh\")", path, value)
		}
		if err := setPath(doc, strings.Split(path, "."), v.V); err != nil {
			return nil, fmt.Errorf("-set %s: %v", path, err)
		}
	}
	var out bytes.Buffer
	if err := toml.NewEncoder(&out).Encode(doc); err != nil {
		return nil, fmt.Errorf("-set: %v", err)
	}
	return out.Bytes(), nil
}

// setPath sets table[path...] = v.
func setPath(table map[string]any, path []string, v any) error {
	key := path[0]
	if len(path) == 1 {
		table[key] = v
		return nil
	}
	switch next := table[key].(type) {
	case nil:
		if _, err := strconv.Atoi(path[1]); err == nil {
			return fmt.Errorf("%s has no entry %s", key, path[1])
		}
		child := map[string]any{}
		table[key] = child
		return setPath(child, path[1:], v)
	case map[string]any:
		return setPath(next, path[1:], v)
	case []map[string]any:
		i, err := strconv.Atoi(path[1])
		if err != nil || i < 1 || i > len(next) {
			return fmt.Errorf("%s has entries 1 to %d", key, len(next))
		}
		if len(path) == 2 {
			return fmt.Errorf("%s.%d is a table: name one of its keys", key, i)
		}
		return setPath(next[i-1], path[2:], v)
	}
	return fmt.Errorf("%s is a value, not a table", key)
}
