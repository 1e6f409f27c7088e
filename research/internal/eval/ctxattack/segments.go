package ctxattack

import (
	"fmt"
	"slices"

	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/ngram"
)

// Segment is a run of in-vocabulary word pieces of one document, as the
// privatizer cuts them (privatize.WordIDs).
type Segment struct {
	IDs []int
	// FromStart: the run opens its document; otherwise a word outside
	// the vocabulary came before it.
	FromStart bool
}

// Start is the LM context of the segment's first word.
func (s Segment) Start() int {
	if s.FromStart {
		return ngram.Start
	}
	return ngram.Unknown
}

// Segments cuts every document docs yields into segments: a word piece
// outside the vocabulary (or a stand-in) ends one; punctuation and
// numbers are skipped, as the privatizer skips them.
func Segments(a *wva.Asset, docs func(fn func(doc string) error) error) ([]Segment, error) {
	if a == nil || a.Len() == 0 || docs == nil {
		return nil, fmt.Errorf("%w: nil or empty asset, or no documents", ErrInvalid)
	}
	var out []Segment
	err := docs(func(doc string) error {
		cur := Segment{FromStart: true}
		flush := func() {
			if len(cur.IDs) > 0 {
				out = append(out, cur)
			}
			cur = Segment{}
		}
		privatize.WordIDs(a, doc, func(_ string, id int, ok bool) {
			if !ok {
				flush()
				return
			}
			cur.IDs = append(cur.IDs, id)
		})
		flush()
		return nil
	})
	return out, err
}

// Sample draws segments uniformly without replacement (a generator
// seeded by seed) until they hold at least tokens word tokens, or all of
// them, and returns them in their original order.
func Sample(segs []Segment, tokens int, seed uint64) ([]Segment, error) {
	if tokens < 1 {
		return nil, fmt.Errorf("%w: a sample of %d tokens", ErrInvalid, tokens)
	}
	src := seeded.Source(seed)
	idx := make([]int, len(segs))
	for i := range idx {
		idx[i] = i
	}
	n, got := 0, 0
	// A partial Fisher–Yates shuffle: idx[:n] is a uniform n-subset.
	for ; n < len(idx) && got < tokens; n++ {
		j := n + sample.UniformInt(src, len(idx)-n)
		idx[n], idx[j] = idx[j], idx[n]
		got += len(segs[idx[n]].IDs)
	}
	pick := idx[:n]
	slices.Sort(pick)
	out := make([]Segment, n)
	for i, k := range pick {
		out[i] = segs[k]
	}
	return out, nil
}

// TrainLM counts the bigrams of segs (a segment's first word after
// ngram.Start only when it opens its document) into a model over the
// vocabulary [0, n).
func TrainLM(n int, segs []Segment) (*ngram.Bigram, error) {
	b, err := ngram.NewBuilder(n)
	if err != nil {
		return nil, err
	}
	for _, s := range segs {
		if err := b.Add(s.IDs, s.FromStart); err != nil {
			return nil, err
		}
	}
	return b.Build()
}
