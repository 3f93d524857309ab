package voxelize

import (
	"bytes"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Hostile inputs run in a child process (the test binary itself, running only the
// calling test with hostileEnv set), so that a test can bound their time and memory
// without taking the package's tests down with them: the child may use at most
// hostileCPULimit of processor time (user and system: on a machine shared with other
// work, the clock says little) and is killed after hostileWallLimit, and its peak
// RSS must stay below the test's limit. These are safety limits, far above what the
// inputs need now (see each test's log); the speed figures are benchmarks.
const (
	hostileEnv       = "VOXELIZE_TEST_HOSTILE"
	hostileCPULimit  = 60 * time.Second
	hostileWallLimit = 3 * hostileCPULimit
)

// inChild reports whether this process is the child of t's hostile run: then the
// test does its work and checks its results, and its failures fail the child.
// Otherwise it runs the child and checks its time, memory and exit status, and the
// test should return.
func inChild(t *testing.T, memoryLimit int64) bool {
	t.Helper()
	if os.Getenv(hostileEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), hostileEnv+"="+t.Name())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var killed atomic.Bool
	timer := time.AfterFunc(hostileWallLimit, func() { killed.Store(true); cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	elapsed := time.Since(start)
	usage := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	rss := int64(usage.Maxrss) << 10 // kB on Linux
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	t.Logf("child: %.2f s of processor time, %.2f s on the clock, peak RSS %d MB", cpu.Seconds(), elapsed.Seconds(), rss>>20)
	switch {
	case killed.Load():
		t.Fatalf("killed after %v on the clock", hostileWallLimit)
	case cpu > hostileCPULimit:
		t.Fatalf("%.1f s of processor time, more than %v", cpu.Seconds(), hostileCPULimit)
	case err != nil:
		t.Fatalf("child failed: %v\n%s", err, out.String())
	case rss > memoryLimit:
		t.Fatalf("peak RSS %d MB, more than %d MB", rss>>20, memoryLimit>>20)
	}
	return false
}
