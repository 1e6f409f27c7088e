package mechanism

import (
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// The exported constructors: each returns its mechanism as a Mechanism
// (which also implements Facts); the types stay unexported so that the
// only way to use a mechanism is through the guarantee-bearing interface.

// NewBRR returns BRR over the codes of index with per-bit ε.
//
// BRR is binary randomized response (the BRR paper's Algorithms 2 and 3;
// docs/MECHANISMS.md, "BRR"). Each of the 256 bits of the input word's code is flipped
// independently with probability q = 1/(1+e^ε), and the output is a
// nearest word to the noisy code over ALL of W (input included), ties
// broken uniformly at random; Restrict narrows the search to an output
// vocabulary's allowed words.
//
// Metric: Hamming distance between codes. Guarantee: ε·Hamming(w, w')
// metric-DP (ε is per bit): randomized response is ε-DP per bit, so the
// noisy code is ε·Hamming-metric-DP, and the nearest-word step is
// post-processing, which needs the exact search and the unbiased tie-break
// hamming.Index provides. Useful range on the default asset: roughly
// 0.3 ≤ ε ≤ 1 (Pr[output = input] goes from ~0 at ε = 0.2 to ~1 at ε = 1).
//
// Privatize does not allocate when the index scans, which it does for the
// far queries BRR makes.
func NewBRR(index *hamming.Index, eps float64) (Mechanism, error) {
	return asMechanism(newBRR(index, eps))
}

// NewTEM returns TEM over lists with parameter ε and γ from opts.
//
// TEM is the truncated exponential mechanism of the TEM paper
// (docs/REFERENCES.md; definition in docs/MECHANISMS.md, "TEM") on the
// asset's precomputed Euclidean neighbour balls.
//
// Metric: the ceil-quantized Euclidean distance d'(w,i) = q·⌈d(w,i)/q⌉
// (q = the lists' Step), which is a metric (see wva.TEMLists).
// Guarantee: ε·d'-metric-DP, hence ε·(d + q)-metric-DP for the Euclidean
// distance d.
//
// L_w is the exact γ-ball {i : d'(w,i) ≤ γ}, read from the lists; γ comes
// from the paper's Theorem 4.2 or is given, and must not exceed the lists'
// γ_max: NewTEM fails (wrapping wva.ErrGammaMax) rather than use a smaller
// stored ball, which would not be the exact ball the proof needs. The
// paper scores each member i with −d'(w,i) and a ⊥ element with
// −γ + (2/ε)·ln(N − |L_w|) (only when N − |L_w| > 0), adds Gumbel(0, 2/ε)
// noise to every score and releases the argmax, a uniformly random word of
// W \ L_w if ⊥ wins. By the Gumbel-max property that argmax has the law
//
//	Pr[i] ∝ exp(−ε·d'(w,i)/2) for i ∈ L_w,  Pr[⊥] ∝ (N − |L_w|)·exp(−ε·γ/2),
//
// and Privatize samples this law directly, with no Gumbel variates: first
// ⊥ against the whole ball, decided in log space so that a tiny
// probability is never rounded to zero; then the ball's runs of equal
// quantized distance, nearest first, each taken with probability count/R
// (its weight against itself and every farther run, never below 1/|L_w|,
// so a 64-bit threshold decides it); then a uniform member of the run. ⊥
// releases a uniform word outside the ball by rejection.
//
// Privatize reuses per-goroutine buffers from a sync.Pool, so it does not
// allocate in steady state.
func NewTEM(lists *wva.TEMLists, eps float64, opts TEMOptions) (Mechanism, error) {
	return asMechanism(newTEM(lists, eps, opts))
}

// NewTEMHamming returns TEM over the codes of index with ε per bit and γ
// (in bits) from opts.
//
// TEMHamming is TEM (docs/MECHANISMS.md, "TEM") with the Hamming distance between 256-bit
// codes, sampled exactly in its distance-histogram form:
//
//	Pr[i] ∝ exp(−ε·d(w,i)/2) for d(w,i) ≤ γ,  Pr[⊥] ∝ (N−|L_w|)·exp(−ε·γ/2),
//
// which is the law of the Gumbel-argmax form. L_w = {i : d(w,i) ≤ γ}. A
// distance bucket is drawn from at most 257 weights (see drawBucket), then
// a uniform word in it; ⊥ releases a uniform word of W \ L_w.
//
// Two exact ways find the buckets, with the same law. When the planner may
// answer a radius-γ range query with multi-index hashing (small γ, large
// vocabulary), the ball is listed with hamming.Index.Range and ⊥ is drawn
// by rejection on the distance. Otherwise (at the default asset's presets
// Theorem 4.2's γ is below 256 bits but far past where hashing pays:
// docs/PRIVACY_LEVELS.md lists γ per level) one scan counts the words at
// each distance (hamming.Histogram), and the chosen word, the j-th in id
// order of its bucket (or of W \ L_w for ⊥) with j uniform, is found by
// rescanning one chunk of the vocabulary: no neighbour list is built.
//
// Metric: Hamming distance. Guarantee: ε·Hamming(w,w')-metric-DP (ε per
// bit, comparable with BRR's ε).
//
// Privatize reuses per-goroutine buffers from a sync.Pool, so it does not
// allocate in steady state.
func NewTEMHamming(index *hamming.Index, eps float64, opts TEMOptions) (Mechanism, error) {
	return asMechanism(newTEMHamming(index, eps, opts))
}

// NewDiffractorGeometric returns 1-DG over lists (not copied; treat as
// read-only) with parameter ε per list position.
//
// DiffractorGeometric is 1-DG, 1-Diffractor with geometric noise
// (the 1-Diffractor paper's §3; docs/MECHANISMS.md, "1-Diffractor"). On a list π it releases
// the word at position clamp(π(w) + G, 0, N−1), with Pr[G = k] ∝ e^(−ε|k|);
// clamping is post-processing. With several lists it picks one uniformly
// at random with fresh randomness and runs on it, which has the same law as
// running on every list and releasing one result chosen uniformly.
//
// Metric: d_π(w,w') = |π(w) − π(w')|, and with several lists
// max_i d_πi(w,w'). Guarantee: ε·max_i d_πi(w,w')-metric-DP (each list's
// mechanism is ε·d_πi-DP, and a uniform mixture of them is ε·max_i d_πi-DP).
// Privatize does not allocate.
func NewDiffractorGeometric(lists []wva.Permutation, eps float64) (Mechanism, error) {
	return asMechanism(newDG(lists, eps))
}

// NewDiffractorTEM returns 1-DT over lists (not copied; treat as read-only).
//
// DiffractorTEM is 1-DT: TEM (docs/MECHANISMS.md, "TEM") with the list-position metric
// d_π(w,w') = |π(w) − π(w')|, γ in positions from Theorem 4.2 or given.
// It samples TEM's exact form: Pr[position p'] ∝ exp(−ε|p'−π(w)|/2) for
// |p' − π(w)| ≤ γ, Pr[⊥] ∝ (N − |L_w|)·exp(−εγ/2), ⊥ releasing a uniform
// position outside the ball. Several lists: as DiffractorGeometric.
//
// Metric: max_i d_πi(w,w'). Guarantee: ε·max_i d_πi(w,w')-metric-DP.
// Privatize does not allocate.
func NewDiffractorTEM(lists []wva.Permutation, eps float64, opts TEMOptions) (Mechanism, error) {
	return asMechanism(newDT(lists, eps, opts))
}

// asMechanism returns m as a Mechanism, or a nil interface on error (never
// a typed nil pointer, which would compare non-nil).
func asMechanism[M Mechanism](m M, err error) (Mechanism, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}
