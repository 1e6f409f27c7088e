package ledger

import (
	"errors"
	"testing"
)

// TestCloseKeepsEnforcing: Close is safe on nil and twice, and a Ledger
// used after Close still checks the whole history on file: a charge over
// the cap that others (here a second Ledger) spent meanwhile is refused.
func TestCloseKeepsEnforcing(t *testing.T) {
	var nilL *Ledger
	if err := nilL.Close(); err != nil {
		t.Fatalf("nil Close: %v", err)
	}
	dir := t.TempDir()
	l, err := Open(dir, Caps{Lifetime: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(1); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := l.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i+1, err)
		}
	}
	other, err := Open(dir, Caps{Lifetime: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Charge(1.5); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(1); !errors.Is(err, ErrBudgetExceeded) {
		t.Fatalf("charge after Close over the cap: %v, want ErrBudgetExceeded", err)
	}
	if _, lifetime, err := l.Spent(); err != nil || lifetime != 2.5 {
		t.Fatalf("Spent after Close: %v, %v; want 2.5", lifetime, err)
	}
}
