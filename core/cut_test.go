package core

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
)

// TestCutSweepFailsClosed: a memo and a ledger used for a few texts, then
// cut at every record boundary (and, without -short, at every byte), fail
// closed (ErrCorruptState) with the default anchor; with NoAnchor the
// same cuts at record boundaries open (the negative control: what an
// anchor adds). Counts are logged for the note.
func TestCutSweepFailsClosed(t *testing.T) {
	texts := []string{"the cat sat", "on the mat", "a dog barked", "at the moon", "and then slept", "under a tree"}
	for _, kind := range []string{"memo", "ledger"} {
		t.Run(kind, func(t *testing.T) {
			for _, ac := range []struct {
				name   string
				anchor Anchor
			}{{"default", nil}, {"NoAnchor", NoAnchor}} {
				cfg := stateConfig(t, t.TempDir(), kind, ac.anchor)
				file := func() string {
					if kind == "ledger" {
						return filepath.Join(cfg.LedgerDir, ledger.FileName)
					}
					m, _ := filepath.Glob(filepath.Join(cfg.MemoDir, "memo-*.wvm"))
					if len(m) != 1 {
						t.Fatalf("memo files %v", m)
					}
					return m[0]
				}
				// The record boundaries: the file's size after the open
				// and after each text (one charge each; the memo's
				// fresh words each).
				p, err := Open(cfg)
				if err != nil {
					t.Fatal(err)
				}
				path := file()
				size := func() int64 {
					st, err := os.Stat(path)
					if err != nil {
						t.Fatal(err)
					}
					return st.Size()
				}
				bounds := []int64{size()}
				for _, text := range texts {
					if _, err := p.Privatize(text); err != nil {
						t.Fatal(err)
					}
					bounds = append(bounds, size())
				}
				p.Close()
				if kind == "memo" {
					// Every record, not only each text's last.
					const header, record = 120, 60
					bounds = bounds[:0]
					for off := int64(header); off <= size(); off += record {
						bounds = append(bounds, off)
					}
				}
				full, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				cuts := bounds[:len(bounds)-1] // the last is the whole file
				if ac.anchor == nil && !testing.Short() {
					cuts = nil
					for off := range int64(len(full)) {
						cuts = append(cuts, off)
					}
				}
				closed := 0
				for _, off := range cuts {
					if err := os.WriteFile(path, full[:off], 0o600); err != nil {
						t.Fatal(err)
					}
					err := openOnce(cfg)
					switch {
					case errors.Is(err, ErrCorruptState):
						closed++
					case err != nil:
						t.Fatalf("cut at %d: %v", off, err)
					}
				}
				if err := os.WriteFile(path, full, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := openOnce(cfg); err != nil {
					t.Fatalf("%s: the whole file: %v", ac.name, err)
				}
				what := "record boundaries"
				if len(cuts) == len(full) {
					what = "bytes"
				}
				t.Logf("%s %s: %d of %d cuts (%s; %d record boundaries) fail closed", kind, ac.name, closed, len(cuts), what, len(bounds)-1)
				if ac.anchor == nil && closed != len(cuts) {
					t.Errorf("%s with the default anchor: %d of %d cuts accepted", kind, len(cuts)-closed, len(cuts))
				}
				if ac.anchor != nil && closed == len(cuts) {
					t.Errorf("%s with NoAnchor: every cut failed closed; the negative control shows nothing", kind)
				}
			}
		})
	}
}
