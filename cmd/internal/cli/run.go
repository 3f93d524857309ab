package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit statuses of the tools: 0 when the work is done (or -h printed the help), 2 for
// usage errors, 1 for everything else.
const (
	ExitFailure = 1
	ExitUsage   = 2
)

// Run is the body of a tool's main: parse reads the flags into settings (its errors
// are usage errors; flag.ErrHelp after -h is none), act does the work. Errors go to
// stderr as "name: error", and the exit status says which kind failed; act can mark
// an error as the command line's fault with UsageError.
func Run[S any](name string, stderr io.Writer, parse func() (S, error), act func(S) error) int {
	s, err := parse()
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitUsage
	}
	if err := act(s); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		if errors.As(err, new(*UsageError)) {
			return ExitUsage
		}
		return ExitFailure
	}
	return 0
}

// A UsageError is a mistake on the command line that shows only once the work has
// begun (snowsim's -set naming a key its scene does not have): Run exits with
// ExitUsage for it.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }
