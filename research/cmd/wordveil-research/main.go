// Command wordveil-research builds assets and runs WordVeil's evaluation:
// the parts of the command-line tool that need float word vectors, the
// evaluation data and plotting, kept out of the SDK module.
//
//	wordveil-research assets build [flags]          build an asset (.wva) from word vectors
//	wordveil-research eval imdb|empirical|report    the evaluation (docs/eval)
//	wordveil-research version
//
// Exit codes: 0 success, 1 failure, 2 bad usage (printed once), 130 interrupted.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/wordveil/wordveil/internal/buildinfo"
	"github.com/wordveil/wordveil/internal/cli"
)

// version is the release override (-ldflags "-X main.version=...").
var version string

const usage = `wordveil-research: asset building and evaluation for WordVeil

Usage:
  wordveil-research assets build [flags]   build an asset (.wva) from word vectors
  wordveil-research eval imdb|empirical|report  reproduce the papers' privacy-utility comparisons (make eval-data first)
  wordveil-research version                print the version

Run 'wordveil-research COMMAND -h' for a command's flags.
Exit codes: 0 success, 1 failure, 2 bad usage, 130 interrupted.
`

// The shared CLI conventions (package cli), under this command's names.
var (
	errUsage       = cli.ErrUsage
	errInterrupted = cli.ErrInterrupted
	parseFlags     = cli.ParseFlags
)

func main() { cli.Exit("wordveil-research", run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("%w: no command", errUsage)
	}
	switch args[0] {
	case "assets", "asset":
		return runAssets(args[1:], stdout, stderr)
	case "eval":
		return evalCmd(args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "wordveil-research", buildinfo.Version(version))
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("%w: unknown command %q", errUsage, args[0])
}
