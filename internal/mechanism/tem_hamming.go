package mechanism

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/sample"
)

// temHammingMech is the mechanism NewTEMHamming documents.
type temHammingMech struct {
	index *hamming.Index
	// out holds the words the mechanism may release: index itself, or
	// index without the excluded words (outputIndex; its ids are word ids
	// either way). Every count, ball and ⊥ below is over out: the
	// exponential mechanism over A.
	out      *hamming.Index
	outputs  *Outputs
	eps      float64
	gamma    float64
	r        int  // ⌊γ⌋ capped at 256: d ≤ γ ⟺ d ≤ r for integer d
	useRange bool // list the ball with Index.Range rather than a histogram
	opts     TEMOptions
	pool     sync.Pool    // *temHammingScratch
	sh       *assetShared // set by New: what it shares with other mechanisms on the asset (nil otherwise)
}

type temHammingScratch struct {
	nbrs  []hamming.Neighbor
	hist  hamming.Histogram
	count [hamming.Bits + 1]int
	// r[d] is R_d of drawBucket, for d from the nearest non-empty bucket.
	r [hamming.Bits + 1]float64
}

// newTEMHamming validates the parameters and builds the mechanism; see NewTEMHamming.
func newTEMHamming(index *hamming.Index, eps float64, opts TEMOptions) (*temHammingMech, error) {
	if err := checkEpsilonRange(eps, hammingFloor()); err != nil {
		return nil, fmt.Errorf("tem-hamming: %w", err)
	}
	if index == nil || index.Len() == 0 {
		return nil, fmt.Errorf("tem-hamming: %w", ErrEmptyVocabulary)
	}
	gamma, err := opts.gammaFor(eps, index.Len())
	if err != nil {
		return nil, fmt.Errorf("tem-hamming: %w", err)
	}
	r := int(math.Min(math.Floor(gamma), hamming.Bits))
	t := &temHammingMech{
		index: index,
		out:   index,
		eps:   eps,
		gamma: gamma,
		r:     r,
		// Past this radius Range would scan every code and then list the
		// whole ball; the histogram scans once and lists nothing.
		useRange: index.RangeCanBeatScan(r),
		opts:     opts,
	}
	t.pool.New = func() any { return new(temHammingScratch) }
	return t, nil
}

// Privatize returns TEM's output for word w.
func (t *temHammingMech) Privatize(w int, src rand.Source) (int, error) {
	n := t.index.Len()
	if err := checkCall("TEM (Hamming)", w, n, src); err != nil {
		return -1, err
	}
	sc := t.pool.Get().(*temHammingScratch)
	defer t.pool.Put(sc)
	if t.useRange {
		return t.privatizeRange(sc, w, src)
	}
	return t.privatizeHistogram(sc, w, src)
}

// inputAllowed reports whether w may be released (then it must be in its
// own ball, at distance 0).
func (t *temHammingMech) inputAllowed(w int) bool {
	return t.outputs == nil || t.outputs.Allowed(w)
}

// privatizeRange lists the ball with Index.Range (MIH for small radii).
func (t *temHammingMech) privatizeRange(sc *temHammingScratch, w int, src rand.Source) (int, error) {
	nbrs, err := t.out.Range(sc.nbrs[:0], t.index.Codes()[w], t.r, hamming.Options{ExpectedRadius: max(t.r, 1)})
	sc.nbrs = nbrs
	if err != nil {
		return -1, fmt.Errorf("tem-hamming: range search: %w", err)
	}
	sc.count = [hamming.Bits + 1]int{}
	for _, nb := range nbrs {
		sc.count[nb.Dist]++
	}
	bucket, bottom, err := t.drawBucket(sc, len(nbrs), t.inputAllowed(w), src)
	if err != nil {
		return -1, err
	}
	if bottom {
		// ⊥: the j-th word of out outside the ball, j uniform. Walking
		// the ball in id order maps j past the ball's ranks (positions
		// among out's words): bounded time however much of out the ball
		// covers (no rejection loop).
		slices.SortFunc(nbrs, func(a, b hamming.Neighbor) int { return cmp.Compare(a.ID, b.ID) })
		j := sample.UniformInt(src, t.out.Len()-len(nbrs))
		for _, nb := range nbrs {
			if t.out.Rank(int(nb.ID)) > j {
				break
			}
			j++
		}
		return t.out.ID(j), nil
	}
	j := sample.UniformInt(src, sc.count[bucket])
	for _, nb := range nbrs {
		if int(nb.Dist) == bucket {
			if j == 0 {
				return int(nb.ID), nil
			}
			j--
		}
	}
	return -1, fmt.Errorf("tem-hamming: bucket %d miscounted", bucket)
}

