package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/internal/safefile"
)

// The CLI keeps what must not sit in (or be restored with) a memo or
// ledger directory in a state directory of its own (-state, by default
// $XDG_CONFIG_HOME/wordveil, i.e. ~/.config/wordveil): the memo keys, and
// the rollback anchors of every memo and ledger directory (package memo's
// and ledger's Anchor). Each directory gets its own subdirectory, named by
// a hash of its absolute path.

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

// stateFor is the subdirectory of home for the memo or ledger directory
// dir (kind "memo" or "ledger").
func stateFor(home, kind, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256([]byte(abs))
	return filepath.Join(home, fmt.Sprintf("%s-%x", kind, h[:8])), nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// fileAnchor is memo.Anchor and ledger.Anchor over small files in a
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
