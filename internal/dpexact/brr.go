package dpexact

import (
	"fmt"
	"math"
	"math/bits"
)

// MaxBRRBits is the largest code length BRR accepts: the law enumerates
// 2^L flip masks per word.
const MaxBRRBits = 20

// BRR is the exact law of binary randomized response on codes that use
// only their low L bits (the other bits of the mechanism's 256-bit codes
// zero): each bit flips independently with probability q = 1/(1+e^ε), and
// the output is a nearest code to the noisy one over all words, ties
// broken uniformly. Every flip mask m of the L bits is enumerated, with
// weight q^|m|·(1−q)^(L−|m|). Flips of the other 256−L bits add the same
// count to the distance from the noisy code to every word, so they change
// neither the minimizers nor the ties: enumerating L bits is exact for
// the 256-bit mechanism.
//
// It fails if codes is empty, L is outside [1, MaxBRRBits], a code has
// bits at or above L, or ε is not finite and positive.
func BRR(codes []uint64, L int, eps float64) ([][]float64, error) {
	return brr(codes, L, eps, nil, false)
}

// BRRLowestIndexTies is BRR with the published code's tie-break, the
// lowest index among the nearest codes, instead of a uniform one. It is
// still ε·Hamming metric-DP (a deterministic tie-break is
// post-processing) but biased towards low ids: a negative control for
// tests that compare a sampler with BRR's law.
func BRRLowestIndexTies(codes []uint64, L int, eps float64) ([][]float64, error) {
	return brr(codes, L, eps, nil, true)
}

// brr is BRR whose nearest-code search runs over the allowed words only
// (every word for nil allowed), ties uniform among the allowed minimizers
// or, with lowestIndex, the lowest of them.
func brr(codes []uint64, L int, eps float64, allowed []bool, lowestIndex bool) ([][]float64, error) {
	if len(codes) == 0 {
		return nil, fmt.Errorf("%w: BRR needs at least one code", ErrInvalid)
	}
	if L < 1 || L > MaxBRRBits {
		return nil, fmt.Errorf("%w: BRR code length %d outside [1, %d]", ErrInvalid, L, MaxBRRBits)
	}
	for i, c := range codes {
		if c>>L != 0 {
			return nil, fmt.Errorf("%w: BRR code %d has bits at or above %d", ErrInvalid, i, L)
		}
	}
	if err := checkEps(eps); err != nil {
		return nil, err
	}
	if err := checkAllowed(allowed, len(codes)); err != nil {
		return nil, err
	}
	n := len(codes)
	q := 1 / (1 + math.Exp(eps))
	P := newMatrix(n)
	arg := make([]int, 0, n)
	for w := range n {
		for mask := uint64(0); mask < 1<<L; mask++ {
			k := bits.OnesCount64(mask)
			pm := math.Pow(q, float64(k)) * math.Pow(1-q, float64(L-k))
			noisy := codes[w] ^ mask
			best := math.MaxInt
			arg = arg[:0]
			for y, c := range codes {
				if allowed != nil && !allowed[y] {
					continue
				}
				d := bits.OnesCount64(noisy ^ c)
				if d < best {
					best, arg = d, arg[:0]
				}
				if d == best {
					arg = append(arg, y)
				}
			}
			if lowestIndex {
				P[w][arg[0]] += pm
				continue
			}
			for _, y := range arg {
				P[w][y] += pm / float64(len(arg))
			}
		}
	}
	return P, nil
}
