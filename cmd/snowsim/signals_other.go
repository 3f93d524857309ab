//go:build !unix

package main

import (
	"os"
	"syscall"
)

// stopSignals stop a run cleanly (interruptWatch); there is no SIGUSR1 here.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
