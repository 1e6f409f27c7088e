package core

import (
	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/memo"
)

// Reset deletes the state of cfg's LedgerDir and MemoDir — the ledger's
// files and the memo files; nothing else in the directories — and records
// the reset in the anchor Open would use (cfg.Anchor, or the default):
// the deleted ledger and memos are marked retired and the directories'
// pins cleared. It is the one way to start over (an app's "forget me" or
// "clear data"): the next Open starts a fresh budget, and a copy of the
// old state restored afterwards fails closed (ErrCorruptState) instead of
// undoing what was spent since. The other fields of cfg are not used.
//
// A memo is retired under its secret: a fresh memo needs a new
// MemoSecret (delete the old one from the key store with the data). With
// NoAnchor, Reset only deletes the files, and nothing stops a restored
// copy. Close every Privatizer on the directories first: one left open
// fails closed on its next call. A crash during Reset leaves state that
// fails closed until Reset is run again.
func Reset(cfg Config) (err error) {
	defer func() { err = classify(err) }()
	if cfg.LedgerDir == "" && cfg.MemoDir == "" {
		return invalid("Reset needs LedgerDir or MemoDir")
	}
	if err := checkDefaultPlace(&cfg); err != nil {
		return err
	}
	a, _, err := stateAnchor(&cfg)
	if err != nil {
		return err
	}
	if cfg.LedgerDir != "" {
		if err := resetDir(a, "ledger", cfg.LedgerDir, func(known []string) error {
			return ledger.Reset(cfg.LedgerDir, a, known...)
		}); err != nil {
			return err
		}
	}
	if cfg.MemoDir != "" {
		if err := resetDir(a, "memo", cfg.MemoDir, func([]string) error {
			return memo.Reset(cfg.MemoDir, a)
		}); err != nil {
			return err
		}
	}
	return nil
}

// resetDir runs del with what the directory's pin names, then clears the
// pin: retired first, deleted next, unpinned last, so that a crash at any
// point fails closed.
func resetDir(a Anchor, kind, dir string, del func(known []string) error) error {
	if a == nil {
		return del(nil)
	}
	pin, err := anchor.NewPin(a, kind, dir)
	if err != nil {
		return err
	}
	v, err := pin.Value()
	if err != nil {
		return err
	}
	var known []string
	if v != "" {
		known = []string{v}
	}
	if err := del(known); err != nil {
		return err
	}
	return pin.Reset()
}
