package mechanism

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/bits-and-blooms/bitset"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/wva"
)

// ErrNoOutputs: an output vocabulary must allow at least one word.
var ErrNoOutputs = errors.New("the output vocabulary allows no word")

// Outputs is an output vocabulary A ⊆ W: the word ids a mechanism may
// release (for example every word but an exclusion list of offensive
// words). The input may be any word of W, allowed or not.
//
// Restricting outputs keeps every guarantee, with the same ε and metric,
// because what is removed never depends on the input:
//
//   - BRR releases the nearest ALLOWED word to its noisy code (exact
//     search over the allowed codes, ties uniform among the allowed
//     minimizers), and 1-DG the nearest allowed position, in the chosen
//     list, to its clamped noisy position (ties to the lower position).
//     Both are post-processing of the private noisy code or position.
//   - The TEM family (TEM, TEM on Hamming codes, 1-DT) runs the
//     exponential mechanism over A with utility −min(d(w,y), γ):
//     Pr[y] ∝ exp(−ε·d(w,y)/2) for y ∈ A ∩ L_w, and ⊥ with weight
//     |A \ L_w|·exp(−ε·γ/2) releasing a uniform word of A \ L_w. The
//     utility has sensitivity d over any output set, so the guarantee is
//     the same. The restricted law is sampled directly, in time bounded
//     independently of ε, even when the input itself is excluded.
//
// Re-drawing the unrestricted mechanism until its output is allowed is
// NOT equivalent for BRR and 1-DG: conditioning on the output being
// allowed divides by Pr[A | w], which depends on w, and can double the
// privacy loss. (For the TEM family it happens to give the same law, but
// its running time explodes when the input is excluded and ε is large.)
//
// An out-of-vocabulary token becomes a uniform allowed word. An Outputs is
// immutable and safe for concurrent use.
//
// nil has two readings, kept apart: where an *Outputs says which words a
// mechanism may release (Options.Outputs, Facts.Outputs, DefaultOutputs),
// nil means "no restriction: every word"; the methods of a nil *Outputs,
// however, answer as for an empty set (Allowed false, Len and Vocabulary
// 0, Uniform −1, IDs nil). Code holding a possibly nil *Outputs as a
// restriction therefore tests for nil before asking Allowed, as the
// samplers and the text privatizer do.
type Outputs struct {
	n       int
	allowed *bitset.BitSet
	ids     []int32 // the allowed ids, ascending
	fp      string  // fingerprint: see NewOutputs
}

// NewOutputs returns the output vocabulary of n words minus excluded
// (ids outside [0, n) are an error; duplicates are harmless).
func NewOutputs(n int, excluded []int) (*Outputs, error) {
	if n <= 0 {
		return nil, fmt.Errorf("mechanism: output vocabulary: %w", ErrEmptyVocabulary)
	}
	allowed := bitset.New(uint(n))
	allowed.FlipRange(0, uint(n))
	for _, id := range excluded {
		if id < 0 || id >= n {
			return nil, errwrap.Tag(ErrWordOutOfRange, "mechanism: output vocabulary: excluded word id %d not in [0, %d)", id, n)
		}
		allowed.Clear(uint(id))
	}
	c := int(allowed.Count())
	if c == 0 {
		return nil, errwrap.Tag(ErrNoOutputs, "mechanism: the exclusion list excludes all %d words: nothing is left to release", n)
	}
	ids := make([]int32, 0, c)
	for i, ok := allowed.NextSet(0); ok; i, ok = allowed.NextSet(i + 1) {
		ids = append(ids, int32(i))
	}
	// The fingerprint names the allowed set in a mechanism's Params, so a
	// memo of responses is never reused under another output vocabulary:
	// the first 16 hex digits of SHA-256 over the excluded ids, ascending,
	// as 4-byte little-endian integers (the vocabulary itself is named by
	// the asset's hash).
	h := sha256.New()
	var b [4]byte
	for i, ok := allowed.NextClear(0); ok && i < uint(n); i, ok = allowed.NextClear(i + 1) {
		binary.LittleEndian.PutUint32(b[:], uint32(i))
		h.Write(b[:])
	}
	fp := fmt.Sprintf("%x", h.Sum(nil)[:8])
	return &Outputs{n: n, allowed: allowed, ids: ids, fp: fp}, nil
}

// Vocabulary is the size of the vocabulary the outputs are drawn from (0
// for nil).
func (o *Outputs) Vocabulary() int {
	if o == nil {
		return 0
	}
	return o.n
}

// Len is the number of allowed words (0 for nil).
func (o *Outputs) Len() int {
	if o == nil {
		return 0
	}
	return len(o.ids)
}

// Allowed reports whether word id may be released (never for nil or the
// zero Outputs, which allow nothing).
func (o *Outputs) Allowed(id int) bool {
	return o != nil && id >= 0 && id < o.n && o.allowed.Test(uint(id))
}

// Mask is Allowed for every word id in [0, n) as a slice, for the code
// that indexes it in a loop (the research module's attacks and bounds);
// nil for nil Outputs, which restrict nothing.
func (o *Outputs) Mask(n int) []bool {
	if o == nil {
		return nil
	}
	mask := make([]bool, n)
	for w := range mask {
		mask[w] = o.Allowed(w)
	}
	return mask
}

// Uniform returns an allowed word drawn uniformly with src, or -1 when
// there is none to draw (nil or zero Outputs) or src is nil.
func (o *Outputs) Uniform(src rand.Source) int {
	if o.Len() == 0 || src == nil {
		return -1
	}
	return int(o.ids[sample.UniformInt(src, len(o.ids))])
}

// IDs returns the allowed ids in ascending order (not a copy: read only;
// nil for nil).
func (o *Outputs) IDs() []int32 {
	if o == nil {
		return nil
	}
	return o.ids
}

// rank is the number of allowed ids below id.
func (o *Outputs) rank(id int) int {
	r, _ := slices.BinarySearch(o.ids, int32(id))
	return r
}

// DefaultOutputs is the output vocabulary an asset asks for by default:
// every word but its exclusion list (wva.Header.Excluded), or nil when it
// has none. The mobile facade and the CLI restrict their mechanisms to it
// unless told otherwise; evaluations that follow a paper's protocol do not.
//
// It is built once per asset and the same *Outputs returned on every call,
// so that the mechanisms New restricts to it share what they derive from it
// (see assetShared).
func DefaultOutputs(a *wva.Asset) (*Outputs, error) {
	if a == nil {
		return nil, fmt.Errorf("mechanism: output vocabulary: %w", ErrEmptyVocabulary)
	}
	return sharedOf(a).defaultOutputs(a)
}

// buildDefaultOutputs builds DefaultOutputs of a (not nil).
func buildDefaultOutputs(a *wva.Asset) (*Outputs, error) {
	x := a.Header.Excluded
	if x == nil || len(x.IDs) == 0 {
		return nil, nil
	}
	ids := make([]int, len(x.IDs))
	for i, id := range x.IDs {
		ids[i] = int(id)
	}
	return NewOutputs(a.Len(), ids)
}
