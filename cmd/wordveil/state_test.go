package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/ledger"
	"github.com/wordveil/wordveil/memo"
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
			// The reset path: removing the anchors as well.
			as, _ := filepath.Glob(filepath.Join(state, kind+"-*", "*.anchor"))
			if len(as) == 0 {
				t.Fatal("no anchor kept")
			}
			for _, a := range as {
				os.Remove(a)
			}
			if err := run(args, strings.NewReader("more words here\n"), &out, &errb); err != nil {
				t.Fatalf("after a deliberate reset: %v", err)
			}
		})
	}
}
