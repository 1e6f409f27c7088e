package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wordveil/wordveil/core"
)

// stateCmd is `wordveil state reset`: the one way to start a memo or a
// ledger over (core.Reset), recorded in the state directory's anchors so
// that a copy of the old state restored afterwards fails closed.
func stateCmd(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "reset" {
		return fmt.Errorf("%w: state needs a subcommand: reset", errUsage)
	}
	fset := flag.NewFlagSet("wordveil state reset", flag.ContinueOnError)
	fset.SetOutput(stderr)
	ledgerDir := fset.String("ledger", "", "the ledger directory to reset: its budget starts again at 0")
	memoDir := fset.String("memo", "", "the memo directory to reset: its responses are forgotten, and its default key replaced")
	stateDir := fset.String("state", "", "the state directory the anchors are kept in, as given to privatize (default $XDG_CONFIG_HOME/wordveil)")
	if err := parseFlags(fset, args[1:]); err != nil {
		return err
	}
	switch {
	case fset.NArg() > 0:
		return fmt.Errorf("%w: state reset takes no arguments", errUsage)
	case *ledgerDir == "" && *memoDir == "":
		return fmt.Errorf("%w: state reset needs -ledger or -memo", errUsage)
	}
	home, err := stateHome(*stateDir)
	if err != nil {
		return err
	}
	for _, d := range []string{*ledgerDir, *memoDir} {
		if d != "" && (within(home, d) || within(d, home)) {
			return fmt.Errorf("%w: the state directory %s and %s are inside one another", errUsage, home, d)
		}
	}
	if *ledgerDir != "" {
		if err := migratePin(home, *ledgerDir); err != nil {
			return err
		}
	}
	if err := core.Reset(core.Config{LedgerDir: *ledgerDir, MemoDir: *memoDir, Anchor: stateAnchor(home)}); err != nil {
		return err
	}
	if *memoDir != "" {
		// The old key's memos are retired: the next run makes a new key.
		// (A key given with -memo-key is the user's to replace.)
		canon, legacy, err := stateFor(home, "memo", *memoDir)
		if err != nil {
			return err
		}
		for _, d := range []string{canon, legacy} {
			if err := os.Remove(filepath.Join(d, "memo.key")); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("memo key: %w", err)
			}
		}
	}
	for _, d := range []struct{ what, dir string }{{"ledger", *ledgerDir}, {"memo", *memoDir}} {
		if d.dir != "" {
			fmt.Fprintf(stdout, "reset the %s in %s (a copy of it restored later is refused)\n", d.what, d.dir)
		}
	}
	return nil
}
