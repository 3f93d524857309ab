//go:build !unix

package simcore

import "time"

// processCPU reports no CPU time where getrusage is not there.
func processCPU() (time.Duration, bool) { return 0, false }
