package ledger

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// FileName is the ledger's file inside its directory.
const FileName = "wordveil-ledger.json"

// Sentinel errors.
var (
	ErrBudgetExceeded = errors.New("ledger: privacy budget exceeded")
	ErrCorrupt        = errors.New("ledger: ledger file is corrupt")
	ErrInvalid        = errors.New("ledger: invalid argument")
)

// Caps limit spending. A zero cap means no cap of that kind.
type Caps struct {
	PerPeriod float64       // at most this much within any Period-long window
	Period    time.Duration // the rolling window, e.g. 24h
	Lifetime  float64       // at most this much ever
}

func (c Caps) validate() error {
	bad := func(x float64) bool { return x < 0 || math.IsNaN(x) || math.IsInf(x, 0) }
	switch {
	case bad(c.PerPeriod) || bad(c.Lifetime):
		return fmt.Errorf("%w: caps must be finite and ≥ 0 (got per period %v, lifetime %v)", ErrInvalid, c.PerPeriod, c.Lifetime)
	case c.PerPeriod > 0 && c.Period <= 0:
		return fmt.Errorf("%w: a per-period cap needs a positive period", ErrInvalid)
	}
	return nil
}

// Ledger is a budget stored in a directory.
type Ledger struct {
	mu   sync.Mutex
	path string
	caps Caps
	now  func() time.Time
}

// Open opens (creating if needed) the ledger in dir with caps. It reads the
// file once, so a corrupt ledger is reported at once.
func Open(dir string, caps Caps) (*Ledger, error) {
	if err := caps.validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("ledger: open %s: %w", dir, err)
	}
	l := &Ledger{path: filepath.Join(dir, FileName), caps: caps, now: time.Now}
	err := l.locked(func() error {
		_, err := l.read()
		return err
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Spent reports the amount spent within the current period and over the
// lifetime.
func (l *Ledger) Spent() (period, lifetime float64, err error) {
	err = l.locked(func() error {
		st, err := l.read()
		if err != nil {
			return err
		}
		period, lifetime = st.inWindow(l.now(), l.caps.Period), st.Lifetime
		return nil
	})
	return period, lifetime, err
}

// Receipt describes a committed charge.
type Receipt struct {
	Amount            float64
	PeriodSpent       float64 // within the period, this charge included
	LifetimeSpent     float64
	PeriodRemaining   float64 // +Inf without a per-period cap
	LifetimeRemaining float64 // +Inf without a lifetime cap
	At                time.Time
}

// Charge records amount (≥ 0, finite) if it fits under both caps, and
// returns what is spent and left. If it does not fit, it records nothing and
// returns an error wrapping ErrBudgetExceeded that says which cap and by how
// much.
func (l *Ledger) Charge(amount float64) (Receipt, error) {
	if amount < 0 || math.IsNaN(amount) || math.IsInf(amount, 0) {
		return Receipt{}, fmt.Errorf("%w: charge %v", ErrInvalid, amount)
	}
	var rec Receipt
	err := l.locked(func() error {
		st, err := l.read()
		if err != nil {
			return err
		}
		now := l.now()
		st.prune(now, l.caps.Period)
		inPeriod := st.inWindow(now, l.caps.Period)
		if c := l.caps.Lifetime; c > 0 && st.Lifetime+amount > c {
			return fmt.Errorf("%w: lifetime cap %g, spent %g, this call needs %g", ErrBudgetExceeded, c, st.Lifetime, amount)
		}
		if c := l.caps.PerPeriod; c > 0 && inPeriod+amount > c {
			return fmt.Errorf("%w: cap %g per %v, spent %g in the last %v, this call needs %g",
				ErrBudgetExceeded, c, l.caps.Period, inPeriod, l.caps.Period, amount)
		}
		st.Lifetime += amount
		if l.caps.Period > 0 {
			st.Charges = append(st.Charges, charge{At: now.UnixNano(), Amount: amount})
		}
		if err := l.write(st); err != nil {
			return err
		}
		rec = Receipt{Amount: amount, PeriodSpent: inPeriod + amount, LifetimeSpent: st.Lifetime, At: now,
			PeriodRemaining: remaining(l.caps.PerPeriod, inPeriod+amount), LifetimeRemaining: remaining(l.caps.Lifetime, st.Lifetime)}
		return nil
	})
	return rec, err
}

func remaining(c, spent float64) float64 {
	if c == 0 {
		return math.Inf(1)
	}
	return max(0, c-spent)
}

// locked runs f holding the in-process mutex and the cross-process lock.
func (l *Ledger) locked(f func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	unlock, err := lockFile(l.path + ".lock")
	if err != nil {
		return fmt.Errorf("ledger: lock %s: %w", l.path, err)
	}
	defer unlock()
	return f()
}
