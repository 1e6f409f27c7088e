package privatize

import (
	"github.com/wordveil/wordveil/internal/tokenize"
	"github.com/wordveil/wordveil/internal/wva"
)

// WordIDs calls fn, in order, with every word piece of text as the
// privatizer cuts it (its tokenizer, clitics cut off as GloVe does,
// hyphenated words cut into segments) and the vocabulary id it looks the
// piece up as (its lower-case key in a): ok is false for a piece outside
// the vocabulary. Stand-ins (Asset.StandIn) count as outside here: this
// is for measuring which typed tokens the vocabulary itself holds.
// Numbers, punctuation, e-mail addresses and URLs are not word pieces
// and are skipped. It uses the same scanner, segmentation and lookup as
// Privatize; a nil asset finds no word.
func WordIDs(a *wva.Asset, text string, fn func(piece string, id int, ok bool)) {
	if fn == nil {
		return
	}
	var sc tokenize.Scanner
	sc.Reset(text)
	for {
		tk, ok := sc.Next()
		if !ok {
			return
		}
		if tk.Kind != tokenize.Word {
			continue
		}
		eachSegment(tk, func(sg tokenize.Token, _ bool) {
			if a == nil {
				fn(sg.Text, -1, false)
				return
			}
			id, _, ok := lookupIn(a, sg, false)
			fn(sg.Text, id, ok)
		})
	}
}
