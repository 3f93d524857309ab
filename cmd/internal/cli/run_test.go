package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strings"
	"syscall"
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
		{[]string{"-n", "0"}, nil, ExitUsage, "tool: -n 0: must be > 0 (-h for help)\n"},
		{[]string{"-n", "x"}, nil, ExitUsage, `tool: invalid value "x" for flag -n: parse error (-h for help)` + "\n"},
		{[]string{"-m"}, nil, ExitUsage, "tool: flag provided but not defined: -m (-h for help)\n"},
		{nil, errors.New("disk full"), ExitFailure, "tool: disk full\n"},
		{nil, fmt.Errorf("scene: %w", &UsageError{Err: errors.New("-set x: no such key")}), ExitUsage, "tool: scene: -set x: no such key (-h for help)\n"},
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

// A run that a signal stopped exits with 128 + the signal, after its message.
func TestRunInterrupted(t *testing.T) {
	for sig, code := range map[syscall.Signal]int{syscall.SIGINT: 130, syscall.SIGTERM: 143} {
		var stderr bytes.Buffer
		err := fmt.Errorf("stopped: %w", &InterruptedError{Signal: sig, Err: errors.New("continue with: tool -resume")})
		got := Run("tool", &stderr, func() (int, error) { return 0, nil }, func(int) error { return err })
		if got != code || stderr.String() != "tool: stopped: continue with: tool -resume\n" {
			t.Errorf("%v: exit %d, %q; want %d", sig, got, stderr.String(), code)
		}
	}
}

func TestHelpHint(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New("-frames -3: must be >= 0"), "-frames -3: must be >= 0 (-h for help)"},
		{errors.New("give one scene (-h for help)"), "give one scene (-h for help)"},
	} {
		if got := withHelpHint(c.err).Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
	if withHelpHint(nil) != nil || withHelpHint(flag.ErrHelp) != flag.ErrHelp {
		t.Error("nil or flag.ErrHelp changed")
	}
}
