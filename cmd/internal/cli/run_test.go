package cli

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A tool on Run: -n must be positive; act fails as it is told.
func runTool(args []string, actErr error) (int, string) {
	var stderr bytes.Buffer
	code := Run("tool", &stderr, func() (int, error) {
		fs := NewFlagSet("tool", &stderr, "tool does things.\n\nFlags:\n", "\nExamples:\n  tool -n 3\n")
		n := fs.Int("n", 1, "how many `N`")
		if err := fs.Parse(args); err != nil {
			return 0, err
		}
		if *n <= 0 {
			return 0, fmt.Errorf("-n %d: must be > 0", *n)
		}
		return *n, nil
	}, func(int) error { return actErr })
	return code, stderr.String()
}

func TestRunExitStatuses(t *testing.T) {
	for _, c := range []struct {
		args   []string
		actErr error
		code   int
		want   string // the whole of stderr
	}{
		{[]string{"-n", "2"}, nil, 0, ""},
		{[]string{"-n", "0"}, nil, ExitUsage, "tool: -n 0: must be > 0\n"},
		{[]string{"-n", "x"}, nil, ExitUsage, `tool: invalid value "x" for flag -n: parse error` + "\n"},
		{[]string{"-m"}, nil, ExitUsage, "tool: flag provided but not defined: -m\n"},
		{nil, errors.New("disk full"), ExitFailure, "tool: disk full\n"},
		{nil, fmt.Errorf("scene: %w", &UsageError{Err: errors.New("-set x: no such key")}), ExitUsage, "tool: scene: -set x: no such key\n"},
	} {
		if code, log := runTool(c.args, c.actErr); code != c.code || log != c.want {
			t.Errorf("%v, %v: exit %d, %q; want %d, %q", c.args, c.actErr, code, log, c.code, c.want)
		}
	}
	code, log := runTool([]string{"-h"}, nil)
	if code != 0 || !strings.HasPrefix(log, "tool does things.") || !strings.Contains(log, "-n N") || !strings.HasSuffix(log, "tool -n 3\n") {
		t.Errorf("-h: exit %d, %q", code, log)
	}
}

func TestGiven(t *testing.T) {
	fs := NewFlagSet("tool", &bytes.Buffer{}, "", "")
	fs.Int("a", 0, "")
	fs.Int("b", 0, "")
	if err := fs.Parse([]string{"-a", "0"}); err != nil {
		t.Fatal(err)
	}
	if g := fs.Given(); !g["a"] || g["b"] {
		t.Errorf("given %v, want a alone", g)
	}
}
