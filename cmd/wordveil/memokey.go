package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/wordveil/wordveil/internal/safefile"
)

// memoKeySize is the length of the key that seals a memo file.
const memoKeySize = 32

var errMemoKey = errors.New("bad memo key file")

// legacyMemoKeyName is where earlier versions kept the key by default:
// inside the memo directory, beside the file it seals.
const legacyMemoKeyName = "memo.key"

// defaultMemoKeyPath is the memo key's default path, in the state
// directory home (state.go), outside the memo directory: a copy or backup
// of the memo directory then does not carry the key that opens it. A key
// left at the old default place, inside the memo directory, is moved out
// (copied, fsync'd, then removed from the memo directory). The place is
// named by the memo directory's path with its symlinks resolved, so a
// symlink to the directory finds its key; a key kept by earlier versions
// under the unresolved path is still read there. (A copy or a move of the
// directory gets a new key, which opens none of its files: ErrWrongSecret.)
func defaultMemoKeyPath(home, memoDir string) (string, error) {
	d, legacy, err := stateFor(home, "memo", memoDir)
	if err != nil {
		return "", fmt.Errorf("memo key: %w", err)
	}
	path := filepath.Join(d, "memo.key")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(filepath.Join(legacy, "memo.key")); err == nil {
			path = filepath.Join(legacy, "memo.key")
		}
	}
	old := filepath.Join(memoDir, legacyMemoKeyName)
	b, err := os.ReadFile(old)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", fmt.Errorf("memo key: %w", err)
	}
	if len(b) != memoKeySize {
		return "", fmt.Errorf("%w %s: %d bytes, want %d", errMemoKey, old, len(b), memoKeySize)
	}
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", fmt.Errorf("memo key: %w", err)
	}
	created, err := safefile.CreateExclusive(path, b, 0o600)
	if err != nil {
		return "", fmt.Errorf("memo key: %w", err)
	}
	if !created {
		if cur, err := os.ReadFile(path); err != nil || string(cur) != string(b) {
			return "", fmt.Errorf("%w: %s and %s both exist and differ; keep the one that opens the memo", errMemoKey, old, path)
		}
	}
	if err := os.Remove(old); err != nil {
		return "", fmt.Errorf("memo key: %w", err)
	}
	return path, nil
}

// memoSecret reads the memo's key file, creating it (0600, random bytes
// from the OS) if it does not exist. On a phone the secret lives in the
// platform key store; the CLI keeps it in a file only the user can read,
// which -memo-key can put elsewhere than the memo itself.
func memoSecret(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("memo key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		secret := make([]byte, memoKeySize)
		if _, err := rand.Read(secret); err != nil {
			f.Close()
			os.Remove(path)
			return nil, fmt.Errorf("memo key: %w", err)
		}
		_, werr := f.Write(secret)
		serr := f.Sync()
		cerr := f.Close()
		if err := errors.Join(werr, serr, cerr); err != nil {
			os.Remove(path)
			return nil, fmt.Errorf("memo key %s: %w", path, err)
		}
		return secret, nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("memo key: %w", err)
	}
	f, err = os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("memo key: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("memo key: %w", err)
	}
	switch {
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("%w %s: not a regular file", errMemoKey, path)
	case st.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("%w %s: readable by others (mode %v; chmod 600 it)", errMemoKey, path, st.Mode().Perm())
	case st.Size() != memoKeySize:
		return nil, fmt.Errorf("%w %s: %d bytes, want %d", errMemoKey, path, st.Size(), memoKeySize)
	}
	secret := make([]byte, memoKeySize)
	if _, err := io.ReadFull(f, secret); err != nil {
		return nil, fmt.Errorf("%w %s: %v", errMemoKey, path, err)
	}
	return secret, nil
}
