package ledger

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/safefile"
)

// Opening a ledger: convert the caps given in words, make the directory,
// check the binding asked for, then, under the directory's lock file,
// carry a version 1 ledger over or start a fresh one (create), lock the
// data file, read it whole against the anchor, rewrite a version 2 file
// as version 3, and record this handle's retention window and binding.
// The store (store.go) reads and appends from then on.

// Options are optional settings of OpenWith.
type Options struct {
	// Anchor, if set, keeps the ledger's position (its id, record count
	// and chain head; format.go) outside its directory, where a restore
	// of the directory cannot roll it back, so that a ledger rolled back
	// fails closed across Opens. Every process using the directory should
	// use it. The position is kept under AnchorPrefix followed by the 32
	// hex digits of the ledger's random id (made with the ledger, kept in
	// its file): a copy, a restore or a move of the directory finds the
	// same anchor, wherever it is opened, and the anchors of several
	// ledgers (and memos) can share one store. The state is 61 opaque
	// bytes: a random id, a count and a hash, which say nothing about the
	// charges.
	//
	// With an anchor, Open and every call fail closed (ErrCorrupt) on a
	// file with fewer records than the anchor says (whole records cut
	// off, an older copy or a backup restored), a file whose records up
	// to that count are not the ones the anchor saw, or a file missing
	// from a directory that held a ledger (its marker file,
	// wordveil-ledger.json, is still there; the id, hence the anchor, of
	// a missing file is unknown: a directory deleted whole starts a new
	// ledger). A file ahead of its anchor (a crash between an append and
	// the anchor's store, or a process that ran without the anchor) is
	// accepted and the anchor moved forward; if such a process also
	// compacted the log, the records between the anchor and the snapshot
	// can no longer be checked.
	Anchor anchor.Anchor
	// Bind, if its Name is set, is recorded in the same locked pass that
	// opens the ledger, as Rebind(Bind.Legacy, Bind.Name, Bind.ID) would
	// (Bind(Bind.Name, Bind.ID) without a Legacy name): the open fails
	// with ErrBindingMismatch where either name is bound to another id.
	Bind Binding
}

// Open is OpenWith without options (no anchor).
func Open(dir string, caps Caps) (*Ledger, error) {
	return OpenWith(dir, caps, Options{})
}

// OpenWith opens (creating if needed) the ledger in dir with caps, those
// given in words converted to metric loss first (Caps). It reads the
// whole file once, so a corrupt ledger is reported at once. Ledgers
// opened on one directory with different caps share one history; each
// enforces its own caps. Nothing is created on disk when caps are invalid.
func OpenWith(dir string, caps Caps, opt Options) (*Ledger, error) {
	caps, err := caps.inLoss()
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, errwrap.Tag(ErrInvalid, "ledger: empty directory name")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ledger: open %s: %w", dir, err)
	}
	if b := opt.Bind; b.Name != "" || b.Legacy != "" {
		if err := errors.Join(validBinding(b.Name, b.ID), validLegacy(b)); err != nil {
			return nil, errwrap.Tag(ErrInvalid, "ledger: %v", err)
		}
	}
	l := &Ledger{dir: dir, caps: caps, now: time.Now, slack: compactSlack, anchor: opt.Anchor, bound: opt.Bind}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

// open creates the file if needed (migrating version 1), reads it,
// rewrites a version 2 file as version 3, records this handle's period as
// the retention window if it is wider and its binding (Options.Bind), and
// moves the anchor forward.
func (l *Ledger) open() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	// The directory's lock file serializes creation and migration (and
	// excludes builds that lock only it); every call after that locks the
	// data file itself.
	release, err := safefile.Lock(filepath.Join(l.dir, lockName))
	if err != nil {
		return fmt.Errorf("ledger: lock %s: %w", l.dir, err)
	}
	defer release()
	if err := l.create(); err != nil {
		return err
	}
	file, unlock, err := l.lockFile()
	if err != nil {
		return err
	}
	defer file.Close()
	defer unlock()
	// Temporary files left by a crash during a compaction or a migration:
	// under both locks no one else is writing one.
	if ents, err := os.ReadDir(l.dir); err == nil {
		for _, e := range ents {
			if n := e.Name(); strings.HasPrefix(n, "."+FileName+".") || strings.HasPrefix(n, "."+legacyName+".") {
				os.Remove(filepath.Join(l.dir, n))
			}
		}
	}
	if err := l.refresh(file); err != nil {
		return err
	}
	if l.st.v2 {
		if err := l.compact(); err != nil {
			return fmt.Errorf("ledger: rewrite the version 2 file: %w", err)
		}
	}
	if p := int64(l.caps.Period); p > l.st.retention {
		if err := l.append(file, retentionSlot(l.st.nonce, l.off, p)); err != nil {
			return err
		}
		l.st.retention = p
		l.st.records++
	}
	if l.bound.Name != "" {
		if err := l.bind(file, l.bound); err != nil {
			return err
		}
	}
	if a := l.seen; l.anchor != nil && (a == nil || a.seq < l.st.seq || l.st.v2) {
		return l.storeAnchor()
	}
	return nil
}

// create makes sure the directory holds a ledger file and, beside it, the
// version 1 file's tombstone: it carries a version 1 ledger over, starts a
// fresh one where there was none, and fails closed where the tombstone says
// a ledger was deleted.
func (l *Ledger) create() error {
	legacy := filepath.Join(l.dir, legacyName)
	_, err := os.Stat(l.path())
	if err == nil {
		// The log exists; a crash may have come before the tombstone.
		if b, err := os.ReadFile(legacy); err != nil || string(b) != tombstone {
			return writeTombstone(legacy)
		}
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ledger: open %s: %w", l.path(), err)
	}
	st, isTombstone, err := readLegacy(legacy, int64(l.caps.Period))
	switch {
	case err != nil:
		return err
	case l.seen != nil:
		// This handle has read the ledger: it is gone from under it.
		return fmt.Errorf("%w: %s is missing, but the ledger held %d records", ErrCorrupt, FileName, l.seen.seq)
	case isTombstone:
		return fmt.Errorf("%w: %s is missing from a directory that held a ledger (delete the whole directory to start afresh)", ErrCorrupt, FileName)
	case st == nil:
		st = newState(int64(l.caps.Period))
	}
	st.nonce, st.id = newNonce(), newLedgerID()
	st.head = chainStart(st.id)
	st.retention = int64(l.caps.Period)
	st.win.advance(max(st.clock, l.now().UnixNano()), st.retention)
	// Exclusive: should two processes get here at once (the lock file
	// removed under them), one creates the ledger and the other reads it.
	if _, err := safefile.CreateExclusive(l.path(), encodeSnapshot(st, st.nonce), 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return writeTombstone(legacy)
}

func writeTombstone(path string) error {
	if err := safefile.WriteFile(path, []byte(tombstone), 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}
