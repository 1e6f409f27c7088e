package privatize

import (
	"context"

	"github.com/wordveil/wordveil/internal/tokenize"
)

// Cost returns the accounting Privatize(text, src) would return, computed
// without privatizing: no random draw, no ledger charge, no memo lookup.
// It tokenizes the text and looks its words up as Privatize's pass 1
// does, and ends in the same textAccounting: without a memo the result
// equals Privatize's accounting field by field (the same float64 bits for
// TotalEpsilon and UnitFree), with Memoized 0 and Ledger nil. With a memo
// it is an upper bound: Privatize charges nothing for a word the memo
// answers again, Cost counts every word as fresh.
//
// Without word classes it only counts (count): the accounting depends on
// how many content segments the text has and how many of them are words,
// not on which, so it builds none of pass 1's records (the ids, the
// layout, the case of each word). With classes it runs pass 1 itself
// (scan), as a word's class depends on its case. FuzzCost checks the
// count against pass 1 for every mechanism.
//
// The count is a function of the text alone (its tokenization and the
// vocabulary lookup), so it reveals nothing beyond what the accounting of
// the released text shows. The errors are Privatize's for the same text.
func (p *Privatizer) Cost(text string) (Accounting, error) {
	if err := p.begin(); err != nil {
		return Accounting{}, err
	}
	defer p.leave()
	texts := []string{text}
	if err := p.checkTexts(texts); err != nil {
		return Accounting{}, err
	}
	if p.classes == nil {
		return p.textAccounting(textCursor{}, p.count(text), nil, nil), nil
	}
	sc, err := p.scan(context.Background(), texts)
	if err != nil {
		return Accounting{}, err
	}
	acc := p.textAccounting(textCursor{}, sc.ends[0], nil, sc.cls)
	sc.release()
	return acc, nil
}

// count is where scan's pass over text alone ends: its content segments
// (seg) and how many of them are words (word), found by the same
// tokenization, segmentation (eachSegment) and lookup as scan's.
func (p *Privatizer) count(text string) textCursor {
	var end textCursor
	var sc tokenize.Scanner
	sc.Reset(text)
	for {
		tk, ok := sc.Next()
		if !ok {
			return end
		}
		if !tk.Kind.Content() {
			continue
		}
		eachSegment(tk, func(sg tokenize.Token, _ bool) {
			if _, _, ok := p.lookup(sg); ok {
				end.word++
			}
			end.seg++
		})
	}
}
