package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/cli"
)

// TestCLIStateEvents: through the command, with the default state
// directory and with -state, for a memo and a ledger: a backup restored,
// the directory deleted after use, and a pre-reset copy restored after
// `wordveil state reset` each exit 1 with nothing printed; the reset
// itself starts afresh.
func TestCLIStateEvents(t *testing.T) {
	for _, state := range []string{"default", "-state"} {
		for _, kind := range []string{"memo", "ledger"} {
			for _, event := range []string{"backup", "deleted", "reset"} {
				t.Run(state+"/"+kind+"/"+event, func(t *testing.T) {
					root := t.TempDir()
					dir, st := filepath.Join(root, kind), ""
					if state == "-state" {
						st = t.TempDir()
					}
					args := privatizeArgs(dir, "", st)
					if kind == "ledger" {
						args = privatizeArgs("", dir, st)
					}
					var out, errb bytes.Buffer
					runText := func(text string) error {
						out.Reset()
						errb.Reset()
						return run(args, strings.NewReader(text+"\n"), &out, &errb)
					}
					if err := runText("first words"); err != nil {
						t.Fatal(err, errb.String())
					}
					backup := filepath.Join(root, "backup")
					if err := os.CopyFS(backup, os.DirFS(dir)); err != nil {
						t.Fatal(err)
					}
					if err := runText("more words here"); err != nil {
						t.Fatal(err, errb.String())
					}
					restoreBackup := func() {
						os.RemoveAll(dir)
						if err := os.CopyFS(dir, os.DirFS(backup)); err != nil {
							t.Fatal(err)
						}
					}
					switch event {
					case "backup":
						restoreBackup()
					case "deleted":
						os.RemoveAll(dir)
					case "reset":
						reset := []string{"state", "reset", "-" + kind, dir}
						if st != "" {
							reset = append(reset, "-state", st)
						}
						if err := run(reset, nil, &out, &errb); err != nil {
							t.Fatal(err, errb.String())
						}
						if err := runText("more words here"); err != nil {
							t.Fatalf("after state reset: %v %s", err, errb.String())
						}
						restoreBackup()
					}
					if err := runText("more words here"); cli.ExitCode(err) != 1 || out.Len() != 0 {
						t.Fatalf("%s: exit %d (%v), printed %q; want exit 1, nothing", event, cli.ExitCode(err), err, out.String())
					}
				})
			}
		}
	}
}
