// Package keepwords reaches the two mechanisms WordVeil implements but
// does not offer: SanText+ and CusText+, which release some words
// UNCHANGED by construction (SanText+ its non-sensitive words with
// probability 1 − p, CusText+ every stop word, and its stop-word list
// holds content words such as "bill", "fire" and "system"). A kept word's
// privacy loss against any other word is unbounded, so no front door of
// the product builds them: not package core's Open (so neither the
// CLI nor the mobile binding), nor mechanism.New, nor mechanism's exported
// constructors. They stay here for the audit
// (internal/audit, `wordveil audit`), which measures exactly that, and for
// research code, which must report a kept word's loss as unbounded, never
// as ε.
//
// The constructors are set by package mechanism when it is initialized
// (the implementations share its samplers); a program that reaches them
// imports package mechanism too, and gets ErrUnavailable otherwise.
package keepwords

import (
	"errors"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
)

// Names of the two mechanisms, as the audit reports them.
const (
	NameSanTextPlus = "santext+"
	NameCusTextPlus = "custext+"
)

// Mechanism has mechanism.Mechanism's methods (package mechanism imports
// this one, so it cannot name that type); a value converts to it freely.
type Mechanism interface {
	Privatize(w int, src rand.Source) (int, error)
	Epsilon() float64
	Metric() string
	Len() int
}

// SanTextPlusOptions are SanText+'s parameters. There are no defaults:
// the zero value is refused (Sensitive must be in (0, 1)).
type SanTextPlusOptions struct {
	// Sensitive is w, the fraction of the vocabulary treated as
	// sensitive: the ⌈w·N⌉ words with the highest ids, which are the
	// least frequent because asset ids are in frequency-rank order.
	Sensitive float64
	// P is the probability that a non-sensitive word is sanitized; with
	// probability 1 − P it is released unchanged. 0 and 1 are allowed.
	P float64
}

var (
	// ErrInvalidSensitive: SanText+'s sensitive fraction is not in (0, 1).
	ErrInvalidSensitive = errors.New("sensitive fraction must be in (0, 1)")
	// ErrInvalidSampleProbability: SanText+'s p is not in [0, 1].
	ErrInvalidSampleProbability = errors.New("probability of sanitizing a non-sensitive word must be in [0, 1]")
	// ErrUnavailable: package mechanism was not linked in.
	ErrUnavailable = errors.New("keepwords: package mechanism is not initialized (import it)")
)

// Set by package mechanism's init.
var (
	newSanTextPlus func(index *hamming.Index, eps float64, opts SanTextPlusOptions) (Mechanism, error)
	newCusTextPlus func(a *wva.Asset, eps float64) (Mechanism, error)
)

// Register is called once by package mechanism's init with its
// constructors; nothing else may call it.
func Register(santext func(*hamming.Index, float64, SanTextPlusOptions) (Mechanism, error), custext func(*wva.Asset, float64) (Mechanism, error)) {
	newSanTextPlus, newCusTextPlus = santext, custext
}

// NewSanTextPlus returns SanText+ over the codes of index with ε per bit
// and opts (docs/MECHANISMS.md, "SanText and SanText+"): a sensitive
// input (one of the ⌈w·N⌉ highest ids) is released with SanText's law
// over the sensitive words; a non-sensitive one is released UNCHANGED
// with probability 1 − P, else drawn the same way. Guarantee:
// ε·Hamming-metric-DP between sensitive words only; a kept word's loss is
// unbounded. Its Facts report the mean distance as unknown.
func NewSanTextPlus(index *hamming.Index, eps float64, opts SanTextPlusOptions) (Mechanism, error) {
	if newSanTextPlus == nil {
		return nil, ErrUnavailable
	}
	return newSanTextPlus(index, eps, opts)
}

// NewCusTextPlus returns CusText+ over asset a (its codes and CusText
// sets) with ε (docs/MECHANISMS.md, "CusText and CusText+"): CusText,
// except that a stop word (IsStopWord) is released UNCHANGED. Guarantee:
// ε-DP among the non-stop words of one set; a stop word's loss is
// unbounded.
func NewCusTextPlus(a *wva.Asset, eps float64) (Mechanism, error) {
	if newCusTextPlus == nil {
		return nil, ErrUnavailable
	}
	return newCusTextPlus(a, eps)
}
