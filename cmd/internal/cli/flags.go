package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// FlagSet is a tool's flags with its help text. A bad flag is an error naming it,
// which Run prints in one line; only -h prints the help.
type FlagSet struct {
	*flag.FlagSet
	stderr       io.Writer
	intro, outro string // the help before and after the list of flags
}

// NewFlagSet returns the flag set of the tool name, whose help is intro, the flags
// with their defaults, and outro.
func NewFlagSet(name string, stderr io.Writer, intro, outro string) *FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package prints its errors and the whole help; Run prints the error.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &FlagSet{FlagSet: fs, stderr: stderr, intro: intro, outro: outro}
}

// Parse parses args; after -h it prints the help and returns flag.ErrHelp.
func (fs *FlagSet) Parse(args []string) error {
	err := fs.FlagSet.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(fs.stderr, fs.intro)
		fs.SetOutput(fs.stderr)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		fmt.Fprint(fs.stderr, fs.outro)
	}
	return err
}

// Given returns the names of the flags the command line set: what tells "-voxel 0"
// from no -voxel.
func (fs *FlagSet) Given() map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}
