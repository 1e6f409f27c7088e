package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.wva")
	if err := writeFileAtomic(p, []byte("abc")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o644 || st.Size() != 3 {
		t.Fatalf("stat %v, %v", st, err)
	}
	if err := writeFileAtomic(filepath.Join(p, "sub", "y"), nil); err == nil {
		t.Fatal("write under a file succeeded")
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"frobnicate"}, {"assets"}, {"assets", "build"}, {"assets", "inspect"}} {
		var out, errb bytes.Buffer
		if err := run(args, &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("wordveil-research %v: err = %v, want a usage error", args, err)
		}
	}
}
