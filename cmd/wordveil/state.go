package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/core"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/safefile"
)

// The CLI keeps what must not sit in (or be restored with) a memo or
// ledger directory in a state directory of its own (-state, by default
// $XDG_CONFIG_HOME/wordveil, i.e. ~/.config/wordveil): the memo keys, and
// the rollback anchors of every memo and ledger (package memo's and
// ledger's Anchor). The anchors all live in one subdirectory, anchors/,
// each file named by its anchor's name, which identifies the memo (keyed
// from its secret and identity) or the ledger (its random id): a copy, a
// move or a symlink of a memo or ledger directory finds the same anchor.
// Each memo directory's default key lives in a subdirectory named by a
// hash of the directory's path, symlinks resolved.

// stateHome is the state directory: dir if set, else the default.
func stateHome(dir string) (string, error) {
	if dir != "" {
		return filepath.Abs(dir)
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("%w: no state directory for the memo key and anchors (%v): set -state", errUsage, err)
	}
	return filepath.Join(base, "wordveil"), nil
}

// anchorDir is the directory of home's anchor files.
func anchorDir(home string) string { return filepath.Join(home, "anchors") }

// stateFor is the subdirectory of home for the memo directory dir (kind
// "memo"), named by a hash of dir's canonical path; legacy is the one
// earlier versions used, named by its absolute path (symlinks kept).
func stateFor(home, kind, dir string) (canon, legacy string, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	c, err := canonical(dir)
	if err != nil {
		return "", "", err
	}
	name := func(p string) string {
		h := sha256.Sum256([]byte(p))
		return filepath.Join(home, fmt.Sprintf("%s-%x", kind, h[:8]))
	}
	return name(c), name(abs), nil
}

// canonical is path made absolute with the symlinks of its longest
// existing prefix resolved (the rest does not exist yet, so it has none).
func canonical(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest := ""
	for p := abs; ; {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// within reports whether path is dir or inside it, symlinks resolved (a
// path that cannot be resolved counts as inside: the caller refuses it).
func within(path, dir string) bool {
	p, err1 := canonical(path)
	d, err2 := canonical(dir)
	if err1 != nil || err2 != nil {
		return true
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fileAnchor is a core.Anchor over small files in a
// directory: one file per name, replaced atomically and fsync'd.
type fileAnchor struct{ dir string }

func (a fileAnchor) path(name string) (string, error) {
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("anchor name %q", name)
	}
	return filepath.Join(a.dir, name+".anchor"), nil
}

func (a fileAnchor) Load(name string) ([]byte, error) {
	p, err := a.path(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return b, err
}

func (a fileAnchor) Store(name string, state []byte) error {
	p, err := a.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return err
	}
	return safefile.WriteFile(p, state, 0o600)
}

// pinnedLedgerAnchor is the ledger's fileAnchor plus a pin: the name of the
// ledger (its anchor name, from its random id) that the ledger directory
// at one path last held, in anchors/path-<hash of the canonical path>.pin.
// Anchors are found by the ledger's id, so a copy or a move of a ledger
// finds its anchor; the pin keeps what per-path anchors gave too: a ledger
// directory deleted whole (or another ledger's files put in its place) and
// started afresh at the same path is refused instead of handing out a
// fresh budget. Deleting the pin file is the deliberate reset.
type pinnedLedgerAnchor struct {
	fileAnchor
	pin string
}

// ledgerAnchor returns the CLI's anchor for the ledger directory dir.
func ledgerAnchor(home, dir string) (pinnedLedgerAnchor, error) {
	c, err := canonical(dir)
	if err != nil {
		return pinnedLedgerAnchor{}, err
	}
	h := sha256.Sum256([]byte(c))
	ad := anchorDir(home)
	return pinnedLedgerAnchor{fileAnchor{ad}, filepath.Join(ad, fmt.Sprintf("path-%x.pin", h[:8]))}, nil
}

func (a pinnedLedgerAnchor) Load(name string) ([]byte, error) {
	b, err := os.ReadFile(a.pin)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case string(b) != name:
		return nil, fmt.Errorf("%w: this ledger directory held another ledger (%s), now %s: it was deleted and started afresh or replaced (to reset on purpose, delete %s)",
			ledger.ErrCorrupt, b, name, a.pin)
	}
	return a.fileAnchor.Load(name)
}

func (a pinnedLedgerAnchor) Store(name string, state []byte) error {
	if err := a.fileAnchor.Store(name, state); err != nil {
		return err
	}
	if b, err := os.ReadFile(a.pin); err == nil && string(b) == name {
		return nil
	}
	// Load refused any other name, so the pin is missing: write it.
	return safefile.WriteFile(a.pin, []byte(name), 0o600)
}

// stateAnchor is the one core.Anchor the CLI gives package core:
// it sends a ledger's names (ledger.AnchorPrefix) to the ledger's pinned
// anchor and every other name, the memo's, to the plain file anchor, both
// in the same anchors/ directory. Without a ledger a ledger name is an
// error, so a call fails closed rather than anchoring nowhere.
type stateAnchor struct {
	ledger *pinnedLedgerAnchor // nil without -ledger
	memo   fileAnchor
}

func (a stateAnchor) pick(name string) (core.Anchor, error) {
	if !strings.HasPrefix(name, ledger.AnchorPrefix) {
		return a.memo, nil
	}
	if a.ledger == nil {
		return nil, fmt.Errorf("anchor %q: no ledger was configured", name)
	}
	return *a.ledger, nil
}

func (a stateAnchor) Load(name string) ([]byte, error) {
	to, err := a.pick(name)
	if err != nil {
		return nil, err
	}
	return to.Load(name)
}

func (a stateAnchor) Store(name string, state []byte) error {
	to, err := a.pick(name)
	if err != nil {
		return err
	}
	return to.Store(name, state)
}
