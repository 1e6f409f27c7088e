// Package cli holds what WordVeil's two command-line tools share: the
// usage-error convention, flag parsing that prints each usage error once,
// and the mapping from errors to the documented exit codes (0 success,
// 1 failure, 2 bad usage, 3 privacy budget exhausted, 130 interrupted).
package cli

import (
	"errors"
	"flag"
	"fmt"
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

// ParseFlags parses args into fs: -h gives flag.ErrHelp (exit 0), any other
// flag error ErrUsageShown (exit 2).
func ParseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return flag.ErrHelp
	}
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
