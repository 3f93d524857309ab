package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"
)

// Progress prints one status line per update to a log, or redraws a single line in
// place when the log is a terminal.
type Progress struct {
	w        io.Writer
	terminal bool
	width    int
}

// NewProgress reports to w; it redraws in place only when w is a terminal.
func NewProgress(w io.Writer) *Progress {
	p := &Progress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

// Update shows line.
func (p *Progress) Update(line string) {
	if !p.terminal {
		fmt.Fprintln(p.w, line)
		return
	}
	pad := p.width - len(line)
	p.width = len(line)
	if pad < 0 {
		pad = 0
	}
	fmt.Fprintf(p.w, "\r%s%*s", line, pad, "")
}

// Done ends an in-place line so that what follows starts on its own line.
func (p *Progress) Done() {
	if p.terminal && p.width > 0 {
		fmt.Fprintln(p.w)
		p.width = 0
	}
}

// Duration formats d as m:ss or h:mm:ss, with a minus sign when d is negative. Every
// duration has its true form: the hours of the longest, about 292 years, are 2562047.
func Duration(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -max(d, -math.MaxInt64) // -MinInt64 does not exist
	}
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%s%d:%02d", sign, s/60, s%60)
}

// ETA is the time left for left more items when done items took elapsed: elapsed /
// done x left, computed in floating point and capped at the longest time.Duration, so
// that a huge count of items gives a huge ETA and never one that wrapped around to a
// negative one (float64 to int64 conversion of a value out of range is not defined).
// It is zero until an item is done.
func ETA(elapsed time.Duration, done, left int) time.Duration {
	if done <= 0 || left <= 0 {
		return 0
	}
	eta := float64(elapsed) / float64(done) * float64(left)
	if eta >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(eta)
}
