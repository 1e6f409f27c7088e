package mechanism

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/bits-and-blooms/bitset"

	"github.com/wordveil/wordveil/internal/sample"
)

// ErrNoOutputs: an output vocabulary must allow at least one word.
var ErrNoOutputs = errors.New("the output vocabulary allows no word")

// Outputs is an output vocabulary: the word ids a mechanism may release
// (for example every word but an exclusion list of offensive words).
//
// Restricting outputs keeps every guarantee because it never looks at the
// input: BRR releases the nearest allowed word to its noisy code and 1-DG
// the nearest allowed list position to its noisy position (post-processing
// of the private step); the TEM family runs the exponential mechanism over
// the allowed words only (its utility −min(d, γ) has sensitivity d over any
// output set); an out-of-vocabulary token becomes a uniform allowed word.
// The input may be any vocabulary word, allowed or not.
//
// An Outputs is immutable and safe for concurrent use.
type Outputs struct {
	n       int
	allowed *bitset.BitSet
	ids     []int32 // the allowed ids, ascending
}

// NewOutputs returns the output vocabulary of n words minus excluded
// (ids outside [0, n) are an error; duplicates are harmless).
func NewOutputs(n int, excluded []int) (*Outputs, error) {
	if n <= 0 {
		return nil, fmt.Errorf("outputs: %w", ErrEmptyVocabulary)
	}
	allowed := bitset.New(uint(n))
	allowed.FlipRange(0, uint(n))
	for _, id := range excluded {
		if id < 0 || id >= n {
			return nil, fmt.Errorf("outputs: %w: excluded id %d not in [0, %d)", ErrWordOutOfRange, id, n)
		}
		allowed.Clear(uint(id))
	}
	c := int(allowed.Count())
	if c == 0 {
		return nil, fmt.Errorf("outputs: %w", ErrNoOutputs)
	}
	ids := make([]int32, 0, c)
	for i, ok := allowed.NextSet(0); ok; i, ok = allowed.NextSet(i + 1) {
		ids = append(ids, int32(i))
	}
	return &Outputs{n: n, allowed: allowed, ids: ids}, nil
}

// Vocabulary is the size of the vocabulary the outputs are drawn from.
func (o *Outputs) Vocabulary() int { return o.n }

// Len is the number of allowed words.
func (o *Outputs) Len() int { return len(o.ids) }

// Allowed reports whether word id may be released.
func (o *Outputs) Allowed(id int) bool {
	return id >= 0 && id < o.n && o.allowed.Test(uint(id))
}

// Uniform returns an allowed word drawn uniformly with src.
func (o *Outputs) Uniform(src rand.Source) int {
	return int(o.ids[sample.UniformInt(src, len(o.ids))])
}

// IDs returns the allowed ids in ascending order (not a copy: read only).
func (o *Outputs) IDs() []int32 { return o.ids }
