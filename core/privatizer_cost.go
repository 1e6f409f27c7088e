package core

// Cost returns the accounting p.Privatize(text) would return, computed
// without privatizing: no random draw, no ledger charge, no memo lookup,
// and nothing of the text is released. It is for a caller that decides,
// before privatizing, whether a text fits a budget it keeps itself, such
// as a bulk pipeline's per-user caps: Cost, then
// Privatize only if the charge fits.
//
// Without a memo it is exactly Privatize's accounting: the same Words,
// OOV, Classes, and the same float64 bits for TotalEpsilon and UnitFree
// (Memoized is 0 and Ledger nil, as no ledger is charged). With a memo
// (Config.MemoDir) it is an upper bound: Cost counts every word as fresh,
// while Privatize charges nothing for a word the memo answers again.
//
// The count is a function of the text alone (its tokenization and the
// vocabulary lookup), not of any random draw, so it reveals nothing beyond
// what the accounting of the released text shows.
//
// The errors are Privatize's for the same text: ErrEmptyText,
// ErrTextTooLarge, ErrClosed after Close, ErrInvalidConfig on a nil or
// zero-value Privatizer.
func (p *Privatizer) Cost(text string) (acc Accounting, err error) {
	defer func() { err = classify(err) }()
	h, err := p.enter()
	if err != nil {
		return Accounting{}, err
	}
	defer p.life.RUnlock()
	a, err := h.text.Cost(text)
	if err != nil {
		return Accounting{}, err
	}
	return newAccounting(&a), nil
}
