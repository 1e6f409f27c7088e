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
	"github.com/wordveil/wordveil/internal/safefile"
)

// Reset deletes the ledger of dir (its file, its marker and the
// temporary files of a crash), having first stored anchor.Retired in a
// (nil: no anchor) under the anchor name of the ledger the file holds, if
// it can be read, and under every name of known (the ledgers a caller's
// pins say the directory held, whose file may already be gone): a copy of
// the ledger restored after the reset then fails closed (ErrCorrupt)
// instead of handing back what was spent since. The next Open starts a
// fresh ledger, with a new id. It holds the directory's lock and the
// file's meanwhile; an open Ledger fails closed on its next call (its file
// is gone). A missing dir is nothing to delete. A crash between the two
// steps leaves a retired ledger that fails closed; Reset can be run again.
func Reset(dir string, a anchor.Anchor, known ...string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return retire(a, known)
	}
	release, err := safefile.Lock(filepath.Join(dir, lockName))
	if err != nil {
		return fmt.Errorf("ledger: reset: lock %s: %w", dir, err)
	}
	defer release()
	l := &Ledger{dir: dir, caps: Caps{Period: 24 * time.Hour}, now: time.Now}
	if f, unlock, err := l.lockFile(); err == nil {
		defer f.Close()
		defer unlock()
		if fi, err := f.Stat(); err == nil && l.load(f, fi) == nil && !l.st.v2 {
			known = append(known, anchorName(l.st.id))
		}
		// A file that cannot be read retires only the known names.
	}
	if err := retire(a, known); err != nil {
		return err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("ledger: reset: %w", err)
	}
	for _, e := range ents {
		n := e.Name()
		if n == FileName || n == legacyName || strings.HasPrefix(n, "."+FileName+".") || strings.HasPrefix(n, "."+legacyName+".") {
			if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("ledger: reset: %w", err)
			}
		}
	}
	return nil
}

func retire(a anchor.Anchor, names []string) error {
	if a == nil {
		return nil
	}
	for _, n := range names {
		if !strings.HasPrefix(n, AnchorPrefix) {
			continue
		}
		if err := a.Store(n, anchor.Retired()); err != nil {
			return fmt.Errorf("ledger: reset: anchor: %w", err)
		}
	}
	return nil
}
