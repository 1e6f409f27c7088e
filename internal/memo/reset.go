package memo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/internal/anchor"
)

// Reset deletes every memo file of dir, having first stored
// anchor.Retired under each one's anchor name in a (nil: no anchor), so
// that a copy restored after the reset fails closed (ErrCorrupt) instead
// of undoing it. The anchor names are the files' names, so no secret is
// needed; a memo started again under the same secret therefore fails
// closed too: a fresh start needs a new secret (the app's "forget me"
// deletes the old one). Files other than memo files are left alone; a
// missing dir is nothing to reset. A crash between the two steps leaves
// retired memos that fail closed, and Reset can be run again.
func Reset(dir string, a anchor.Anchor) error {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("memo: reset: %w", err)
	}
	var files []string
	for _, e := range ents {
		name := e.Name()
		switch {
		case isMemoName(name):
			if a != nil {
				if err := a.Store(strings.TrimSuffix(name, fileSuffix), anchor.Retired()); err != nil {
					return fmt.Errorf("memo: reset: anchor: %w", err)
				}
			}
		case name == legacyLock, strings.HasPrefix(name, "."+filePrefix):
			// The version 1 lock file, a temporary file of a creation or
			// a migration. (Version 1 files have memo names too.)
		default:
			continue
		}
		files = append(files, name)
	}
	for _, name := range files {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("memo: reset: %w", err)
		}
	}
	return nil
}
