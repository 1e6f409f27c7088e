package memo

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/internal/anchor"
)

// SecretPin is the value a memo directory's pin (anchor.Pin) holds: a
// fingerprint of the secret its memos are sealed with, keyed by the
// secret itself, so it says nothing about the secret or the memos. A
// directory found with another secret's pin was deleted whole and
// started afresh under a new secret (or replaced), which would answer
// words already answered afresh: it fails closed unless it was reset.
func SecretPin(secret []byte) (string, error) {
	if len(secret) < MinSecretLen {
		return "", fmt.Errorf("%w: %d bytes, need at least %d", ErrSecret, len(secret), MinSecretLen)
	}
	key, err := secretKey(secret, "directory pin")
	if err != nil {
		return "", fmt.Errorf("memo: %w", err)
	}
	h := hmac.New(sha256.New, key)
	h.Write([]byte("wordveil memo directory"))
	return "secret-" + hex.EncodeToString(h.Sum(nil)[:16]), nil
}

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
