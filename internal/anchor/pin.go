package anchor

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
)

// ErrMismatch: a data directory holds another ledger, or memos under
// another secret, than its pin says it held (deleted whole and started
// afresh, or replaced), or a memo or ledger that was reset is opened
// again. It is damage, never a fresh start.
var ErrMismatch = errors.New("anchor: the directory does not hold the state last seen there")

// retired is what a reset stores under the anchor name of each memo and
// ledger it deletes: "WVRT", version 1. A memo or ledger whose anchor
// holds it fails closed, so a copy restored after the reset cannot undo
// what was spent after it.
var retired = []byte{'W', 'V', 'R', 'T', 1}

// Retired returns the value a reset stores under a retired memo's or
// ledger's anchor name.
func Retired() []byte { return bytes.Clone(retired) }

// IsRetired reports whether an anchor's value is Retired's.
func IsRetired(b []byte) bool { return bytes.Equal(b, retired) }

// pinReset is a pin's value after a reset: the next ledger (or memo
// secret) found at the path is pinned afresh.
const pinReset = "reset"

// Pin is the pin of one data directory in an Anchor: under "path-" and 32
// hex digits of a hash of the directory's kind and canonical path (Canonical),
// the ledger (its anchor name) or the memo secret (a keyed fingerprint)
// that the directory held. Anchors are found by a ledger's id and a
// memo's keyed name, so a copy or a move of a directory finds its anchor;
// the pin adds what a name cannot say: that the directory at this path
// held this ledger or this secret's memos, so one deleted whole (or
// replaced) and started afresh is refused. The hash says nothing about
// the path to someone who does not already know it.
type Pin struct {
	a    Anchor
	name string
	kind string // for messages
	dir  string // canonical, for messages
}

// NewPin returns the pin of the directory dir of kind ("ledger" or
// "memo") in a.
func NewPin(a Anchor, kind, dir string) (Pin, error) {
	c, err := Canonical(dir)
	if err != nil {
		return Pin{}, fmt.Errorf("anchor: %w", err)
	}
	h := sha256.Sum256([]byte(kind + "\x00" + c))
	return Pin{a: a, name: "path-" + hex.EncodeToString(h[:16]), kind: kind, dir: c}, nil
}

// Name is the pin's name in its Anchor.
func (p Pin) Name() string { return p.name }

// Value returns what the pin holds: "" when nothing was pinned or the
// directory was reset since.
func (p Pin) Value() (string, error) {
	b, err := p.a.Load(p.name)
	if err != nil {
		return "", fmt.Errorf("anchor: pin: %w", err)
	}
	if v := string(b); v != pinReset {
		return v, nil
	}
	return "", nil
}

// Check fails with ErrMismatch when the pin holds a value other than
// want. It reports whether the pin must be set to want.
func (p Pin) Check(want string) (unset bool, err error) {
	v, err := p.Value()
	switch {
	case err != nil:
		return false, err
	case v == "":
		return true, nil
	case v != want:
		return false, fmt.Errorf("%w: the %s directory %s held %s, now %s: it was deleted and started afresh, or replaced (to start over on purpose, reset it: core.Reset, wordveil state reset)", ErrMismatch, p.kind, p.dir, v, want)
	}
	return false, nil
}

// Set pins value.
func (p Pin) Set(value string) error {
	if err := p.a.Store(p.name, []byte(value)); err != nil {
		return fmt.Errorf("anchor: pin: %w", err)
	}
	return nil
}

// Reset marks the pin reset: the next value is pinned afresh.
func (p Pin) Reset() error { return p.Set(pinReset) }

// Pinned returns a with the names beginning with prefix (a ledger's
// anchor names) checked against p: loading one fails with ErrMismatch
// while p holds another, and storing one pins it. The ledger loads its
// anchor once, as it opens, by the id in its file, so a directory that
// now holds another ledger fails there; every later Store after the first
// costs nothing more.
func Pinned(a Anchor, p Pin, prefix string) Anchor {
	return &pinned{Anchor: a, pin: p, prefix: prefix}
}

type pinned struct {
	Anchor
	pin    Pin
	prefix string
	mu     sync.Mutex
	done   string // the name the pin is known to hold
}

func (a *pinned) Load(name string) ([]byte, error) {
	if strings.HasPrefix(name, a.prefix) {
		if _, err := a.pin.Check(name); err != nil {
			return nil, err
		}
	}
	return a.Anchor.Load(name)
}

func (a *pinned) Store(name string, state []byte) error {
	if err := a.Anchor.Store(name, state); err != nil {
		return err
	}
	if !strings.HasPrefix(name, a.prefix) {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.done == name {
		return nil
	}
	unset, err := a.pin.Check(name)
	if err != nil {
		return err
	}
	if unset {
		if err := a.pin.Set(name); err != nil {
			return err
		}
	}
	a.done = name
	return nil
}

// Canonical is path made absolute with the symlinks of its longest
// existing prefix resolved (the rest does not exist yet, so it has none):
// every way of naming a directory (relative, through a symlink) gives one
// path.
func Canonical(path string) (string, error) {
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

// Within reports whether path is dir or inside it, symlinks resolved (a
// path that cannot be resolved counts as inside: the caller refuses it).
func Within(path, dir string) bool {
	p, err1 := Canonical(path)
	d, err2 := Canonical(dir)
	if err1 != nil || err2 != nil {
		return true
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
