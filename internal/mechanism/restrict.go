package mechanism

import (
	"errors"
	"fmt"

	"github.com/wordveil/wordveil/internal/errwrap"
	"github.com/wordveil/wordveil/internal/hamming"
)

// ErrOutputsMismatch: an output vocabulary was built for a vocabulary of
// another size than the mechanism's.
var ErrOutputsMismatch = errors.New("output vocabulary size differs from the mechanism's vocabulary")

// restrictable is implemented by every mechanism of this package: restrict
// returns a mechanism with the same parameters whose outputs are o (nil:
// every word). o has already been checked against the vocabulary size.
type restrictable interface {
	restrict(o *Outputs) (Mechanism, error)
}

// Restrict returns a mechanism with m's parameters (ε, γ, lists, codes)
// that releases only words of o, with the same ε·d guarantee (see Outputs
// for each mechanism's restricted law). A nil o lifts any restriction. m
// is not modified. m must have been built by this package (else the error
// wraps ErrUnknownMechanism) and o must cover its vocabulary: o.Vocabulary()
// = m.Len() (else ErrOutputsMismatch).
//
// New applies Options.Outputs through Restrict; callers that build
// mechanisms with the other constructors call it directly.
func Restrict(m Mechanism, o *Outputs) (Mechanism, error) {
	r, ok := m.(restrictable)
	if !ok || m == nil {
		return nil, fmt.Errorf("mechanism: %w: %T is not a mechanism of this package", ErrUnknownMechanism, m)
	}
	if o != nil && o.Vocabulary() != m.Len() {
		return nil, errwrap.Tag(ErrOutputsMismatch, "%s: the output vocabulary covers %d words, the mechanism %d", nameOf(m), o.Vocabulary(), m.Len())
	}
	return r.restrict(o)
}

// nameOf is m's name for an error message.
func nameOf(m Mechanism) string {
	if f, ok := m.(Facts); ok {
		return f.Name()
	}
	return "mechanism"
}

// withOutputs appends the fingerprint of o to a mechanism's Params
// (nothing for nil, so unrestricted Params are unchanged).
func withOutputs(params string, o *Outputs) string {
	if o == nil {
		return params
	}
	return params + " outputs=" + o.fp
}

// outputIndex returns the index searched for outputs: x itself for nil o,
// else x without the words o excludes (hamming.Index.Without: no copy of
// the codes, only the excluded ids; its ids are word ids). Searching it is
// exact over A, and gives what an index over a copy of A's codes gave,
// draw for draw.
func outputIndex(x *hamming.Index, o *Outputs) (*hamming.Index, error) {
	if o == nil {
		return x, nil
	}
	excluded := make([]int32, 0, o.n-o.Len())
	for i, ok := o.allowed.NextClear(0); ok && i < uint(o.n); i, ok = o.allowed.NextClear(i + 1) {
		excluded = append(excluded, int32(i))
	}
	return x.Without(excluded)
}
