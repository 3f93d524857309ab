package budget

import "fmt"

// FlagUsage is the help line of the tools' -memory flag.
var FlagUsage = fmt.Sprintf("memory budget `SIZE` of the run, such as 512M or 8G: inputs that would need more stop "+
	"before allocating (default %.0f%% of the machine's memory, or of the container's limit)", 100*DefaultFraction)

// Flag is the -memory flag: a flag.Value holding the budget the command line set.
type Flag struct {
	budget Budget
	given  bool
}

// Set parses a size (see Parse).
func (f *Flag) Set(s string) error {
	bytes, err := Parse(s)
	if err != nil {
		return err
	}
	f.budget, f.given = Budget{Bytes: bytes, Source: "-memory " + s}, true
	return nil
}

func (f *Flag) String() string {
	if f == nil || !f.given {
		return ""
	}
	return Format(f.budget.Bytes)
}

// Given reports whether the command line set the budget.
func (f *Flag) Given() bool { return f.given }

// Budget returns the budget the flag set, or Default() when it was not given.
func (f *Flag) Budget() Budget {
	if f.given {
		return f.budget
	}
	return Default()
}

// MaxThreads is the most worker threads the tools take (-threads, the scene key
// solver.threads). Each worker holds scratch buffers, so that an absurd count
// (1e8) ran out of memory before the first step; the results do not depend on
// the count, and no machine the tools run on has more cores.
const MaxThreads = 1024

// CheckThreads refuses a worker count above MaxThreads; name is the flag or key
// that gave it ("-threads", "solver.threads").
func CheckThreads(name string, n int) error {
	if n > MaxThreads {
		return fmt.Errorf("%s %d: at most %d (0: all cores)", name, n, MaxThreads)
	}
	return nil
}
