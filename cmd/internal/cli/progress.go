package cli

import (
	"fmt"
	"io"
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

// Duration formats d as m:ss or h:mm:ss.
func Duration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
