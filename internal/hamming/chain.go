package hamming

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/sample"
)

// ErrBadStart is returned by Chain for a start index outside the codes.
var ErrBadStart = errors.New("hamming: chain start out of range")

// Chain returns the greedy nearest-neighbour chain that 1-Diffractor's lists
// are made of: a permutation of 0..len(codes)-1 that begins at start and
// repeatedly appends the nearest code not yet in it. Every step is exact (it
// equals a brute-force search over the codes not yet placed) and ties are
// broken uniformly at random from rng, so the chain is a permutation by
// construction: no duplicates, nothing missing.
//
// It costs N²/2 distance computations (about 0.6 s for 50k codes with the
// AVX-512 kernel). progress, if not nil, is called with the number of codes
// placed about every 1024 steps.
func Chain(codes []Code, start int, rng rand.Source, progress func(done int)) ([]int32, error) {
	n := len(codes)
	if n > maxCodes {
		return nil, ErrTooLarge
	}
	if start < 0 || start >= n {
		return nil, fmt.Errorf("%w: %d not in [0, %d)", ErrBadStart, start, n)
	}
	if rng == nil {
		return nil, ErrNoRand
	}
	// The unplaced codes are kept compacted (swap-remove) with their ids
	// alongside, so each step is one kernel pass with no exclusion test.
	rem := make([]Code, n)
	copy(rem, codes)
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	out := make([]int32, 0, n)
	take := func(p int) Code {
		c := rem[p]
		out = append(out, ids[p])
		last := len(rem) - 1
		rem[p], ids[p] = rem[last], ids[last]
		rem, ids = rem[:last], ids[:last]
		return c
	}
	cur := take(start)
	var buf [blockSize]uint16
	for len(rem) > 0 {
		best, seen, pick := noDistance, 0, -1
		for base := 0; base < len(rem); base += blockSize {
			blk := rem[base:min(base+blockSize, len(rem))]
			m := distBlock(&cur, blk, buf[:])
			if m > best {
				continue
			}
			if m < best {
				best, seen = m, 0
			}
			for i, d := range buf[:len(blk)] {
				if int(d) == best {
					seen++
					if seen == 1 || sample.UniformInt(rng, seen) == 0 {
						pick = base + i
					}
				}
			}
		}
		cur = take(pick)
		if progress != nil && len(out)%1024 == 0 {
			progress(len(out))
		}
	}
	if progress != nil {
		progress(len(out))
	}
	return out, nil
}
