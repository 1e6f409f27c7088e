package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openUnder lists the files under dir this process holds open (Linux's
// /proc/self/fd); the test is skipped where there is no such directory.
// Counting every descriptor would not do: each run forces a garbage
// collection, which closes the files an earlier run leaked.
func openUnder(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc/self/fd: %v", err)
	}
	var open []string
	for _, e := range ents {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", e.Name()))
		if err == nil && strings.HasPrefix(target, dir+string(filepath.Separator)) {
			open = append(open, target)
		}
	}
	return open
}

// TestPrivatizeClosesWhatItOpens: runs of `privatize` with a memo and a
// ledger leave no file of theirs open, whether they succeed, run out of budget
// (exit 3) or fail after opening the memo (a memo directory replaced under
// its ledger). Without the closing, each run leaks the memo file.
func TestPrivatizeClosesWhatItOpens(t *testing.T) {
	tmp := t.TempDir()
	ledger, key := filepath.Join(tmp, "ledger"), filepath.Join(tmp, "keys", "memo.key")
	args := func(memo string, extra ...string) []string {
		return append([]string{"privatize", "-mechanism", "1dg", "-memo", memo, "-memo-key", key, "-ledger", ledger}, extra...)
	}
	in := "privacy matters to everyone\n"
	var out, errb bytes.Buffer
	memoA := filepath.Join(tmp, "memo-a")
	if err := run(args(memoA), strings.NewReader(in), &out, &errb); err != nil {
		t.Fatalf("first run: %v (%s)", err, errb.String())
	}
	cases := []struct {
		name    string
		args    []string
		wantErr string // "" for success
	}{
		{"success", args(memoA), ""},
		{"budget exhausted", args(memoA, "-cap", "1e-300"), "budget"},
		{"memo replaced under its ledger", args(filepath.Join(tmp, "memo-b")), "memo"},
	}
	for _, c := range cases {
		for i := 0; i < 3; i++ {
			out.Reset()
			errb.Reset()
			err := run(c.args, strings.NewReader("the quick brown fox\n"), &out, &errb)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("%s: %v (%s)", c.name, err, errb.String())
			case c.wantErr != "" && (err == nil || !strings.Contains(strings.ToLower(err.Error()), c.wantErr)):
				t.Fatalf("%s: error %v, want one about %q", c.name, err, c.wantErr)
			}
			if open := openUnder(t, tmp); len(open) > 0 {
				t.Fatalf("%s: still open after the run: %v", c.name, open)
			}
		}
	}
}
