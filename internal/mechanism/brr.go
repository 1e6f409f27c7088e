package mechanism

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
)

// brrMech is the mechanism NewBRR documents.
type brrMech struct {
	index *hamming.Index
	// out is searched for the output: index itself, or index without the
	// excluded words when outputs are restricted (outputIndex; its ids are
	// word ids either way).
	out     *hamming.Index
	outputs *Outputs
	eps     float64
	thresh  uint64 // BernoulliThreshold(q)
	radius  int    // planner hint: the expected distance of the noisy code
	ties    hamming.Ties
	sh      *assetShared // set by New: what it shares with other mechanisms on the asset (nil otherwise)
}

// newBRR validates the parameters and builds the mechanism; see NewBRR.
func newBRR(index *hamming.Index, eps float64) (*brrMech, error) {
	if err := checkEpsilonRange(eps, hammingFloor()); err != nil {
		return nil, fmt.Errorf("brr: %w", err)
	}
	if index == nil || index.Len() == 0 {
		return nil, fmt.Errorf("brr: %w", ErrEmptyVocabulary)
	}
	q := 1 / (1 + math.Exp(eps))
	return &brrMech{
		index:  index,
		out:    index,
		eps:    eps,
		thresh: sample.BernoulliThreshold(q),
		// The nearest word is at most as far as the input word, which is
		// 256q away on average: a hint that lets the planner pick the scan
		// for these far queries. Results never depend on it.
		radius: max(1, int(math.Round(hamming.Bits*q))),
		ties:   hamming.TiesRandom,
	}, nil
}

// Privatize returns BRR's output for word w.
func (b *brrMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall(NameBRR, w, b.index.Len(), src); err != nil {
		return -1, err
	}
	q := b.index.Codes()[w]
	for i := range q {
		q[i] ^= sample.Mask64(src, b.thresh)
	}
	// The nearest allowed word: exact search over the allowed codes only,
	// ties uniform among the allowed minimizers.
	nb, err := b.out.Nearest(q, hamming.Options{Ties: b.ties, Rand: src, ExpectedRadius: b.radius})
	if err != nil {
		return -1, fmt.Errorf("brr: nearest word: %w", err)
	}
	return int(nb.ID), nil
}

// PrivatizeBatch is Batcher's: the words in runs of hamming.MaxBatch,
// each run's noisy codes drawn in word order (the same draws as
// Privatize's noise), then searched in one pass, whose tie-breaking draws
// follow in word order. The nearest word is exact and uniform among the
// minimizers either way, so each release has Privatize's law.
func (b *brrMech) PrivatizeBatch(ws []int32, src rand.Source) error {
	var qs [hamming.MaxBatch]hamming.Code
	var res [hamming.MaxBatch]hamming.Neighbor
	codes, n := b.index.Codes(), b.index.Len()
	opt := hamming.Options{Ties: b.ties, Rand: src, ExpectedRadius: b.radius}
	for done := 0; done < len(ws); {
		run := ws[done:min(len(ws), done+hamming.MaxBatch)]
		for i, w := range run {
			if err := checkCall(NameBRR, int(w), n, src); err != nil {
				failRest(ws[done:])
				return err
			}
			q := codes[w]
			for k := range q {
				q[k] ^= sample.Mask64(src, b.thresh)
			}
			qs[i] = q
		}
		got, err := b.out.NearestBatch(res[:0], qs[:len(run)], opt)
		if err != nil {
			failRest(ws[done:])
			return fmt.Errorf("brr: nearest word: %w", err)
		}
		for i := range run {
			run[i] = got[i].ID
		}
		done += len(run)
	}
	return nil
}

// failRest marks words not released: -1, never the input word.
func failRest(ws []int32) {
	for i := range ws {
		ws[i] = -1
	}
}

// restrict returns BRR with the same index, ε and tie rule over outputs o.
func (b *brrMech) restrict(o *Outputs) (Mechanism, error) {
	r := *b
	var out *hamming.Index
	var err error
	if b.sh.isDefault(o) {
		out, err = b.sh.outputIndexOf(b.index, o)
	} else {
		out, err = outputIndex(b.index, o)
	}
	if err != nil {
		return nil, fmt.Errorf("brr: %w", err)
	}
	r.out, r.outputs = out, o
	return &r, nil
}

// Epsilon returns the per-bit ε.
func (b *brrMech) Epsilon() float64 { return b.eps }

// Metric returns "hamming".
func (b *brrMech) Metric() string { return "hamming" }

// Len returns the vocabulary size.
func (b *brrMech) Len() int { return b.index.Len() }

// FlipProbability returns q = 1/(1+e^ε), the per-bit flip probability.
func (b *brrMech) FlipProbability() float64 { return 1 / (1 + math.Exp(b.eps)) }
