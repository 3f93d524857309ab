package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"syscall"
)

// Exit statuses of the tools: 0 when the work is done (or -h printed the help), 2 for
// usage errors, 1 for everything else.
const (
	ExitFailure = 1
	ExitUsage   = 2
)

// Run is the body of a tool's main: parse reads the flags into settings (its errors
// are usage errors; flag.ErrHelp after -h is none), act does the work. Errors go to
// stderr as "name: error", and the exit status says which kind failed; act can mark an
// error as the command line's fault with UsageError. Usage errors end with a pointer
// to -h.
func Run[S any](name string, stderr io.Writer, parse func() (S, error), act func(S) error) int {
	s, err := parse()
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, withHelpHint(err))
		return ExitUsage
	}
	if err := act(s); err != nil {
		var stopped *InterruptedError
		if errors.As(err, new(*UsageError)) {
			fmt.Fprintf(stderr, "%s: %v\n", name, withHelpHint(err))
			return ExitUsage
		}
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		if errors.As(err, &stopped) {
			return stopped.ExitCode()
		}
		return ExitFailure
	}
	return 0
}

// withHelpHint adds "(-h for help)" to a usage error that does not say it yet, so that
// a user who gave a bad value learns both what was wrong and where the flags are
// described. It leaves nil and flag.ErrHelp alone.
func withHelpHint(err error) error {
	if err == nil || errors.Is(err, flag.ErrHelp) || strings.Contains(err.Error(), "-h for help") {
		return err
	}
	return fmt.Errorf("%w (-h for help)", err)
}

// An InterruptedError is a run that a signal (Ctrl-C, SIGTERM) stopped at a point it
// chose, with its outputs complete: Err says what was written and how to go on. Run
// exits with 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM), the
// status a shell gives a process that the signal ended, so that scripts see the
// interruption.
type InterruptedError struct {
	Signal syscall.Signal
	Err    error
}

func (e *InterruptedError) Error() string { return e.Err.Error() }
func (e *InterruptedError) Unwrap() error { return e.Err }

// ExitCode is 128 plus the signal's number.
func (e *InterruptedError) ExitCode() int { return 128 + int(e.Signal) }

// A UsageError is a mistake on the command line that shows only once the work has
// begun (snowsim's -set naming a key its scene does not have): Run exits with
// ExitUsage for it.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }
