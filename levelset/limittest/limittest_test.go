package limittest

import (
	"os"
	"runtime"
	"testing"
)

// A child's peak RSS is its own: a test process that holds 200 MB does not make a
// child that holds nothing report 200 MB (rusage's maxrss did, since Go starts
// children from the parent's address space), and a child that touches 64 MB
// reports at least that.
func TestPeakRSSIsTheChilds(t *testing.T) {
	var held []byte
	if os.Getenv(caseEnv) == "" { // the parent only: the child re-runs this test
		held = touched(200 << 20)
	}
	idle := Run(t, Limits{RSS: 100 << 20, Time: Default.Time}, func() error { return nil })
	runtime.KeepAlive(held)
	if idle.PeakRSS <= 0 || idle.PeakRSS > 60<<20 {
		t.Errorf("an idle child reports %d MB", idle.PeakRSS>>20)
	}
}

func TestPeakRSSCountsTheChildsMemory(t *testing.T) {
	res := Run(t, Default, func() error {
		runtime.KeepAlive(touched(64 << 20))
		return nil
	})
	if res.PeakRSS < 64<<20 {
		t.Errorf("a child that touched 64 MB reports %d MB", res.PeakRSS>>20)
	}
}

// touched returns n bytes with every page written, so that they are resident.
func touched(n int) []byte {
	b := make([]byte, n)
	for i := 0; i < n; i += 4096 {
		b[i] = 1
	}
	return b
}
