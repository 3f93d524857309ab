package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit statuses of the tools: 2 for usage errors, 1 for everything else.
const (
	ExitFailure = 1
	ExitUsage   = 2
)

// Run is the body of a tool's main: parse reads the flags into settings (a usage
// error; flag.ErrHelp after -h, and an empty error after the usage text was printed),
// act does the work. Errors go to stderr as "name: error", and the exit status says
// which kind failed.
func Run[S any](name string, stderr io.Writer, parse func() (S, error), act func(S) error) int {
	s, err := parse()
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		if err.Error() != "" {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
		}
		return ExitUsage
	}
	if err := act(s); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return ExitFailure
	}
	return 0
}
