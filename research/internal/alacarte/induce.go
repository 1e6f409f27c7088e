package alacarte

import (
	"fmt"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// WordCount is a word and its number of usable occurrences.
type WordCount struct {
	Word  string
	Count int64
}

// Induction is the result of Induce.
type Induction struct {
	// Vectors holds the induced targets, in target order; like the source
	// vectors they are raw (uncentred), so a binarizer applies as is.
	Vectors *binarize.Embeddings
	// Counts[i] is the number of usable occurrences of Vectors.Words[i].
	Counts []int64
	// Rare lists, in target order, the targets seen fewer than minCount
	// times: they get no vector.
	Rare []WordCount
}

// Induce returns A·u_w for every target seen at least minCount times
// (minCount ≥ 1) and lists the others as rare.
func (a *Accumulator) Induce(m *Map, minCount int) (*Induction, error) {
	if a == nil || a.index == nil || m == nil {
		return nil, ErrNil
	}
	if minCount < 1 {
		return nil, fmt.Errorf("%w: minimum count %d, want ≥ 1", ErrConfig, minCount)
	}
	if m.dim != a.dim {
		return nil, fmt.Errorf("%w: map of dimension %d, source %d", ErrDim, m.dim, a.dim)
	}
	out := &Induction{Vectors: &binarize.Embeddings{Dim: a.dim}}
	u := make([]float64, a.dim)
	for _, s := range a.targets {
		n := a.counts[s]
		if n < int64(minCount) {
			out.Rare = append(out.Rare, WordCount{a.words[s], n})
			continue
		}
		a.context(int(s), u)
		v, err := m.Apply(u)
		if err != nil {
			return nil, fmt.Errorf("target %q: %w", a.words[s], err)
		}
		out.Vectors.Words = append(out.Vectors.Words, a.words[s])
		out.Vectors.Vectors = append(out.Vectors.Vectors, v...)
		out.Counts = append(out.Counts, n)
	}
	return out, nil
}