// privatizeHistogram counts the words at each distance within the ball
// (and those beyond it, together) in one scan and selects the output by
// its rank in id order: uniform rank, uniform word. The draw needs no more
// of the distances than that: the buckets 0..r, and ⊥'s words beyond r as
// one set.
func (t *temHammingMech) privatizeHistogram(sc *temHammingScratch, w int, src rand.Source) (int, error) {
	h := t.out.HistogramWithin(&sc.hist, t.index.Codes()[w], t.r)
	ball := 0
	for d := 0; d <= t.r; d++ {
		sc.count[d] = h.Count(d)
		ball += sc.count[d]
	}
	bucket, bottom, err := t.drawBucket(sc, ball, t.inputAllowed(w), src)
	if err != nil {
		return -1, err
	}
	lo, hi, size := bucket, bucket, sc.count[bucket]
	if bottom {
		lo, hi, size = t.r+1, hamming.Bits, t.out.Len()-ball
	}
	i, err := h.Select(lo, hi, sample.UniformInt(src, size))
	if err != nil {
		// Only if the codes changed under the index: fail closed.
		return -1, fmt.Errorf("tem-hamming: distances %d..%d miscounted", lo, hi)
	}
	return i, nil
}

// drawBucket draws the output's distance bucket from sc.count[0..r] (the
// number of releasable words at each distance, ball words in all), or ⊥.
// inputAllowed says the input is releasable, hence counted at distance 0.
//
// The draw is a chain of Bernoulli decisions: first ⊥ against the ball
// (its probability computed in log space, so it never underflows), then,
// distance by distance from the nearest non-empty one, "this bucket"
// against "a farther one". That decision at d has probability
// count[d]/R_d, where R_d = Σ_{j ≥ d} count[j]·e^(−ε(j−d)/2) is built
// from the farthest bucket inward by R_d = count[d] + e^(−ε/2)·R_{d+1}.
// For a non-empty d, 1 ≤ R_d ≤ N, so the ratio lies in [1/N, 1]: it is
// neither zero nor subnormal, and is represented to a few ulps (a term too
// small to change R_d in float64 could not change the ratio either). The
// decisions are drawn with bernoulliP, exact however small. Only the
// buckets the chain reaches cost a division and a draw; the work is
// bounded by the 257 buckets whatever ε and whichever words are excluded.
func (t *temHammingMech) drawBucket(sc *temHammingScratch, ball int, inputAllowed bool, src rand.Source) (bucket int, bottom bool, err error) {
	if inputAllowed && sc.count[0] == 0 {
		// Unreachable: w is at distance 0 from itself. Fail rather than
		// release anything from a wrong ball.
		return 0, false, errors.New("tem-hamming: word missing from its own ball")
	}
	outside := t.out.Len() - ball
	first := -1 // the nearest non-empty bucket
	for d := 0; d <= t.r; d++ {
		if sc.count[d] > 0 {
			first = d
			break
		}
	}
	if first < 0 {
		// No releasable word in the ball (an excluded input with excluded
		// neighbours): ⊥ is certain, and out is never empty.
		if outside <= 0 {
			return 0, false, errors.New("tem-hamming: no releasable word")
		}
		return 0, true, nil
	}
	half := t.eps / 2
	f := math.Exp(-half)
	next := 0.0
	for d := t.r; d >= first; d-- {
		next = float64(sc.count[d]) + f*next
		sc.r[d] = next
	}
	// ⊥ against the ball: ball mass e^(−ε·first/2)·R_first, ⊥ mass
	// (|A|−|A ∩ L_w|)·e^(−εγ/2).
	if outside > 0 {
		x := math.Log(sc.r[first]) - half*float64(first) + half*t.gamma - math.Log(float64(outside))
		if sample.BernoulliLog(src, -sample.Softplus(x)) {
			return 0, true, nil
		}
	}
	for d := first; d <= t.r; d++ {
		if sc.count[d] == 0 {
			continue
		}
		bucket = d
		// Pr[d | not nearer] = count[d]/R_d; the last bucket takes the
		// rest (its ratio is 1).
		if bernoulliP(src, float64(sc.count[d])/sc.r[d]) {
			break
		}
	}
	return bucket, false, nil
}

// bernoulliP returns true with probability p (0 < p ≤ 1), with the law of
// sample.BernoulliLog(src, ln p): one draw against p's threshold when
// p ≥ 2^-16 (BernoulliLog's own one-draw case, without the logarithm and
// exponential), BernoulliLog itself below.
func bernoulliP(src rand.Source, p float64) bool {
	if p >= 0x1p-16 {
		return sample.Bernoulli(src, sample.BernoulliThreshold(p))
	}
	return sample.BernoulliLog(src, math.Log(p))
}

// restrict returns TEM (Hamming) with the same index, ε and γ options
// over outputs o.
func (t *temHammingMech) restrict(o *Outputs) (Mechanism, error) {
	r, err := newTEMHamming(t.index, t.eps, t.opts)
	if err != nil {
		return nil, err
	}
	r.sh = t.sh
	if t.sh.isDefault(o) {
		r.out, err = t.sh.outputIndexOf(t.index, o)
	} else {
		r.out, err = outputIndex(t.index, o)
	}
	if err != nil {
		return nil, fmt.Errorf("tem-hamming: %w", err)
	}
	r.outputs = o
	r.useRange = r.out.RangeCanBeatScan(r.r)
	return r, nil
}

// Epsilon returns the per-bit ε.
func (t *temHammingMech) Epsilon() float64 { return t.eps }

// Gamma returns γ in bits.
func (t *temHammingMech) Gamma() float64 { return t.gamma }

// Metric returns "hamming".
func (t *temHammingMech) Metric() string { return "hamming" }

// Len returns the vocabulary size.
func (t *temHammingMech) Len() int { return t.index.Len() }
