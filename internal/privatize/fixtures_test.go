package privatize

import (
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/ledger"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/memo"
	"github.com/wordveil/wordveil/internal/wva"
)

func newIndex(t testing.TB, codes []hamming.Code) *hamming.Index {
	t.Helper()
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func defaultAsset(t testing.TB) *wva.Asset {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatalf("default asset: %v", err)
	}
	if a.TEM == nil || len(a.Lists) == 0 {
		t.Fatal("default asset lacks TEM or 1-Diffractor lists")
	}
	return a
}

type namedMech struct {
	name string
	m    mechanism.Mechanism
}

// fullAssetMechanisms builds each on-device mechanism over the default
// asset (N = 50k) at one ε inside its useful range.
func fullAssetMechanisms(tb testing.TB) []namedMech {
	tb.Helper()
	a := defaultAsset(tb)
	x := newIndex(tb, a.Codes)
	var out []namedMech
	add := func(name string, m mechanism.Mechanism, err error) {
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out = append(out, namedMech{name, m})
	}
	brr, err := mechanism.NewBRR(x, 0.7)
	add("BRR/eps=0.7", brr, err)
	dg, err := mechanism.NewDiffractorGeometric(a.Lists, 0.05)
	add("1-DG/eps=0.05", dg, err)
	dt, err := mechanism.NewDiffractorTEM(a.Lists, 0.05, mechanism.TEMOptions{})
	add("1-DT/eps=0.05", dt, err)
	tem, err := mechanism.NewTEM(a.TEM, 10, mechanism.TEMOptions{})
	add("TEM-lists/eps=10", tem, err)
	th, err := mechanism.NewTEMHamming(x, 1, mechanism.TEMOptions{})
	add("TEM-hamming/eps=1", th, err)
	return out
}

// openLedger opens the ledger in dir bound to memo m (nil: none), as
// core.Open does.
func openLedger(t *testing.T, dir string, m *memo.Memo) *ledger.Ledger {
	t.Helper()
	l, err := ledger.OpenWith(dir, ledger.Caps{}, ledger.Options{Bind: MemoBinding(m)})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
