package mechanism

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/keepwords"
	"github.com/wordveil/wordveil/internal/sample"
)

// SanText and SanText+ (Yue et al., Findings of ACL 2021; docs/MECHANISMS.md,
// "SanText and SanText+") over the 256-bit codes. SanText+ releases
// non-sensitive words unchanged, so it is reachable only through
// internal/keepwords (the audit and research), never through New or an
// exported constructor. Both sample with TEM
// (Hamming)'s sampler at γ = 256 bits, the largest Hamming distance: the
// ball is then the whole output vocabulary and there is no ⊥, which is
// exactly the untruncated exponential mechanism SanText is.

// NewSanText returns SanText over the codes of index with ε per bit.
//
// SanText releases y with probability
//
//	Pr[y | x] = exp(−ε·d(x,y)/2) / Σ_z exp(−ε·d(x,z)/2)
//
// over every word (or over the output vocabulary, see Restrict), d being
// the Hamming distance between codes (the paper uses the Euclidean
// distance between embeddings). It is TEM (Hamming) without truncation:
// the same sampler (one distance-histogram scan, then a bucket and a
// uniform word in it) at γ = 256 bits, where the ball is the whole
// vocabulary and ⊥ never occurs.
//
// Metric: Hamming distance. Guarantee: ε·Hamming(w,w')-metric-DP for
// every pair of words (ε per bit, comparable with TEM (Hamming)'s and
// BRR's ε). Privatize does not allocate in steady state.
func NewSanText(index *hamming.Index, eps float64) (Mechanism, error) {
	return asMechanism(newSanText(index, eps))
}

// newSanTextPlus builds SanText+ (keepwords.NewSanTextPlus): the ⌈w·N⌉
// highest ids (w = opts.Sensitive) are the sensitive set S, meant as the
// least frequent words (the paper's choice). Asset ids are not purely in
// frequency order: the default asset's builder appends the words it gave
// à la carte vectors (clitic pieces, chat forms, numbers, years) after the
// ranked vocabulary, so there its highest ids are frequent tokens
// (docs/MECHANISMS.md, "SanText and SanText+"). A sensitive input x is released as y ∈ S with SanText's law
// over S, Pr[y | x] ∝ exp(−ε·d(x,y)/2). A non-sensitive input is released
// unchanged with probability 1 − P and otherwise drawn the same way: the
// sampled output is always a sensitive word, never a non-sensitive one
// (the paper's and its code's choice). Restricted to an output vocabulary
// A, the draws are over S ∩ A (which must not be empty), and a
// non-sensitive input outside A is always drawn, never kept.
//
// Guarantee: ε·Hamming(x,x')-metric-DP for pairs of SENSITIVE words x, x'
// only. A non-sensitive word is released unchanged with probability
// 1 − P, which no input other than itself ever produces, so its loss
// against any other word is unbounded (for P < 1). Its Facts report the
// mean distance as unknown, so a text privatized with it is never charged
// a finite loss.
// santextGamma is the radius at which TEM (Hamming) is SanText: every
// pair of 256-bit codes is within it.
const santextGamma = hamming.Bits

// santextMech is the mechanism NewSanText documents: TEM (Hamming) at
// γ = 256, renamed. Only the identity (Name, Params, error context) is its
// own; sampling, MeanDistance, Outputs and Gamma are TEM (Hamming)'s.
type santextMech struct {
	*temHammingMech
}

func newSanText(index *hamming.Index, eps float64) (*santextMech, error) {
	if err := checkEpsilonRange(eps, hammingFloor()); err != nil {
		return nil, fmt.Errorf("santext: %w", err)
	}
	if index == nil || index.Len() == 0 {
		return nil, fmt.Errorf("santext: %w", ErrEmptyVocabulary)
	}
	t, err := newTEMHamming(index, eps, TEMOptions{Gamma: santextGamma})
	if err != nil {
		return nil, err
	}
	return &santextMech{t}, nil
}

// Privatize returns SanText's output for word w.
func (s *santextMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall(NameSanText, w, s.Len(), src); err != nil {
		return -1, err
	}
	return s.temHammingMech.Privatize(w, src)
}

