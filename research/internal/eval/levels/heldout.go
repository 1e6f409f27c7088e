package levels

import (
	"errors"
	"fmt"
	"slices"

	"github.com/wordveil/wordveil/internal/privatize"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
)

// ErrInvalid wraps every argument error of this package: nothing here
// panics on bad input.
var ErrInvalid = errors.New("levels: invalid argument")

// Text is a text's word tokens as the product sees them.
type Text struct {
	// Words is the number of word pieces (privatize.WordIDs: the
	// tokenizer's words, clitics and hyphen segments cut off).
	Words int
	// IDs are the vocabulary ids of the pieces in the vocabulary, in
	// text order; len(IDs) ≤ Words. Stand-ins count as outside.
	IDs []int
}

// InVocab is the share of word pieces in the vocabulary (0 for no word).
func (t Text) InVocab() float64 {
	if t.Words == 0 {
		return 0
	}
	return float64(len(t.IDs)) / float64(t.Words)
}

// TextIDs cuts every document docs yields into word pieces and looks
// them up in a, as the privatizer does (privatize.WordIDs).
func TextIDs(a *wva.Asset, docs func(fn func(doc string) error) error) (Text, error) {
	if a == nil || a.Len() == 0 || docs == nil {
		return Text{}, fmt.Errorf("%w: nil or empty asset, or no documents", ErrInvalid)
	}
	var t Text
	err := docs(func(doc string) error {
		privatize.WordIDs(a, doc, func(_ string, id int, ok bool) {
			t.Words++
			if ok {
				t.IDs = append(t.IDs, id)
			}
		})
		return nil
	})
	if err != nil {
		return Text{}, err
	}
	return t, nil
}

// HeldOut is TextIDs of the held-out everyday English of
// typedtext.HeldOut (nlp-corpus doc-0…29, filtered against IMDB and
// Brown; never used for calibration) in the data cache cacheDir.
func HeldOut(cacheDir string, a *wva.Asset) (Text, error) {
	return TextIDs(a, func(fn func(string) error) error {
		return typedtext.HeldOut(cacheDir, func(_, doc string) error { return fn(doc) })
	})
}

// Subsample returns at most m of ids (all of them when there are no more
// than m), chosen uniformly without replacement with a generator seeded
// by seed, in their original order: a bounded, reproducible sample of a
// text's tokens. m must be ≥ 1.
func Subsample(ids []int, m int, seed uint64) ([]int, error) {
	if m < 1 {
		return nil, fmt.Errorf("%w: a subsample of %d tokens", ErrInvalid, m)
	}
	if len(ids) <= m {
		return slices.Clone(ids), nil
	}
	src := seeded.Source(seed)
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	// A partial Fisher–Yates shuffle: idx[:m] is a uniform m-subset.
	for i := range m {
		j := i + sample.UniformInt(src, len(idx)-i)
		idx[i], idx[j] = idx[j], idx[i]
	}
	pick := idx[:m]
	slices.Sort(pick)
	out := make([]int, m)
	for i, k := range pick {
		out[i] = ids[k]
	}
	return out, nil
}
