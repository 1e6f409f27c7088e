package ledger

import (
	"math"

	"github.com/wordveil/wordveil/internal/errwrap"
)

// Tally is an in-memory lifetime budget: the exact sum of the charges it
// granted, and a cap. It is for a caller that holds every charge of one
// account in one place, such as a batch pipeline's per-user accounting
// after grouping the records by user. Unlike Ledger it keeps nothing on
// disk, so it is no defence against rollback (a restarted process starts
// from nothing): it is not for devices, which use Ledger.
//
// Like Ledger.Charge, it compares the cap with the EXACT sum of the
// charges (exactSum), never a rounded float sum, so a cap of N words from
// WordCap grants exactly N words however they are split into charges.
//
// A Tally is not safe for concurrent use. The methods of a nil Tally
// return ErrInvalid or their zero value; they never panic.
type Tally struct {
	cap   float64 // 0: no cap
	spent exactSum
}

// NewTally returns an empty tally with a lifetime cap (0: no cap; must be
// finite and ≥ 0, else ErrInvalid).
func NewTally(lifetime float64) (*Tally, error) {
	if lifetime < 0 || math.IsNaN(lifetime) || math.IsInf(lifetime, 0) {
		return nil, errwrap.Tag(ErrInvalid, "ledger: a tally's cap must be finite and ≥ 0 (got %v)", lifetime)
	}
	return &Tally{cap: lifetime + 0}, nil // −0 becomes +0: no cap
}

// Charge adds amount (finite, ≥ 0, else ErrInvalid) if the exact sum of
// the charges granted so far plus amount is ≤ the cap (always without a
// cap) and reports whether it was granted; a refused charge changes
// nothing. A charge that would take the sum past the largest float64 is
// ErrInvalid (as in Ledger.Charge), so Spent stays finite.
func (t *Tally) Charge(amount float64) (granted bool, err error) {
	switch {
	case t == nil:
		return false, errwrap.Tag(ErrInvalid, "ledger: charge to a nil tally")
	case amount < 0 || math.IsNaN(amount) || math.IsInf(amount, 0):
		return false, errwrap.Tag(ErrInvalid, "ledger: charge %v", amount)
	case t.spent.exceedsInt(amount, maxTotal):
		return false, errwrap.Tag(ErrInvalid, "ledger: charge %v would take the tally's total past the largest float64", amount)
	case t.cap > 0 && t.spent.exceeds(amount, t.cap):
		return false, nil
	}
	t.spent.add(amount + 0) // −0 becomes +0
	return true, nil
}

// Spent is the exact sum of the granted charges, rounded to the nearest
// float64 (0 for a nil tally).
func (t *Tally) Spent() float64 {
	if t == nil {
		return 0
	}
	return t.spent.float()
}

// Remaining is cap − spent (≥ 0), +Inf without a cap (0 for a nil tally).
func (t *Tally) Remaining() float64 {
	if t == nil {
		return 0
	}
	return remaining(t.cap, t.Spent())
}

// Cap returns the lifetime cap (0: none, and for a nil tally).
func (t *Tally) Cap() float64 {
	if t == nil {
		return 0
	}
	return t.cap
}
