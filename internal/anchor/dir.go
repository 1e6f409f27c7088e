package anchor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wordveil/wordveil/internal/safefile"
)

// DefaultHome is the default state directory, os.UserConfigDir()/wordveil:
// package core's default anchor is Dir(DefaultHome()/anchors), and the
// CLI keeps its state there unless -state says otherwise. Defined once
// here, so that the two always find the same anchors.
func DefaultHome() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "wordveil"), nil
}

// Dir is an Anchor over small files in the directory it names: one file
// per name (name + ".anchor", mode 0600), replaced atomically and fsync'd
// (internal/safefile), the directory created (0700) on the first Store.
// It is package core's default anchor (os.UserConfigDir()/wordveil/anchors)
// and the CLI's (-state DIR/anchors), so the two share their anchors.
// Several processes may share one: each value is replaced whole.
type Dir string

func (d Dir) path(name string) (string, error) {
	if d == "" || name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("anchor: name %q in directory %q", name, string(d))
	}
	return filepath.Join(string(d), name+".anchor"), nil
}

// Load returns the file's bytes, or nil if there is no file.
func (d Dir) Load(name string) ([]byte, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("anchor: %w", err)
	}
	return b, nil
}

// Store replaces the file atomically and durably.
func (d Dir) Store(name string, state []byte) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(string(d), 0o700); err != nil {
		return fmt.Errorf("anchor: %w", err)
	}
	if err := safefile.WriteFile(p, state, 0o600); err != nil {
		return fmt.Errorf("anchor: %w", err)
	}
	return nil
}
