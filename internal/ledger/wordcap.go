package ledger

import (
	"math"

	"github.com/wordveil/wordveil/internal/errwrap"
)

// MaxCapWords bounds a cap given in words (WordCap): 2^40 (about 1.1·10^12
// words), far below where float rounding could move the boundary of a word
// cap (see WordCap) and far above what anyone types.
const MaxCapWords = 1 << 40

// WordCap converts a cap of words fresh words, each costing cost in
// unit-free loss, to the cap in unit-free loss a Ledger or a Tally
// enforces: (words + ½)·cost. words == 0 is no cap and returns 0. It fails
// with an error wrapping ErrInvalid when words is negative or above
// MaxCapWords, when cost is NaN (unknown: the mechanism's P_avg is not
// known on the device) or not a positive normal float64, or when the cap
// is not finite: a cap is never silently dropped.
//
// cost must be computed as the text privatizer computes a call's charge
// (internal/privatize: float64(fresh)·ε·P_avg) for one word, so that a
// call of k fresh words is charged fl(fl(k·ε)·P_avg).
//
// Why exactly N = words fresh words are granted and word N+1 is refused,
// for every N ≤ MaxCapWords and every cost. Let u = 2^-53 (the unit
// roundoff) and c = ε·P_avg exactly. A call with k fresh words at the
// cost's ε is charged x = fl(fl(k·ε)·P_avg) = k·c·(1+δ), |δ| ≤ 2u + u²
// (two roundings; k is an integer, exact in a float64; the zero terms of
// other word classes add nothing). A Ledger or Tally compares the EXACT
// sum of its charges with the cap (exactSum), so after calls totalling n
// words the spent amount S satisfies |S − n·c| ≤ (2u+u²)·n·c: the
// rounding errors do not accumulate beyond each charge's own. The cap is
// C = fl((N+½)·fl(ε·P_avg)) (N+½ is exact below 2^52), so
// |C − (N+½)·c| ≤ (2u+u²)·(N+½)·c. Hence, with γ = 2u+u² < 2.0001u:
//
//	n = N:   S ≤ N·c·(1+γ) ≤ (N+½)·c·(1−γ) ≤ C  ⇐  γ·(2N+½) ≤ ½;
//	n = N+1: S ≥ (N+1)·c·(1−γ) > (N+½)·c·(1+γ) ≥ C  ⇐  γ·(2N+3/2) < ½.
//
// Both hold while 4γ·(N+1) < 1, that is for N + 1 < about 2^50;
// MaxCapWords = 2^40 leaves a factor 1000 of margin. Without the ½
// (C = N·c) the boundary would sit exactly on the N-th word's charge, and
// a rounding either way would refuse word N or grant word N+1 (the tests
// of this package and of package core show it).
// The argument needs every float involved to be normal (relative error
// bounds fail for subnormals), hence the check on the cost.
//
// A word of a class at ε_c costs about ε_c/ε of a word at the cost's ε:
// the cap then admits ⌊(N+½)·ε/ε_c⌋ such words when they are all in that
// class (up to rounding at an exact tie, which the ½ keeps away for the
// cost's own ε only).
func WordCap(words int, cost float64) (float64, error) {
	switch {
	case words < 0 || int64(words) > MaxCapWords: // int64: 2^40 overflows a 32-bit int
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap of %d words is out of range [0, 2^40] (0: no cap)", words)
	case words == 0:
		return 0, nil
	case math.IsNaN(cost):
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap in words needs the cost of a word, and it is unknown (NaN)")
	case !(cost >= 0x1p-1022) || math.IsInf(cost, 0):
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap in words: the cost of a word, %v, is not a positive normal number", cost)
	}
	v := (float64(words) + 0.5) * cost
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errwrap.Tag(ErrInvalid, "ledger: a cap of %d words at %v each is not a finite loss", words, cost)
	}
	return v, nil
}
