// Command wordveil is WordVeil's command-line tool.
//
//	wordveil assets inspect FILE      print an asset's header and sections
//	wordveil privatize [flags] < text  privatize text, streaming
//	wordveil demo                     a sample text through every mechanism
//	wordveil stats                    plausible deniability per mechanism
//	wordveil bench                    text throughput per mechanism
//	wordveil audit                    exact metric-DP audit on small vocabularies
//	wordveil neighbours WORD...       exact Hamming neighbours in an asset
//	wordveil state reset [flags]      start a memo or ledger over, for good
//	wordveil version
//
// Exit codes: 0 success, 1 failure, 2 bad usage (printed once), 3 privacy
// budget exhausted (privatize), 130 interrupted.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/wordveil/wordveil/internal/cli"

	"github.com/wordveil/wordveil/internal/buildinfo"
)

// version is the release override, set with -ldflags "-X main.version=...";
// empty, `wordveil version` reports the build information's module version
// or VCS revision (package buildinfo).
var version string

// versionString is what `wordveil version` prints after "wordveil ".
func versionString() string { return buildinfo.Version(version) }

const usage = `wordveil: on-device text privatization, command-line tool

Usage:
  wordveil privatize [flags]      privatize standard input to standard output (-h for flags)
  wordveil demo                   privatize a sample text with every on-device mechanism
  wordveil stats [flags]          plausible deniability and metric loss per mechanism
  wordveil bench [flags]          text throughput per mechanism on this machine
  wordveil audit [flags]          exact metric-DP audit of every mechanism on small vocabularies
  wordveil assets inspect [FILE]  print an asset's header and section table (default: the embedded asset)
  wordveil neighbours WORD...     exact nearest neighbours of words by Hamming distance of their codes
  wordveil state reset [flags]    delete a memo or ledger's state so that a restored copy is refused (-ledger DIR, -memo DIR, -state DIR)
  wordveil version                print the version

Run 'wordveil COMMAND -h' for a command's flags. Building assets and the
evaluation are in the research tool: wordveil-research (research/cmd).
Exit codes: 0 success, 1 failure, 2 bad usage, 3 privacy budget exhausted, 130 interrupted.
`

// The shared CLI conventions (package cli), under this command's names.
var (
	errUsage       = cli.ErrUsage
	errBudget      = cli.ErrBudget
	errInterrupted = cli.ErrInterrupted
	parseFlags     = cli.ParseFlags
	setFlags       = cli.SetFlags
	exitCode       = cli.ExitCode
	errorMessage   = cli.Message
)

func main() { cli.Exit("wordveil", run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("%w: no command", errUsage)
	}
	switch args[0] {
	case "assets", "asset":
		return runAssets(args[1:], stdout, stderr)
	case "privatize":
		return privatizeCmd(args[1:], stdin, stdout, stderr)
	case "demo":
		return demo(args[1:], stdout, stderr)
	case "stats":
		return statsCmd(args[1:], stdout, stderr)
	case "bench":
		return benchCmd(args[1:], stdout, stderr)
	case "audit":
		return auditCmd(args[1:], stdout, stderr)
	case "neighbours", "neighbors":
		return neighbours(args[1:], stdout, stderr)
	case "state":
		return stateCmd(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "wordveil", versionString())
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}
