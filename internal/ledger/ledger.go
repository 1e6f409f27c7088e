package ledger

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"time"

	"github.com/wordveil/wordveil/internal/anchor"
	"github.com/wordveil/wordveil/internal/errwrap"
)

// FileName is the ledger's file inside its directory.
const FileName = "wordveil-ledger.log"

// lockName is shared with version 1, so an old build still running and a
// new one exclude each other while the file is migrated.
const lockName = legacyName + ".lock"

// Sentinel errors.
var (
	ErrBudgetExceeded  = errors.New("ledger: privacy budget exceeded")
	ErrCorrupt         = errors.New("ledger: corrupt file")
	ErrInvalid         = errors.New("ledger: invalid argument")
	ErrBindingMismatch = errors.New("ledger: bound to a different id")
)

// compactSlack is how many records beyond twice the live state the log may
// hold before it is compacted into a snapshot.
const compactSlack = 1024

// Ledger is a budget stored in a directory. Its methods may be called from
// many goroutines, and on Unix from many processes sharing the directory.
type Ledger struct {
	mu   sync.Mutex
	dir  string
	caps Caps
	now  func() time.Time

	// The cache: the state as of the first off bytes of the file whose
	// identity is fi. nil st means "read the whole file again".
	st  *state
	fi  os.FileInfo
	off int64

	anchor anchor.Anchor // nil: no rollback detection across Opens
	bound  Binding       // Options.Bind, recorded by the open
	seen   *position     // the latest position read, written or anchored
	closed bool

	loads     int // whole-file reads, counted for tests
	slack     int // compactSlack; tests lower it to compact often
	compactAt int // after a failed compaction, do not retry before this many records
}

// Binding is a name tied to an id in the ledger (Bind), and the name it
// had before, if any, to be renamed (Rebind).
type Binding struct {
	Name, ID string
	Legacy   string // "": none
}

// Caps returns the caps the ledger was opened with, those given in words
// converted to metric loss.
func (l *Ledger) Caps() Caps {
	if l == nil {
		return Caps{}
	}
	return l.caps
}

// Bound returns the binding the ledger was opened with (Options.Bind),
// recorded in its file by the open.
func (l *Ledger) Bound() Binding {
	if l == nil {
		return Binding{}
	}
	return l.bound
}

// Spent reports the amount spent within the current period and over the
// lifetime. Without a period, the period's amount is the lifetime's.
func (l *Ledger) Spent() (period, lifetime float64, err error) {
	err = l.locked(func(f *os.File) error {
		st, _ := l.advance()
		period, lifetime = l.periodSpent(st, 0), st.life.float()
		return nil
	})
	return period, lifetime, err
}

// Receipt describes a committed charge.
type Receipt struct {
	// Amount is the charge just recorded, as passed to Charge (finite,
	// ≥ 0; −0 is recorded as 0).
	Amount            float64
	PeriodSpent       float64   // within the period, this charge included
	LifetimeSpent     float64   // every charge since the ledger was created, this one included
	PeriodRemaining   float64   // +Inf without a per-period cap
	LifetimeRemaining float64   // +Inf without a lifetime cap
	At                time.Time // the ledger time the charge is recorded at (see advance)
}

// Charge records amount (≥ 0, finite) if it fits under both caps, and
// returns what is spent and left. If it does not fit, it records nothing and
// returns an error wrapping ErrBudgetExceeded that says which cap and by how
// much (and restates the caps given in words). The comparison with the caps is exact. An amount that would take
// the lifetime total past the largest float64 is ErrInvalid.
func (l *Ledger) Charge(amount float64) (Receipt, error) {
	if amount < 0 || math.IsNaN(amount) || math.IsInf(amount, 0) {
		return Receipt{}, errwrap.Tag(ErrInvalid, "ledger: charge %v", amount)
	}
	amount += 0 // −0 becomes +0, the canonical zero
	var rec Receipt
	err := l.locked(func(f *os.File) error {
		st, at := l.advance()
		if st.life.exceedsInt(amount, maxTotal) {
			return errwrap.Tag(ErrInvalid, "ledger: charge %v would take the lifetime total past the largest float64", amount)
		}
		if c := l.caps.Lifetime; c > 0 && st.life.exceeds(amount, c) {
			return fmt.Errorf("%w: lifetime cap %g, spent %g, this call needs %g%s", ErrBudgetExceeded, c, st.life.float(), amount, l.caps.wordsNote())
		}
		if c := l.caps.PerPeriod; c > 0 && st.win.periodSum.exceeds(amount, c) {
			return fmt.Errorf("%w: cap %g per %v, spent %g in the last %v, this call needs %g%s",
				ErrBudgetExceeded, c, l.caps.Period, st.win.periodSum.float(), l.caps.Period, amount, l.caps.wordsNote())
		}
		if err := l.append(f, chargeSlot(st.nonce, l.off, charge{at: at, amount: amount})); err != nil {
			return err
		}
		st.apply(charge{at: at, amount: amount})
		st.records++
		life, inPeriod := st.life.float(), l.periodSpent(st, 0)
		rec = Receipt{Amount: amount, PeriodSpent: inPeriod, LifetimeSpent: life, At: time.Unix(0, at),
			PeriodRemaining: remaining(l.caps.PerPeriod, inPeriod), LifetimeRemaining: remaining(l.caps.Lifetime, life)}
		l.maybeCompact()
		return nil
	})
	return rec, err
}

