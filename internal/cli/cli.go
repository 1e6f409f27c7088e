// Package cli holds what WordVeil's two command-line tools share: the
// usage-error convention, flag parsing that prints each usage error once,
// and the mapping from errors to the documented exit codes (0 success,
// 1 failure, 2 bad usage, 3 privacy budget exhausted, 130 interrupted).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Errors with their own exit codes.
var (
	// ErrUsage marks errors that are the caller's (exit code 2).
	ErrUsage = errors.New("usage")
	// ErrUsageShown is a usage error the flag package has already printed
	// with the command's usage: exit 2 without printing it again.
	ErrUsageShown = fmt.Errorf("%w (see above)", ErrUsage)
	// ErrBudget marks a refused privacy-budget charge (exit code 3).
	ErrBudget = errors.New("privacy budget exhausted")
	// ErrInterrupted marks SIGINT or SIGTERM (exit code 130).
	ErrInterrupted = errors.New("interrupted")
)

// ParseFlags parses args into fs. -h prints the command's usage (fs.Usage,
// or the flag package's default) and gives flag.ErrHelp (exit 0). Any other
// flag error prints that error and one line pointing at -h, not the whole
// usage, which would bury the one line that matters under a page of flags:
//
//	wordveil privatize: flag provided but not defined: -mechansim
//	Run 'wordveil privatize -h' for usage.
//
// and gives ErrUsageShown (exit 2). Both go to fs.Output(); fs.Name() is
// the command as the user types it ("wordveil privatize").
func ParseFlags(fs *flag.FlagSet, args []string) error {
	out, usage := fs.Output(), fs.Usage
	// The flag package prints a parse error and then the whole usage; both
	// are held back here, and what is printed is decided below.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.Usage = usage
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		if usage != nil {
			usage()
		} else {
			fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
		}
		return flag.ErrHelp
	}
	fmt.Fprintf(out, "%s: %v\nRun '%[1]s -h' for usage.\n", fs.Name(), err)
	return ErrUsageShown
}

// SetFlags returns the names of the flags the command line set explicitly.
func SetFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// ExitCode maps a command's error to the documented exit code.
func ExitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	case errors.Is(err, ErrBudget):
		return 3
	case errors.Is(err, ErrInterrupted):
		return 130
	}
	return 1
}

// Exit ends the process the way every WordVeil tool does: the error's
// message (if it has one to print) on stderr after "name: ", then the exit
// code of ExitCode.
func Exit(name string, err error) {
	if msg := Message(err); msg != "" {
		fmt.Fprintln(os.Stderr, name+":", msg)
	}
	os.Exit(ExitCode(err))
}

// Message is what a tool prints for err: nothing for success, -h, or a
// usage error the flag package already printed.
func Message(err error) string {
	if err == nil || errors.Is(err, flag.ErrHelp) || errors.Is(err, ErrUsageShown) {
		return ""
	}
	return err.Error()
}
