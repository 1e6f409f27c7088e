package privatize

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
)

// TestPrivatizeBlock: a block is charged once, for all its lines; prepare
// sees the results before the charge and can cancel it; a cancelled
// context charges nothing.
func TestPrivatizeBlock(t *testing.T) {
	a := defaultAsset(t)
	brr, _ := mechanism.NewBRR(newIndex(t, a.Codes), 0.5)
	l, _ := ledger.Open(t.TempDir(), ledger.Caps{})
	p, err := New(brr, a, Options{Ledger: l})
	if err != nil {
		t.Fatal(err)
	}
	lines := []string{"the cat\n", "sat on the mat 4217\n", "\n"}
	var seen []Result
	res, err := p.PrivatizeBlock(context.Background(), lines, mechanism.NewSecureSource(), func(r []Result) error {
		seen = r
		if r[0].Accounting.Ledger != nil {
			t.Error("prepare saw a receipt before the charge")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || len(seen) != 3 || res[0].Accounting.Words != 2 || res[1].Accounting.Words != 4 || res[1].Accounting.OOV != 1 || res[2].Text != "\n" {
		t.Fatalf("results %+v", res)
	}
	_, life, _ := l.Spent()
	want := 6 * 0.5 * res[0].Accounting.PAvg
	if math.Abs(life-want) > 1e-9 || res[0].Accounting.Ledger != res[2].Accounting.Ledger || res[0].Accounting.Ledger.Amount != life {
		t.Fatalf("one charge of %v expected, ledger spent %v, receipts %+v", want, life, res[0].Accounting.Ledger)
	}
	for i, r := range res {
		if strings.Count(r.Text, "\n") != strings.Count(lines[i], "\n") {
			t.Fatalf("layout of line %d: %q", i, r.Text)
		}
	}
	boom := errors.New("boom")
	if _, err := p.PrivatizeBlock(context.Background(), lines, mechanism.NewSecureSource(), func([]Result) error { return boom }); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.PrivatizeBlock(ctx, lines, mechanism.NewSecureSource(), nil); !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if _, after, _ := l.Spent(); after != life {
		t.Fatalf("a failed block was charged: %v → %v", life, after)
	}
	if _, err := p.PrivatizeBlock(context.Background(), nil, mechanism.NewSecureSource(), nil); !errors.Is(err, ErrEmptyText) {
		t.Fatal(err)
	}
	if _, err := p.PrivatizeBlock(context.Background(), []string{"a", ""}, mechanism.NewSecureSource(), nil); !errors.Is(err, ErrEmptyText) {
		t.Fatal(err)
	}
}

// TestUnknownLossNeverZero: where P_avg is unknown the loss reads as
// unknown (NaN, with a reason), never as 0.
func TestUnknownLossNeverZero(t *testing.T) {
	a := defaultAsset(t)
	tem, _ := mechanism.NewTEM(a.TEM, 10, mechanism.TEMOptions{})
	p, err := New(tem, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Privatize("the cat sat", mechanism.NewSecureSource())
	if err != nil {
		t.Fatal(err)
	}
	acc := r.Accounting
	if !math.IsNaN(acc.PAvg) || !math.IsNaN(acc.UnitFree) || acc.LossUnknown == "" || acc.TotalEpsilon != 30 || acc.Mechanism != mechanism.NameTEM {
		t.Fatalf("accounting %+v", acc)
	}
	brr, _ := mechanism.NewBRR(newIndex(t, a.Codes), 0.5)
	p, _ = New(brr, a, Options{})
	r, _ = p.Privatize("the cat sat", mechanism.NewSecureSource())
	if acc := r.Accounting; acc.LossUnknown != "" || !(acc.PAvg > 100) || acc.UnitFree != acc.TotalEpsilon*acc.PAvg {
		t.Fatalf("BRR accounting %+v", acc)
	}
}

// TestZeroValuePrivatizer: a zero Privatizer returns an error.
func TestZeroValuePrivatizer(t *testing.T) {
	var p *Privatizer
	if _, err := p.Privatize("x", mechanism.NewSecureSource()); err == nil {
		t.Fatal("nil privatizer")
	}
	if _, err := (&Privatizer{}).Privatize("x", mechanism.NewSecureSource()); err == nil {
		t.Fatal("zero privatizer")
	}
}
