package core

import (
	"os"
	"path/filepath"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/memo"
)

// stateAnchor is the anchor cfg's memo and ledger use: Config.Anchor, or
// the default file anchor (dir says where), or nil for NoAnchor or
// without a memo or ledger. cfg has passed validState.
func stateAnchor(cfg *Config) (a Anchor, dir string, err error) {
	switch {
	case cfg.LedgerDir == "" && cfg.MemoDir == "":
		return nil, "", nil
	case cfg.Anchor == nil:
		home, err := defaultStateDir()
		if err != nil {
			return nil, "", err
		}
		dir = filepath.Join(home, "anchors")
		return anchor.Dir(dir), dir, nil
	case isNoAnchor(cfg.Anchor):
		return nil, "", nil
	}
	return cfg.Anchor, "", nil
}

func isNoAnchor(a Anchor) bool {
	_, ok := a.(noAnchor)
	return ok
}

// defaultStateDir is where the default anchor lives: the CLI's default
// state directory, os.UserConfigDir()/wordveil.
func defaultStateDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", invalid("no user configuration directory for the default anchor (%v): give Config.Anchor, or NoAnchor", err)
	}
	return filepath.Join(base, "wordveil"), nil
}

// checkDefaultPlace refuses a memo or ledger directory inside the default
// state directory, or containing it (symlinks resolved): a copy, backup
// or restore of the data would carry its anchors with it.
func checkDefaultPlace(cfg *Config) error {
	if cfg.Anchor != nil || cfg.LedgerDir == "" && cfg.MemoDir == "" {
		return nil
	}
	home, err := defaultStateDir()
	if err != nil {
		return err
	}
	for _, d := range []struct{ field, dir string }{{"LedgerDir", cfg.LedgerDir}, {"MemoDir", cfg.MemoDir}} {
		if d.dir != "" && (anchor.Within(d.dir, home) || anchor.Within(home, d.dir)) {
			return invalid("%s %s and the default anchor's directory %s are inside one another: a restore of the data would restore its anchors (move the data, or give Config.Anchor)", d.field, d.dir, home)
		}
	}
	return nil
}

// memoPin checks the pin of the memo directory against the secret before
// the memo is opened (a memo file made under a new secret would refuse
// the old one ever after), and returns what to store once it is open.
func memoPin(a Anchor, dir string, secret []byte) (set func() error, err error) {
	none := func() error { return nil }
	if a == nil {
		return none, nil
	}
	pin, err := anchor.NewPin(a, "memo", dir)
	if err != nil {
		return nil, err
	}
	want, err := memo.SecretPin(secret)
	if err != nil {
		return nil, err
	}
	unset, err := pin.Check(want)
	if err != nil || !unset {
		return none, err
	}
	return func() error { return pin.Set(want) }, nil
}

// ledgerAnchor is a with the ledger directory's pin (anchor.Pinned).
func ledgerAnchor(a Anchor, dir string) (Anchor, error) {
	if a == nil {
		return nil, nil
	}
	pin, err := anchor.NewPin(a, "ledger", dir)
	if err != nil {
		return nil, err
	}
	return anchor.Pinned(a, pin, ledger.AnchorPrefix), nil
}

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
