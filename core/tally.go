package core

import "github.com/wordveil/wordveil/internal/ledger"

// Tally is an in-memory lifetime budget: a cap in metric loss and the
// exact sum of the charges it granted. It is for a caller that holds every
// charge of one account in one place, such as a batch pipeline's per-user
// cap after grouping the records by user (the Beam pipeline's -cap and
// -cap-words): charge each record's Accounting.UnitFree (from
// Privatizer.Cost or Privatize) and release the record only if granted.
//
// What it guarantees: it is the ledger's arithmetic (Config.LedgerDir),
// not a copy of it. The cap is compared with the EXACT sum of the granted
// charges, never a rounded float sum, so the outcome does not depend on
// how the charges are ordered into float additions, and a cap from
// WordCap grants exactly that many fresh words however they are split
// into charges.
//
// What it does not do: it keeps nothing on disk, so it is no defence
// against rollback (a restarted process starts from nothing) and is not
// for devices, which use Config.LedgerDir. It has no period cap. It is not
// safe for concurrent use.
//
// The zero Tally is empty and has no cap. The methods of a nil Tally
// return ErrInvalidConfig or their zero value; they never panic.
type Tally struct {
	t ledger.Tally
}

// NewTally returns an empty tally with a lifetime cap in metric loss
// (0: no cap). A negative or non-finite cap is ErrInvalidConfig.
func NewTally(capLoss float64) (*Tally, error) {
	t, err := ledger.NewTally(capLoss)
	if err != nil {
		return nil, classify(err)
	}
	return &Tally{t: *t}, nil // a fresh ledger.Tally: nothing is shared by the copy
}

// WordCap converts a cap of words fresh words, each costing wordCost in
// metric loss (Info.WordCost), to the cap in metric loss that
// NewTally and Caps.Lifetime take: (words + ½)·wordCost, so that exactly
// words words are granted and the next is refused, whatever the rounding
// of each charge (internal/ledger states the proof). words == 0 is no cap
// and returns 0. A negative count, one above 2^40, an unknown (NaN) or
// non-positive cost, or a cap that is not finite is ErrInvalidConfig: a
// cap is never silently dropped. It is the conversion Caps.LifetimeWords
// goes through.
func WordCap(words int, wordCost float64) (float64, error) {
	c, err := ledger.WordCap(words, wordCost)
	return c, classify(err)
}

// inner is the ledger's tally, nil for a nil t (whose methods the ledger
// answers without panicking).
func (t *Tally) inner() *ledger.Tally {
	if t == nil {
		return nil
	}
	return &t.t
}

// Charge grants loss (metric loss, finite and ≥ 0, else ErrInvalidConfig)
// if the exact sum of the charges granted so far plus loss is within the
// cap (always without a cap), and reports whether it did; a refused charge
// changes nothing, so a later, smaller one may still be granted. A charge
// that would take the sum past the largest float64 is ErrInvalidConfig.
func (t *Tally) Charge(loss float64) (granted bool, err error) {
	granted, err = t.inner().Charge(loss)
	return granted, classify(err)
}

// Spent is the exact sum of the granted charges, rounded to the nearest
// float64 (0 for a nil Tally).
func (t *Tally) Spent() float64 { return t.inner().Spent() }

// Remaining is the cap less Spent (never below 0), +Inf without a cap (0
// for a nil Tally).
func (t *Tally) Remaining() float64 { return t.inner().Remaining() }
