// Command wordveil is WordVeil's command-line tool.
//
//	wordveil assets build [flags]     build an asset (.wva) from word vectors
//	wordveil assets inspect FILE      print an asset's header and sections
//	wordveil privatize [flags] < text  privatize text, streaming
//	wordveil demo                     a sample text through every mechanism
//	wordveil stats                    plausible deniability per mechanism
//	wordveil bench                    text throughput per mechanism
//	wordveil audit                    exact metric-DP audit on small vocabularies
//	wordveil eval imdb|empirical|report  the evaluation (docs/eval)
//	wordveil neighbours WORD...       exact Hamming neighbours in an asset
//	wordveil version
//
// Exit codes: 0 success, 1 failure, 2 bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// version is set at release time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `wordveil: on-device text privatization, command-line tool

Usage:
  wordveil privatize [flags]      privatize standard input to standard output (-h for flags)
  wordveil demo                   privatize a sample text with every on-device mechanism
  wordveil stats [flags]          plausible deniability and unit-free loss per mechanism
  wordveil bench [flags]          text throughput per mechanism on this machine
  wordveil audit [flags]          exact metric-DP audit of every mechanism on small vocabularies
  wordveil assets build [flags]   build an asset (.wva) from word vectors
  wordveil assets inspect [FILE]  print an asset's header and section table (default: the embedded asset)
  wordveil eval imdb|empirical|report  reproduce the papers' privacy-utility comparisons (research; make eval-data)
  wordveil neighbours WORD...     exact nearest neighbours of words by Hamming distance of their codes
  wordveil version                print the version

Run 'wordveil COMMAND -h' for a command's flags.
`

// errUsage marks errors that are the caller's (exit code 2).
var errUsage = errors.New("usage")

func main() {
	err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "wordveil:", err)
		os.Exit(2)
	case errors.Is(err, errBudget):
		fmt.Fprintln(os.Stderr, "wordveil:", err)
		os.Exit(3)
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(os.Stderr, "wordveil:", err)
		os.Exit(130)
	default:
		fmt.Fprintln(os.Stderr, "wordveil:", err)
		os.Exit(1)
	}
}

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
	case "eval":
		return evalCmd(args[1:], stdout, stderr)
	case "neighbours", "neighbors":
		return neighbours(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "wordveil", version)
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}
