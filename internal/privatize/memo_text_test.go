package privatize

import (
	"bytes"
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/wva"
)

var testSecret = bytes.Repeat([]byte{7}, 32)

// TestMemoPermanentResponses: through the text privatizer, a memoized word
// repeats its first response, costs nothing after the first time, and
// survives reopening.
func TestMemoPermanentResponses(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.01)
	dir, ldir := t.TempDir(), t.TempDir()
	m, err := memo.Open(dir, MemoIdentity(dg, a), testSecret)
	if err != nil {
		t.Fatal(err)
	}
	l := openLedger(t, ldir, m)
	p, err := New(dg, a, Options{Memo: m, Ledger: l})
	if err != nil {
		t.Fatal(err)
	}
	src := mechanism.NewSecureSource()
	r1, err := p.Privatize("the cat and the cat sat", src)
	if err != nil {
		t.Fatal(err)
	}
	pavg, _ := mechanism.MeanDistance(dg)
	if acc := r1.Accounting; acc.Words != 6 || acc.Memoized != 2 || acc.TotalEpsilon != 4*0.01 || math.Abs(acc.Ledger.Amount-4*0.01*pavg) > 1e-9 {
		t.Fatalf("accounting %+v", acc)
	}
	r2, _ := p.Privatize("the cat and the cat sat", src)
	if r2.Text != r1.Text || r2.Accounting.Memoized != 6 || r2.Accounting.Ledger.Amount != 0 {
		t.Fatalf("second call %q (%+v), first %q", r2.Text, r2.Accounting, r1.Text)
	}
	m2, _ := memo.Open(dir, MemoIdentity(dg, a), testSecret)
	p2, err := New(dg, a, Options{Memo: m2, Ledger: l})
	if err != nil {
		t.Fatal(err)
	}
	if r3, _ := p2.Privatize("the cat and the cat sat", src); r3.Text != r1.Text {
		t.Fatalf("reopened memo: %q vs %q", r3.Text, r1.Text)
	}
}

// TestMemoIdentity: a memo is valid for exactly one mechanism, parameter
// set and asset.
func TestMemoIdentity(t *testing.T) {
	a := defaultAsset(t)
	dg1, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.01)
	dg2, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.02)
	dt, _ := mechanism.NewDiffractorTEM(a.Lists, 0.01, mechanism.TEMOptions{})
	m, _ := memo.Open("", MemoIdentity(dg1, a), nil)
	for _, other := range []mechanism.Mechanism{dg2, dt} {
		if _, err := New(other, a, Options{Memo: m}); !errors.Is(err, ErrMemoMismatch) {
			t.Errorf("%s %s: memo of another mechanism accepted: %v", other.(mechanism.Facts).Name(), other.(mechanism.Facts).Params(), err)
		}
	}
	// The same content built in memory: its hash is zero, a's is its file's.
	b := (&wva.Asset{Codes: a.Codes, Lists: a.Lists}).SetWords(a.WordList())
	if b.SHA256() == a.SHA256() {
		t.Fatal("an asset built in memory has its file's hash")
	}
	if MemoIdentity(dg1, b) == MemoIdentity(dg1, a) {
		t.Fatal("identity ignores the asset hash")
	}
}

// TestMemoReplacedUnderLedgerFailsClosed: deleting the memo while its
// ledger lives makes the next privatizer fail instead of drawing new
// responses for words already answered.
func TestMemoReplacedUnderLedgerFailsClosed(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.5)
	dir, ldir := t.TempDir(), t.TempDir()
	m, _ := memo.Open(dir, MemoIdentity(dg, a), testSecret)
	p, err := New(dg, a, Options{Memo: m, Ledger: openLedger(t, ldir, m)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Privatize("secret diagnosis", mechanism.NewSecureSource()); err != nil {
		t.Fatal(err)
	}
	m.Close()
	dir2 := t.TempDir() // "the app's data was cleared": a fresh memo
	m2, _ := memo.Open(dir2, MemoIdentity(dg, a), testSecret)
	if _, err := ledger.OpenWith(ldir, ledger.Caps{}, ledger.Options{Bind: MemoBinding(m2)}); !errors.Is(err, ledger.ErrBindingMismatch) {
		t.Fatalf("fresh memo under a live ledger: %v", err)
	}
	// Nor does a ledger opened without the binding serve the fresh memo.
	l2, _ := ledger.Open(ldir, ledger.Caps{})
	if _, err := New(dg, a, Options{Memo: m2, Ledger: l2}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("fresh memo under a ledger not bound to it: %v", err)
	}
}

// TestMemoConcurrentPrivatizers: 8 goroutines privatizing the same new
// words through one memo release one response per word.
func TestMemoConcurrentPrivatizers(t *testing.T) {
	a := defaultAsset(t)
	dg, _ := mechanism.NewDiffractorGeometric(a.Lists, 0.01)
	m, _ := memo.Open(t.TempDir(), MemoIdentity(dg, a), testSecret)
	p, _ := New(dg, a, Options{Memo: m})
	trials := 50
	if testing.Short() {
		trials = 10
	}
	for trial := 0; trial < trials; trial++ {
		word := a.Word(100 + trial)
		var wg sync.WaitGroup
		outs := make([]string, 8)
		for g := range outs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := p.Privatize(word, mechanism.NewSecureSource())
				if err != nil {
					t.Error(err)
					return
				}
				outs[g] = r.Text
			}()
		}
		wg.Wait()
		for _, o := range outs[1:] {
			if o != outs[0] {
				t.Fatalf("trial %d: %q released as %q", trial, word, outs)
			}
		}
	}
}