// restrict returns SanText with the same codes and ε over outputs o.
func (s *santextMech) restrict(o *Outputs) (Mechanism, error) {
	r, err := s.temHammingMech.restrict(o)
	if err != nil {
		return nil, err
	}
	return &santextMech{r.(*temHammingMech)}, nil
}

// santextPlusMech is the mechanism newSanTextPlus documents.
type santextPlusMech struct {
	// sampler is SanText over S ∩ A (A = outputs, every word when nil).
	sampler *temHammingMech
	index   *hamming.Index
	outputs *Outputs
	opts    keepwords.SanTextPlusOptions
	first   int    // the sensitive words are first..N−1
	keep    uint64 // threshold of Bernoulli(1 − P)
}

func newSanTextPlus(index *hamming.Index, eps float64, opts keepwords.SanTextPlusOptions, o *Outputs) (*santextPlusMech, error) {
	if err := checkEpsilonRange(eps, hammingFloor()); err != nil {
		return nil, fmt.Errorf("santext+: %w", err)
	}
	if index == nil || index.Len() == 0 {
		return nil, fmt.Errorf("santext+: %w", ErrEmptyVocabulary)
	}
	if !(opts.Sensitive > 0 && opts.Sensitive < 1) {
		return nil, errwrap.Tag(keepwords.ErrInvalidSensitive, "santext+: sensitive share %v is not in (0, 1)", opts.Sensitive)
	}
	if !(opts.P >= 0 && opts.P <= 1) {
		return nil, errwrap.Tag(keepwords.ErrInvalidSampleProbability, "santext+: sampling probability %v is not in [0, 1]", opts.P)
	}
	n := index.Len()
	// ⌈w·N⌉ ≥ 1 since w > 0, and ≤ N since w < 1 (w·N is at most N
	// after rounding; the min guards it anyway).
	k := min(int(math.Ceil(opts.Sensitive*float64(n))), n)
	first := n - k
	// The sampled output is a sensitive word of A: exclude every
	// non-sensitive id and every id outside A.
	var excluded []int
	for id := range n {
		if id < first || (o != nil && !o.Allowed(id)) {
			excluded = append(excluded, id)
		}
	}
	sensOut, err := NewOutputs(n, excluded)
	if err != nil {
		return nil, fmt.Errorf("santext+: no sensitive word may be released: %w", err)
	}
	base, err := newTEMHamming(index, eps, TEMOptions{Gamma: santextGamma})
	if err != nil {
		return nil, err
	}
	r, err := base.restrict(sensOut)
	if err != nil {
		return nil, err
	}
	return &santextPlusMech{
		sampler: r.(*temHammingMech),
		index:   index,
		outputs: o,
		opts:    opts,
		first:   first,
		keep:    sample.BernoulliThreshold(1 - opts.P),
	}, nil
}

// Privatize returns SanText+'s output for word w: a non-sensitive w that
// may be released (in the output vocabulary) is kept with probability
// 1 − P; otherwise the output is SanText's draw over the sensitive words.
func (m *santextPlusMech) Privatize(w int, src rand.Source) (int, error) {
	if err := checkCall("SanText+", w, m.Len(), src); err != nil {
		return -1, err
	}
	if w < m.first && (m.outputs == nil || m.outputs.Allowed(w)) && sample.Bernoulli(src, m.keep) {
		return w, nil
	}
	return m.sampler.Privatize(w, src)
}

// restrict returns SanText+ with the same codes, ε and options over
// outputs o.
func (m *santextPlusMech) restrict(o *Outputs) (Mechanism, error) {
	return asMechanism(newSanTextPlus(m.index, m.sampler.eps, m.opts, o))
}

// Epsilon returns ε per bit (the guarantee covers sensitive pairs only).
func (m *santextPlusMech) Epsilon() float64 { return m.sampler.eps }

// Metric returns "hamming".
func (m *santextPlusMech) Metric() string { return "hamming" }

// Len returns the vocabulary size.
func (m *santextPlusMech) Len() int { return m.index.Len() }
