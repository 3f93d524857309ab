package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/budget/budgettest"
)

// hostileFlags are export command lines whose flags ask for more than the budget
// or a sane thread count; each must stop before reading a frame.
var hostileFlags = map[string]struct {
	args []string
	want string
}{
	// -size 16384x16384 -ss 8: 1.7e10 samples a frame, which main allocated.
	"picture size": {[]string{"-to", "png", "-threads", "2", "-memory", "64G", "-size", "16384x16384", "-ss", "8"},
		"-size 16384x16384 at -ss 8, 2 frames at a time (-threads) need about 258 GiB, more than the memory budget of 64 GiB"},
	"picture over -memory": {[]string{"-to", "png", "-threads", "1", "-memory", "64M", "-size", "2048x2048", "-ss", "2"},
		"need about 144 MiB, more than the memory budget of 64 MiB (-memory 64M"},
	"threads": {[]string{"-to", "png", "-threads", "100000000"}, "-threads 100000000: at most 1024"},
}

// Each hostile command line stops with its error, in a child process that peaks
// below 100 MB and ends within 60 s (measured: about 10 MB, a few milliseconds).
func TestHostileFlags(t *testing.T) {
	if name := budgettest.Case(); name != "" {
		dir := t.TempDir()
		in, _ := writeSequence(t, dir, 1)
		args := append(hostileFlags[name].args, strings.Replace(in, "####", "0001", 1), filepath.Join(dir, "p.png"))
		os.Exit(run(args, os.Stderr))
	}
	for name, c := range hostileFlags {
		r := budgettest.Run(t, "TestHostileFlags", name, 60*time.Second)
		t.Logf("%s: exit %d, %.0f MB, %v: %s", name, r.ExitCode, float64(r.MaxRSS)/1e6, r.Elapsed.Round(time.Millisecond), strings.TrimSpace(r.Output))
		if r.ExitCode < 1 || r.TimedOut || !strings.Contains(r.Output, c.want) {
			t.Errorf("%s: exit %d, timed out %v, %q does not say %q", name, r.ExitCode, r.TimedOut, r.Output, c.want)
		}
		if r.MaxRSS > 100e6 {
			t.Errorf("%s: peak RSS %.0f MB", name, float64(r.MaxRSS)/1e6)
		}
	}
}
