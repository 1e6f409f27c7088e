package main

import (
	"bytes"
	"errors"

	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/memo"
)

// TestMain keeps every test's default state directory (memo keys and
// anchors) out of the user's real one.
func TestMain(m *testing.M) {
	d, err := os.MkdirTemp("", "wordveil-state-")
	if err == nil {
		os.Setenv("XDG_CONFIG_HOME", d)
		os.Setenv("HOME", d)
	}
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

func privatizeArgs(memoDir, ledgerDir, state string) []string {
	args := []string{"privatize", "-mechanism", "1dg", "-preset", "strong"}
	if memoDir != "" {
		args = append(args, "-memo", memoDir)
	}
	if ledgerDir != "" {
		args = append(args, "-ledger", ledgerDir)
	}
	if state != "" {
		args = append(args, "-state", state)
	}
	return args
}

// TestMemoKeyOutsideMemoDir: by default the key is created in the state
// directory, never in the memo directory, and a key left in the memo
// directory by an earlier version is moved out (the memo still opens with
// it: the same responses).
func TestMemoKeyOutsideMemoDir(t *testing.T) {
	memoDir, state := t.TempDir(), t.TempDir()
	var a, b, errb bytes.Buffer
	if err := run(privatizeArgs(memoDir, "", state), strings.NewReader("privacy matters\n"), &a, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	filepath.WalkDir(memoDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".wvm") {
			t.Errorf("memo directory holds %s", p)
		}
		return nil
	})
	keys, _ := filepath.Glob(filepath.Join(state, "memo-*", "memo.key"))
	if len(keys) != 1 {
		t.Fatalf("keys in the state directory: %v", keys)
	}
	// An earlier version's layout: the key inside the memo directory.
	if err := os.Rename(keys[0], filepath.Join(memoDir, legacyMemoKeyName)); err != nil {
		t.Fatal(err)
	}
	if err := run(privatizeArgs(memoDir, "", state), strings.NewReader("privacy matters\n"), &b, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	if a.String() != b.String() {
		t.Fatalf("after moving the key: %q, before %q", b.String(), a.String())
	}
	if _, err := os.Stat(filepath.Join(memoDir, legacyMemoKeyName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("key still in the memo directory: %v", err)
	}
	if _, err := os.Stat(keys[0]); err != nil {
		t.Fatal(err)
	}
}

func TestStateFlagsRefused(t *testing.T) {
	memoDir, ledgerDir := t.TempDir(), t.TempDir()
	for _, args := range [][]string{
		append(privatizeArgs(memoDir, "", ""), "-memo-key", filepath.Join(memoDir, "k")),
		append(privatizeArgs(memoDir, "", ""), "-memo-key", filepath.Join(memoDir, "sub", "k")),
		privatizeArgs(memoDir, "", filepath.Join(memoDir, "state")),
		privatizeArgs("", ledgerDir, ledgerDir),
		{"privatize", "-state", t.TempDir()},
		privatizeArgs(memoDir, "", linkInto(t, memoDir)),
		privatizeArgs("", ledgerDir, linkInto(t, ledgerDir)),
		append(privatizeArgs(memoDir, "", ""), "-memo-key", filepath.Join(linkInto(t, memoDir), "k")),
	} {
		var out, errb bytes.Buffer
		if err := run(args, strings.NewReader("x\n"), &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
	// Negative control: beside (not inside) the memo directory is fine.
	var out, errb bytes.Buffer
	args := append(privatizeArgs(memoDir, "", ""), "-memo-key", memoDir+"-key")
	if err := run(args, strings.NewReader("x\n"), &out, &errb); err != nil {
		t.Errorf("%v: %v", args, err)
	}
}

// linkInto is a symlink (outside dir) to a subdirectory of dir.
func linkInto(t *testing.T, dir string) string {
	sub := filepath.Join(dir, "sub")
	os.MkdirAll(sub, 0o700)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(sub, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// TestDefaultStateInsideRefused: the default state directory
// ($XDG_CONFIG_HOME/wordveil) inside the memo or ledger directory, also
// through a symlink, is a usage error; the negative control is a default
// beside them.
func TestDefaultStateInsideRefused(t *testing.T) {
	memoDir, ledgerDir := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		xdg  string
		args []string
	}{
		{memoDir, privatizeArgs(memoDir, "", "")},
		{ledgerDir, privatizeArgs("", ledgerDir, "")},
		{linkInto(t, memoDir), privatizeArgs(memoDir, "", "")},
		{linkInto(t, ledgerDir), privatizeArgs(memoDir, ledgerDir, "")},
	} {
		t.Setenv("XDG_CONFIG_HOME", c.xdg)
		var out, errb bytes.Buffer
		if err := run(c.args, strings.NewReader("x\n"), &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("XDG_CONFIG_HOME=%s %v: %v, want a usage error", c.xdg, c.args, err)
		}
		if ents, _ := os.ReadDir(filepath.Join(c.xdg, "wordveil")); len(ents) != 0 {
			t.Errorf("state written inside: %v", ents)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var out, errb bytes.Buffer
	if err := run(privatizeArgs(memoDir, ledgerDir, ""), strings.NewReader("x\n"), &out, &errb); err != nil {
		t.Errorf("default state beside: %v", err)
	}
}

// TestCLIRollbackFailsClosed: a memo or ledger directory restored from a
// backup (an older copy) makes the next run fail, with nothing printed,
// instead of drawing new responses or handing budget back; the negative
// control is the same restore with the anchors gone too (a reset: it
// runs).
func TestCLIRollbackFailsClosed(t *testing.T) {
	copyDir := func(t *testing.T, from, to string) {
		os.RemoveAll(to)
		os.MkdirAll(to, 0o700)
		ents, _ := os.ReadDir(from)
		for _, e := range ents {
			b, err := os.ReadFile(filepath.Join(from, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(to, e.Name()), b, 0o600)
		}
	}
	for _, kind := range []string{"memo", "ledger"} {
		t.Run(kind, func(t *testing.T) {
			dir, state, backup := t.TempDir(), t.TempDir(), t.TempDir()
			args := privatizeArgs(dir, "", state)
			if kind == "ledger" {
				args = privatizeArgs("", dir, state)
			}
			var out, errb bytes.Buffer
			if err := run(args, strings.NewReader("first words\n"), &out, &errb); err != nil {
				t.Fatal(err, errb.String())
			}
			copyDir(t, dir, backup)
			if err := run(args, strings.NewReader("more words here\n"), &out, &errb); err != nil {
				t.Fatal(err, errb.String())
			}
			copyDir(t, backup, dir)
			out.Reset()
			err := run(args, strings.NewReader("more words here\n"), &out, &errb)
			if !errors.Is(err, memo.ErrCorrupt) && !errors.Is(err, ledger.ErrCorrupt) || out.Len() != 0 {
				t.Fatalf("after restoring an older copy: %v, printed %q", err, out.String())
			}
			// The reset path: wordveil state reset, then a fresh start,
			// which the pre-reset copy restored once more cannot undo.
			if err := run([]string{"state", "reset", "-" + kind, dir, "-state", state}, nil, &out, &errb); err != nil {
				t.Fatalf("state reset: %v %s", err, errb.String())
			}
			if err := run(args, strings.NewReader("more words here\n"), &out, &errb); err != nil {
				t.Fatalf("after a deliberate reset: %v", err)
			}
			copyDir(t, backup, dir)
			out.Reset()
			err = run(args, strings.NewReader("more words here\n"), &out, &errb)
			if !errors.Is(err, memo.ErrCorrupt) && !errors.Is(err, ledger.ErrCorrupt) && !errors.Is(err, anchor.ErrMismatch) && !errors.Is(err, memo.ErrWrongSecret) || out.Len() != 0 {
				t.Fatalf("a pre-reset copy restored after the reset: %v, printed %q", err, out.String())
			}
		})
	}
}

// TestCLIRollbackOtherPathFailsClosed: an older copy of a memo or ledger
// directory opened at another path (a copy beside it, the directory
// renamed, a symlink to it; for the memo with -memo-key naming its key, or
// the default key) fails closed, with nothing printed: the anchors are
// found by the memo's and ledger's identity, not by the path (a copy or
// rename with the default key gets a new key: ErrWrongSecret).
func TestCLIRollbackOtherPathFailsClosed(t *testing.T) {
	copyTree := func(t *testing.T, from, to string) {
		if err := os.CopyFS(to, os.DirFS(from)); err != nil {
			t.Fatal(err)
		}
	}
	for _, kind := range []string{"memo", "ledger"} {
		for _, how := range []string{"copy", "rename", "symlink"} {
			for _, key := range []bool{true, false} {
				if kind == "ledger" && !key {
					continue
				}
				name := kind + "/" + how
				if !key {
					name += "/default-key"
				}
				t.Run(name, func(t *testing.T) {
					root, state := t.TempDir(), t.TempDir()
					dir, bak := filepath.Join(root, "d"), filepath.Join(root, "bak")
					args := func(d string) []string {
						if kind == "ledger" {
							return privatizeArgs("", d, state)
						}
						a := privatizeArgs(d, "", state)
						if keys, _ := filepath.Glob(filepath.Join(state, "memo-*", "memo.key")); key && len(keys) == 1 {
							a = append(a, "-memo-key", keys[0])
						}
						return a
					}
					var out, errb bytes.Buffer
					if err := run(args(dir), strings.NewReader("the of and\n"), &out, &errb); err != nil {
						t.Fatal(err, errb.String())
					}
					copyTree(t, dir, bak)
					if err := run(args(dir), strings.NewReader("cat dog bird\n"), &out, &errb); err != nil {
						t.Fatal(err, errb.String())
					}
					open := filepath.Join(root, how)
					switch how {
					case "copy":
						copyTree(t, bak, open)
					case "rename":
						os.RemoveAll(dir)
						if err := os.Rename(bak, open); err != nil {
							t.Fatal(err)
						}
					case "symlink":
						os.RemoveAll(dir)
						copyTree(t, bak, dir)
						if err := os.Symlink(dir, open); err != nil {
							t.Fatal(err)
						}
					}
					out.Reset()
					err := run(args(open), strings.NewReader("cat dog bird\n"), &out, &errb)
					if !errors.Is(err, memo.ErrCorrupt) && !errors.Is(err, ledger.ErrCorrupt) && !errors.Is(err, memo.ErrWrongSecret) || out.Len() != 0 {
						t.Fatalf("older copy at %s: %v, printed %q", open, err, out.String())
					}
				})
			}
		}
	}
}

// TestCLILedgerRestartedAtSamePathFailsClosed: a ledger directory deleted
// whole and started afresh at the same path is refused (the path's pin
// names the old ledger), and nothing is printed; the same ledger moved to
// another path still opens; wordveil state reset is the deliberate reset.
func TestCLILedgerRestartedAtSamePathFailsClosed(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	dir := filepath.Join(root, "l")
	var out, errb bytes.Buffer
	charge := func(d string) error {
		out.Reset()
		errb.Reset()
		return run(privatizeArgs("", d, state), strings.NewReader("the cat\n"), &out, &errb)
	}
	for range 2 {
		if err := charge(dir); err != nil {
			t.Fatal(err, errb.String())
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := charge(dir); !errors.Is(err, anchor.ErrMismatch) || out.Len() != 0 {
		t.Fatalf("ledger deleted whole and restarted at the same path: %v, printed %q", err, out.String())
	}
	// The refused run started a new ledger there; move it away and check
	// that a moved ledger keeps working under its own anchor.
	moved := filepath.Join(root, "moved")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if err := charge(moved); err != nil {
		t.Fatalf("a ledger moved to a new path: %v %s", err, errb.String())
	}
	if pins, _ := filepath.Glob(filepath.Join(state, "anchors", "path-*.anchor")); len(pins) == 0 {
		t.Fatal("no pin written")
	}
	if err := run([]string{"state", "reset", "-ledger", dir, "-state", state}, nil, &out, &errb); err != nil {
		t.Fatalf("state reset: %v %s", err, errb.String())
	}
	if err := charge(dir); err != nil {
		t.Fatalf("after state reset: %v %s", err, errb.String())
	}
}
