// Package limittest runs a piece of a test in a child process and measures what it
// cost: its peak resident memory and its wall time. The hardening tests of issue 24
// use it to show that a hostile input (a decompression bomb, a FIFO, a deeply nested
// scene) fails with a clear error AND bounded resources: the child is the test
// binary itself, re-run on the one test, so a runaway allocation or an endless read
// costs the child, never the test process, and the peak RSS that the child reports
// (its VmHWM) is the reader's own.
//
// The package imports only the standard library and sits under levelset so that the
// tests of every layer (levelset, formats, simcore and cmd) may import it.
package limittest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// caseEnv tells the child which test it runs the body of.
const caseEnv = "SNOWTOOLS_LIMITTEST_CASE"

// Limits are the resources the child may use: they are safety limits, far above
// what a correct reader needs, not speed targets.
type Limits struct {
	RSS  int64         // peak resident memory in bytes
	Time time.Duration // wall time; the child is killed after it
}

// Default is a bound that every bounded reader meets with a wide margin and that
// every bomb of issue 24 exceeded: 300 MB and 60 s.
var Default = Limits{RSS: 300 << 20, Time: 60 * time.Second}

// Result is what the child reported and what it cost.
type Result struct {
	Output  string        // what body returned: its error's text, or "" for nil
	PeakRSS int64         // bytes
	Elapsed time.Duration // wall time
}

// Run runs body in a child process and returns its result, failing t when the
// child exceeds lim or dies. In the child, Run calls body, writes its error's text
// to standard output and exits; it never returns there. Call Run once per test
// (or subtest), with no test code before it that must not run twice. t may be a
// benchmark (a *testing.B), whose child runs it once (-test.benchtime 1x): a
// benchmark of peak memory measures the body alone in a fresh process.
func Run(t testing.TB, lim Limits, body func() error) Result {
	t.Helper()
	if os.Getenv(caseEnv) == t.Name() {
		msg := ""
		if err := body(); err != nil {
			msg = err.Error()
		}
		fmt.Print(msg)
		if hwm, ok := PeakRSS(); ok {
			fmt.Fprintf(os.Stderr, "\n%s%d\n", peakMarker, hwm)
		}
		os.Exit(0)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lim.Time)
	defer cancel()
	args := []string{"-test.run=" + runPattern(t.Name()), "-test.count=1"}
	if _, bench := t.(*testing.B); bench {
		args = []string{"-test.run=^$", "-test.bench=" + runPattern(t.Name()), "-test.benchtime=1x", "-test.count=1"}
	}
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), caseEnv+"="+t.Name())
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	res := Result{Output: out.String(), Elapsed: time.Since(start)}
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			res.PeakRSS = ru.Maxrss << 10 // kB on Linux
		}
	}
	if before, peak, found := strings.Cut(errOut.String(), "\n"+peakMarker); found {
		if n, err := strconv.ParseInt(strings.TrimSpace(peak), 10, 64); err == nil {
			res.PeakRSS = n
			errOut.Reset()
			errOut.WriteString(before)
		}
	}
	switch {
	case ctx.Err() != nil:
		t.Fatalf("the child ran longer than %v (killed); peak RSS %d MB", lim.Time, res.PeakRSS>>20)
	case err != nil:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			t.Fatalf("the child failed after %v, peak RSS %d MB: %v\n%s%s", res.Elapsed.Round(time.Millisecond),
				res.PeakRSS>>20, err, out.String(), errOut.String())
		}
		t.Fatalf("running the child: %v", err)
	}
	if res.PeakRSS > lim.RSS {
		t.Errorf("peak RSS %d MB, limit %d MB (output %q)", res.PeakRSS>>20, lim.RSS>>20, res.Output)
	}
	t.Logf("child: %v, peak RSS %.1f MB", res.Elapsed.Round(time.Millisecond), float64(res.PeakRSS)/(1<<20))
	return res
}

// peakMarker starts the line on which the child reports its own peak RSS.
const peakMarker = "limittest-peak-rss: "

// PeakRSS returns this process's peak resident memory so far in bytes, VmHWM of
// /proc/self/status: the high-water mark of this program's own address space, and
// false where the system does not say. The child of Run reports it rather than letting the parent read the kernel's rusage, since
// rusage's maxrss also counts the address space the child was started from: Go
// starts children with vfork (CLONE_VM), so the child's maxrss is at least the test
// process's own peak, and a test process grown past a limit by earlier tests would
// fail every later child's limit.
func PeakRSS() (int64, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// runPattern returns the -test.run (or -test.bench) pattern that selects exactly the
// test name (with its subtest parts, which the flag matches level by level).
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// Tool runs a command-line tool in a child process, as Run runs a body: run is the
// tool's run function, writing its messages to stderr and returning its exit
// status. It returns that status and those messages with what the child cost.
func Tool(t *testing.T, lim Limits, run func(stderr io.Writer) int) (status int, stderr string, res Result) {
	t.Helper()
	res = Run(t, lim, func() error {
		var msgs bytes.Buffer
		status := run(&msgs)
		return fmt.Errorf("%d\n%s", status, msgs.String())
	})
	code, msgs, _ := strings.Cut(res.Output, "\n")
	status, err := strconv.Atoi(code)
	if err != nil {
		t.Fatalf("the child's output does not start with an exit status: %q", res.Output)
	}
	return status, msgs, res
}

// CompressedZeros returns a reader of what a compressor (from newWriter) makes of
// prefix followed by n zero bytes, compressed as it is read, through a pipe: a
// decompression bomb of gigabytes from a few megabytes, without holding either.
// Close stops the compressor.
func CompressedZeros(prefix []byte, n int64, newWriter func(io.Writer) (io.WriteCloser, error)) io.ReadCloser {
	pr, pw := io.Pipe()
	go func() {
		zw, err := newWriter(pw)
		if err == nil {
			_, err = zw.Write(prefix)
		}
		zeros := make([]byte, 1<<20)
		for left := n; left > 0 && err == nil; left -= int64(len(zeros)) {
			_, err = zw.Write(zeros[:min(left, int64(len(zeros)))])
		}
		if err == nil {
			err = zw.Close()
		}
		pw.CloseWithError(err)
	}()
	return pr
}
