package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"snowtools/cmd/internal/budget"
	"snowtools/levelset/limittest"
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
	for name, c := range hostileFlags {
		t.Run(name, func(t *testing.T) {
			status, msgs, _ := limittest.Tool(t, limittest.Limits{RSS: 100 << 20, Time: time.Minute}, func(stderr io.Writer) int {
				dir, _ := os.MkdirTemp("", "export-hostile")
				defer os.RemoveAll(dir)
				in, _ := writeSequence(t, dir, 1)
				return run(append(c.args, strings.Replace(in, "####", "0001", 1), filepath.Join(dir, "p.png")), stderr)
			})
			if status < 1 || !strings.Contains(msgs, c.want) {
				t.Errorf("exit %d, %q does not say %q", status, msgs, c.want)
			}
		})
	}
}

// A frame is read within the memory budget: its header's particle data beyond it is
// refused before anything is decompressed.
func TestFrameWithinBudget(t *testing.T) {
	in, _ := writeSequence(t, t.TempDir(), 1)
	path := strings.Replace(in, "####", "0001", 1)
	if _, err := (&settings{}).readFrame(path); err != nil {
		t.Fatalf("without a budget: %v", err)
	}
	s := &settings{budget: budget.Budget{Bytes: 100, Source: "-memory"}}
	if _, err := s.readFrame(path); err == nil || !strings.Contains(err.Error(), "more than the limit of 100") {
		t.Errorf("a budget of 100 bytes: %v", err)
	}
}
