package privatize

import (
	"context"
)

// Cost returns the accounting Privatize(text, src) would return, computed
// without privatizing: no random draw, no ledger charge, no memo lookup.
// It runs Privatize's passes 0 and 1 (tokenize, look the words up, their
// classes) and the same textAccounting, so the two cannot drift: without a
// memo the result equals Privatize's accounting field by field (the same
// float64 bits for TotalEpsilon and UnitFree), with Memoized 0 and Ledger
// nil. With a memo it is an upper bound: Privatize charges nothing for a
// word the memo answers again, Cost counts every word as fresh.
//
// The count is a function of the text alone (its tokenization and the
// vocabulary lookup), so it reveals nothing beyond what the accounting of
// the released text shows. The errors are Privatize's for the same text.
func (p *Privatizer) Cost(text string) (*Accounting, error) {
	if err := p.begin(); err != nil {
		return nil, err
	}
	defer p.leave()
	texts := []string{text}
	if err := p.checkTexts(texts); err != nil {
		return nil, err
	}
	sc, err := p.scan(context.Background(), texts)
	if err != nil {
		return nil, err
	}
	acc := p.textAccounting(textCursor{}, sc.ends[0], nil, sc.cls)
	sc.release()
	return &acc, nil
}
