package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
)

// The CLI keeps what must not sit in (or be restored with) a memo or
// ledger directory in a state directory of its own (-state, by default
// $XDG_CONFIG_HOME/wordveil, i.e. ~/.config/wordveil): the memo keys, and
// the rollback anchors of every memo and ledger (package memo's and
// ledger's Anchor) with the pins of their directories. The anchors all
// live in one subdirectory, anchors/ (the default one is package core's
// default anchor too), each file named by its anchor's name, which
// identifies the memo (keyed from its secret and identity) or the ledger
// (its random id): a copy, a move or a symlink of a memo or ledger
// directory finds the same anchor.
// Each memo directory's default key lives in a subdirectory named by a
// hash of the directory's path, symlinks resolved.

// stateHome is the state directory: dir if set, else the default.
func stateHome(dir string) (string, error) {
	if dir != "" {
		return filepath.Abs(dir)
	}
	home, err := anchor.DefaultHome()
	if err != nil {
		return "", fmt.Errorf("%w: no state directory for the memo key and anchors (%v): set -state", errUsage, err)
	}
	return home, nil
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

// canonical and within are package anchor's (one implementation of
// "which directory is this").
var (
	canonical = anchor.Canonical
	within    = anchor.Within
)

// stateAnchor is the one core.Anchor the CLI gives package core: the
// files of anchors/ in the state directory (anchor.Dir, package core's
// default store too). Package core keeps every memo's and ledger's anchor
// there, and each memo and ledger directory's pin (anchor.Pin: which
// ledger, which memo key, that path held), so a directory deleted whole
// and started afresh, or replaced, is refused.
func stateAnchor(home string) anchor.Dir { return anchor.Dir(anchorDir(home)) }

// migratePin carries over the pin that earlier versions kept for the
// ledger directory dir in a file of their own
// (anchors/path-<hash of the canonical path>.pin, the anchor name of the
// ledger the directory held) into the anchor's pin, then removes it.
func migratePin(home, dir string) error {
	c, err := canonical(dir)
	if err != nil {
		return err
	}
	h := sha256.Sum256([]byte(c))
	old := filepath.Join(anchorDir(home), fmt.Sprintf("path-%x.pin", h[:8]))
	b, err := os.ReadFile(old)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	pin, err := anchor.NewPin(stateAnchor(home), "ledger", dir)
	if err != nil {
		return err
	}
	if v, err := pin.Value(); err != nil {
		return err
	} else if v == "" && strings.HasPrefix(string(b), ledger.AnchorPrefix) {
		if err := pin.Set(string(b)); err != nil {
			return err
		}
	}
	return os.Remove(old)
}