// Bind ties name to id in the ledger: the first Bind for a name records id
// durably; a later Bind for that name (from any process, after any reopen)
// succeeds only with the same id, and otherwise fails with an error
// wrapping ErrBindingMismatch. A binding is never removed; it lasts as long
// as the ledger's directory. name is 1 to 64 bytes, id 1 to 255.
func (l *Ledger) Bind(name, id string) error {
	if err := validBinding(name, id); err != nil {
		return errwrap.Tag(ErrInvalid, "ledger: %v", err)
	}
	return l.locked(func(f *os.File) error { return l.bind(f, Binding{Name: name, ID: id}) })
}

// Rebind renames the binding oldName to newName, keeping its id: the
// migration of a binding whose name said too much (WordVeil's memo
// bindings were once an unkeyed hash of the mechanism, ε and asset; they
// are now keyed by the memo's secret). If oldName is bound to another id,
// or newName already to another id, it fails with ErrBindingMismatch; if
// oldName is not bound it is Bind(newName, id). The old name is gone from
// the file once Rebind returns: the ledger is rewritten as a snapshot.
func (l *Ledger) Rebind(oldName, newName, id string) error {
	b := Binding{Name: newName, ID: id, Legacy: oldName}
	if err := errors.Join(validBinding(oldName, id), validBinding(newName, id)); err != nil {
		return errwrap.Tag(ErrInvalid, "ledger: %v", err)
	}
	return l.locked(func(f *os.File) error { return l.bind(f, b) })
}

// bind records b (checked by validBinding) in the locked file f: Bind,
// or Rebind where b has a Legacy name.
func (l *Ledger) bind(f *os.File, b Binding) error {
	st := l.st
	old, hasOld := st.bindings[b.Legacy] // "" is never bound (validBinding)
	cur, hasNew := st.bindings[b.Name]
	switch {
	case hasOld && old != b.ID:
		return fmt.Errorf("%w: %q", ErrBindingMismatch, b.Legacy)
	case hasNew && cur != b.ID:
		return fmt.Errorf("%w: %q", ErrBindingMismatch, b.Name)
	case !hasOld && hasNew:
		return nil
	case !hasOld:
		if err := l.append(f, bindSlots(st.nonce, l.off, b.Name, b.ID)); err != nil {
			return err
		}
		st.bindings[b.Name] = b.ID
		st.records++
		l.maybeCompact()
		return nil
	}
	// Record the new name (so the chain moves on), then drop the old
	// one by a snapshot; a crash in between leaves both, and the next
	// Rebind (or open) finishes.
	if !hasNew {
		if err := l.append(f, bindSlots(st.nonce, l.off, b.Name, b.ID)); err != nil {
			return err
		}
		st.bindings[b.Name] = b.ID
		st.records++
	}
	delete(st.bindings, b.Legacy)
	if err := l.compact(); err != nil {
		l.st = nil // read the file as it is next time
		return fmt.Errorf("ledger: rebind: %w", err)
	}
	return nil
}

// advance moves the cached state's windows to ledger time, which it returns
// with the state.
//
// Ledger time is the wall clock, but never earlier than the latest charge
// recorded in the file, and charges are stamped with it. If the clock goes
// backwards, ledger time stands still until the clock catches up: charges
// stay in order in the file, none leaves the window while the clock is
// behind, and nothing that counted before the clock moved stops counting,
// so no budget is handed back. (A clock set forward does expire charges
// early: a rolling window has to trust the clock.)
func (l *Ledger) advance() (*state, int64) {
	st := l.st
	t := max(st.clock, l.now().UnixNano())
	st.win.advance(t, max(st.retention, int64(l.caps.Period)))
	return st, t
}

// periodSpent is what st holds within the period plus extra; the lifetime
// total without a period.
func (l *Ledger) periodSpent(st *state, extra float64) float64 {
	if l.caps.Period <= 0 {
		return st.life.plus(extra)
	}
	return st.win.periodSum.plus(extra)
}
