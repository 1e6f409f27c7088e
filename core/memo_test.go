package core

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/ledger"
)

func TestMemoPermanentResponses(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := NewDiffractorGeometric(a.Lists, 0.01) // outputs far from inputs
	dir := t.TempDir()
	memo, err := OpenMemo(dir, MemoKey(dg, a))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := ledger.Open(t.TempDir(), ledger.Caps{})
	p, err := NewTextPrivatizer(dg, a, TextOptions{Memo: memo, Ledger: l})
	if err != nil {
		t.Fatal(err)
	}
	src := NewSeededSourceForEvaluation(testSeed("memo"))
	r1, err := p.Privatize("the cat and the cat", src)
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Fields(r1.Text)
	if w[0] != w[3] || w[1] != w[4] {
		t.Fatalf("repeated words got different responses: %q", r1.Text)
	}
	if acc := r1.Accounting; acc.Words != 5 || acc.Memoized != 2 || acc.TotalEpsilon != 3*0.01 {
		t.Fatalf("first call accounting %+v", acc)
	}
	r2, _ := p.Privatize("cat the", src)
	if got := strings.Fields(r2.Text); got[0] != w[1] || got[1] != w[0] || r2.Accounting.TotalEpsilon != 0 || r2.Accounting.Ledger.Amount != 0 {
		t.Fatalf("second call %q %+v", r2.Text, r2.Accounting)
	}
	// Reopened from disk: the same permanent responses.
	again, err := OpenMemo(dir, MemoKey(dg, a))
	if err != nil || again.Len() != 3 {
		t.Fatalf("reopened memo: %v, %d entries", err, again.Len())
	}
	p2, _ := NewTextPrivatizer(dg, a, TextOptions{Memo: again})
	r3, _ := p2.Privatize("and", src)
	if strings.TrimSpace(r3.Text) != w[2] {
		t.Fatalf("after reopening, %q became %q, was %q", "and", r3.Text, w[2])
	}
}

func TestMemoBoundToMechanism(t *testing.T) {
	a := defaultAsset(t)
	dg1, _ := NewDiffractorGeometric(a.Lists, 0.01)
	dg2, _ := NewDiffractorGeometric(a.Lists, 0.02)
	memo, _ := OpenMemo("", MemoKey(dg1, a))
	if _, err := NewTextPrivatizer(dg2, a, TextOptions{Memo: memo}); err == nil {
		t.Fatal("a memo made for ε = 0.01 was accepted for ε = 0.02")
	}
}

func TestMemoCorruptFailsClosed(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := NewDiffractorGeometric(a.Lists, 0.01)
	dir := t.TempDir()
	memo, _ := OpenMemo(dir, MemoKey(dg, a))
	p, _ := NewTextPrivatizer(dg, a, TextOptions{Memo: memo})
	p.Privatize("the cat", NewSeededSourceForEvaluation(testSeed("memo2")))
	files, _ := filepath.Glob(filepath.Join(dir, "wordveil-memo-*.json"))
	if len(files) != 1 {
		t.Fatalf("memo files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	b[len(b)/2] ^= 1
	os.WriteFile(files[0], b, 0o600)
	if _, err := OpenMemo(dir, MemoKey(dg, a)); !errors.Is(err, ErrMemoCorrupt) {
		t.Fatalf("corrupt memo: %v", err)
	}
}
