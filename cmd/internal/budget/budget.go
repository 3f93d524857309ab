// Package budget is the memory budget of a tool's run: how many bytes its large
// allocations (particles, grids, frames, decompressed data) may take together. The
// tools check an estimate against it before they allocate, so that an input asking
// for more than the machine has stops at once with an error that says what needed
// how much, instead of swapping or being killed by the kernel minutes later.
package budget

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// DefaultFraction is the share of the machine's memory (or of the container's
// limit, when lower) that the default budget allows.
const DefaultFraction = 0.75

// Budget is a limit in bytes and where it came from, for the messages.
type Budget struct {
	Bytes  int64
	Source string // "-memory 8G", or "75% of this machine's 23.5 GiB"
}

// Default returns DefaultFraction of the memory this process can use: the lower of
// the machine's (MemTotal in /proc/meminfo) and the cgroup's limit (memory.max).
// Where neither can be read, the budget is unlimited.
func Default() Budget {
	total, what := machineMemory()
	if total <= 0 {
		return Budget{Bytes: math.MaxInt64, Source: "unlimited: this machine's memory could not be read"}
	}
	return Budget{
		Bytes:  int64(float64(total) * DefaultFraction),
		Source: fmt.Sprintf("%.0f%% of %s's %s", 100*DefaultFraction, what, Format(total)),
	}
}

// Parse reads a size as the -memory flag and the scene key take it: a number of
// bytes with an optional unit K, M, G or T (powers of 1024; "GiB" and "GB" are the
// same), such as "512M" or "1.5G".
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "iB"), "B"), "b")
	scale := 1.0
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'k', 'K':
			scale = 1 << 10
		case 'm', 'M':
			scale = 1 << 20
		case 'g', 'G':
			scale = 1 << 30
		case 't', 'T':
			scale = 1 << 40
		}
		if scale != 1 {
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v > 0) || v*scale >= math.MaxInt64 {
		return 0, fmt.Errorf("memory size %q: want a positive number of bytes with an optional K, M, G or T, such as 512M or 8G", s)
	}
	if v*scale < 1<<20 {
		// export -memory once took gigabytes: a bare 4 is surely not 4 bytes.
		return 0, fmt.Errorf("memory size %q: under 1 MiB; give a unit, such as %gG", s, v)
	}
	return int64(v * scale), nil
}

// Check returns an *ExceededError when bytes is more than the budget; what names
// the allocation ("5.8e7 particles").
func (b Budget) Check(what string, bytes int64) error {
	if bytes <= b.Bytes {
		return nil
	}
	return &ExceededError{What: what, Need: bytes, Budget: b}
}

// ExceededError is an estimate over the budget.
type ExceededError struct {
	What   string
	Need   int64
	Budget Budget
}

func (e *ExceededError) Error() string {
	return fmt.Sprintf("%s need about %s, more than the memory budget of %s (%s; raise it with -memory)",
		e.What, Format(e.Need), Format(e.Budget.Bytes), e.Budget.Source)
}

// Format writes a byte count for people: "512 MiB", "5.8 GiB".
func Format(bytes int64) string {
	f := float64(bytes)
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"} {
		if f < 1024 || u == "PiB" {
			if u == "B" {
				return fmt.Sprintf("%d B", bytes)
			}
			return fmt.Sprintf("%.3g %s", f, u)
		}
		f /= 1024
	}
	panic("unreachable")
}

// machineMemory returns the memory this process can use and what limits it.
func machineMemory() (int64, string) {
	total, what := int64(0), "this machine"
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if kb, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				if v, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64); err == nil {
					total = v << 10
				}
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && v > 0 && (total == 0 || v < total) {
			total, what = v, "this container"
		}
	}
	return total, what
}
