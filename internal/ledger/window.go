package ledger

import "math"

// charge is one recorded charge.
type charge struct {
	at     int64   // ledger time, Unix nanoseconds
	amount float64 // finite, ≥ 0
}

// window is the deque of recent charges, oldest first (timestamps never
// decrease: the ledger's clock is monotonic). items[head:] are the charges
// kept for the retention window, items[p:] (p ≥ head) those inside this
// handle's own period, and periodSum is their exact sum. Both fronts only
// move forward, so keeping the sum up to date costs O(1) amortized per
// charge. Without a period (period == 0) there is no period sum.
type window struct {
	period    int64 // ns; ≤ the retention
	items     []charge
	head, p   int
	periodSum exactSum
}

func (w *window) push(c charge) {
	w.items = append(w.items, c)
	if w.period > 0 {
		w.periodSum.add(c.amount)
	}
}

// live returns the charges kept for the retention window.
func (w *window) live() []charge { return w.items[w.head:] }

// advance drops what has left the windows at ledger time now: charges at
// or before now−period leave the period sum, charges at or before
// now−retention leave the deque. Where now−period is before the smallest
// int64 (a clock at or near MinInt64) no charge can be that old, so none
// leaves: the subtraction is never allowed to wrap or saturate onto a
// charge time (saturating at MinInt64 would drop charges stamped
// MinInt64 at once, and the per-period cap would never bind).
func (w *window) advance(now, retention int64) {
	limit := len(w.items)
	if w.period > 0 {
		if from, ok := before(now, w.period); ok {
			for w.p < len(w.items) && w.items[w.p].at <= from {
				w.periodSum.sub(w.items[w.p].amount)
				w.p++
			}
		}
		limit = w.p // retention ≥ period: what is in the period is kept
	}
	if from, ok := before(now, retention); ok {
		for w.head < limit && w.items[w.head].at <= from {
			w.head++
		}
	}
	if w.period <= 0 {
		w.p = w.head
	}
	// Reclaim the dropped prefix once it is most of the slice, so memory
	// stays proportional to the live charges.
	if w.head >= 1024 && 2*w.head >= len(w.items) {
		n := copy(w.items, w.items[w.head:])
		clear(w.items[n:])
		w.items = w.items[:n]
		w.p -= w.head
		w.head = 0
	}
}

// before is now−d for d ≥ 0; ok is false when that is earlier than the
// smallest int64 (no charge time is that early).
func before(now, d int64) (int64, bool) {
	if now < math.MinInt64+d {
		return 0, false
	}
	return now - d, true
}
