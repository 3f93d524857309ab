// Package budgettest runs one case of a test in a child process of the test binary
// and reports how it ended, its peak resident memory and its time: the tests that a
// hostile input stops with a clear error, in bounded memory and time, measure a
// process of its own, since the test process's peak holds whatever ran before.
package budgettest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// caseVariable holds, in the child's environment, the case it runs.
const caseVariable = "BUDGETTEST_CASE"

// Case returns the case this process was started to run, or "" in the parent.
func Case() string { return os.Getenv(caseVariable) }

// Result is how a child ended.
type Result struct {
	Output   string        // stdout and stderr together
	ExitCode int           // -1 when killed
	MaxRSS   int64         // peak resident memory, bytes
	Elapsed  time.Duration // wall time
	TimedOut bool          // killed at the timeout
}

// Run runs the test function named test (a whole name, anchored) of this test
// binary in a child whose Case() is name, and kills it after timeout. The test
// function, seeing Case() != "", runs that case and exits with its status.
func Run(t *testing.T, test, name string, timeout time.Duration) Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), caseVariable+"="+name)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := Result{Output: out.String(), Elapsed: time.Since(start), TimedOut: ctx.Err() != nil, ExitCode: -1}
	if cmd.ProcessState == nil {
		t.Fatalf("case %s: %v", name, err)
	}
	r.ExitCode = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.MaxRSS = ru.Maxrss << 10 // kB on Linux
	}
	return r
}
