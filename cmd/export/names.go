package main

import (
	"fmt"
	"slices"
	"strings"
)

// outputNames collects the names one output file holds (a PRT's channels, a PLY's
// vertex properties, a VDB's grids) with what gave each, so that a name given twice,
// by the target's table, -rename, -props or a flag, is refused with both origins
// rather than written into a file its readers would misread or refuse.
type outputNames struct {
	kind string // "PRT channel", "PLY property", "grid"
	// identifiers asks for [A-Za-z_][A-Za-z0-9_]*: PRT channels (Krakatoa reads them
	// as script names) and PLY properties (readers split the header on blanks, and
	// DCCs turn the names into attributes); maxLen > 0 bounds them (a PRT stores 31
	// bytes).
	identifiers bool
	maxLen      int
	from        map[string]string // name -> what gave it
}

func newOutputNames(kind string, identifiers bool, maxLen int) *outputNames {
	return &outputNames{kind: kind, identifiers: identifiers, maxLen: maxLen, from: map[string]string{}}
}

// add records name, given by from (a flag, as the user wrote it), or returns an
// error that names from and, for a clash, what gave the name first.
func (o *outputNames) add(name, from string) error {
	switch {
	case o.identifiers && !isIdentifier(name):
		return fmt.Errorf("%s: %q cannot be a %s: use letters, digits and _, not starting with a digit", from, name, o.kind)
	case o.maxLen > 0 && len(name) > o.maxLen:
		return fmt.Errorf("%s: %q is too long for a %s (at most %d bytes)", from, name, o.kind, o.maxLen)
	case name == "":
		return fmt.Errorf("%s: an empty %s name", from, o.kind)
	}
	if first, dup := o.from[name]; dup {
		hint := ""
		if channel, ok := strings.CutPrefix(from, "-props "); ok {
			hint = fmt.Sprintf(": give it another with -rename %s=NAME", channel)
		}
		return fmt.Errorf("%s: the %s %q is taken by %s; two would have one name%s", from, o.kind, name, first, hint)
	}
	o.from[name] = from
	return nil
}

// isIdentifier reports whether s matches [A-Za-z_][A-Za-z0-9_]*.
func isIdentifier(s string) bool {
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// renamed returns the name that -rename gives channel and the flag that gave it, or
// name and from when -rename leaves the channel alone: explicit renames win over the
// target's names.
func (s *settings) renamed(channel, name, from string) (string, string) {
	if to, ok := s.rename[channel]; ok {
		return to, "-rename " + channel + "=" + to
	}
	return name, from
}

// vectorNames returns the names of the components of a channel of several values
// written one property each: the target's names unless -rename names the channel,
// then (as for -props channels) componentNames of the new name.
func (s *settings) vectorNames(channel string, names []string, from string) ([]string, string) {
	if to, origin := s.renamed(channel, "", from); to != "" {
		return componentNames(to, len(names)), origin
	}
	return names, from
}

// componentNames names the properties of a channel of arity values called base:
// base itself for one value, else base_0, base_1, ...
func componentNames(base string, arity int) []string {
	if arity == 1 {
		return []string{base}
	}
	names := make([]string, arity)
	for k := range names {
		names[k] = fmt.Sprintf("%s_%d", base, k)
	}
	return names
}

// checkRenamesUsed refuses a -rename of a channel that the output does not write
// under a name of its own: renamable lists those it does (a PLY's ID, Velocity and
// -props channels; a VDB's Velocity and -props channels). A rename that changes
// nothing is a mistake the user would not see.
func (s *settings) checkRenamesUsed(renamable []string) error {
	for _, from := range mapKeys(s.rename) {
		if !slices.Contains(renamable, from) {
			what := "nothing"
			if len(renamable) > 0 {
				what = strings.Join(renamable, ", ")
			}
			return fmt.Errorf("-rename %s=%s: -to %s writes no %s channel under a name of its own (here -rename applies to %s)",
				from, s.rename[from], s.to, from, what)
		}
	}
	return nil
}
