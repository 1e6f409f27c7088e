package core

import (
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/binaryembed/wva"
	"github.com/wordveil/wordveil/hamming"
)

// BuildLists builds count 1-Diffractor lists on the device: each is the
// exact greedy nearest-not-visited chain over codes (hamming.Chain, Hamming
// distance, ties broken uniformly at random) from a start word drawn
// uniformly with src. Each list costs about N²/2 distance computations.
// Use a source from NewSecureSource unless the lists must be reproducible.
func BuildLists(codes []hamming.Code, count int, src rand.Source) ([]wva.Permutation, error) {
	if len(codes) == 0 {
		return nil, fmt.Errorf("BuildLists: %w", ErrEmptyVocabulary)
	}
	if count < 1 || count > wva.MaxLists {
		return nil, fmt.Errorf("BuildLists: %w: count %d not in [1, %d]", ErrNoLists, count, wva.MaxLists)
	}
	if src == nil {
		return nil, fmt.Errorf("BuildLists: %w", ErrNilSource)
	}
	lists := make([]wva.Permutation, count)
	for k := range lists {
		start := UniformInt(src, len(codes))
		chain, err := hamming.Chain(codes, start, src, nil)
		if err != nil {
			return nil, fmt.Errorf("BuildLists: list %d: %w", k, err)
		}
		order := make([]uint32, len(chain))
		for i, id := range chain {
			order[i] = uint32(id)
		}
		// NewPermutation re-checks that the chain is an exact permutation:
		// a duplicated or missing word would break the list metric.
		if lists[k], err = wva.NewPermutation(order); err != nil {
			return nil, fmt.Errorf("BuildLists: list %d: %w", k, err)
		}
	}
	return lists, nil
}

// checkLists verifies that lists are exact permutations of one vocabulary
// and returns its size.
func checkLists(name string, lists []wva.Permutation) (int, error) {
	if len(lists) == 0 {
		return 0, fmt.Errorf("%s: %w", name, ErrNoLists)
	}
	n := len(lists[0].Order)
	if n == 0 {
		return 0, fmt.Errorf("%s: %w", name, ErrEmptyVocabulary)
	}
	for k, l := range lists {
		if len(l.Order) != n || len(l.Pos) != n {
			return 0, fmt.Errorf("%s: %w: list %d has %d/%d entries, want %d", name, ErrListMismatch, k, len(l.Order), len(l.Pos), n)
		}
		// Order[Pos[w]] == w for every w makes Pos injective, hence both
		// are bijections: the list metric is then a metric.
		for w, p := range l.Pos {
			if int(p) >= n || int(l.Order[p]) != w {
				return 0, fmt.Errorf("%s: %w: list %d is not a permutation (word %d)", name, wva.ErrInvalid, k, w)
			}
		}
	}
	return n, nil
}

func listMetric(lists []wva.Permutation) string {
	if len(lists) == 1 {
		return "list-position"
	}
	return fmt.Sprintf("max-list-position(%d lists)", len(lists))
}

func clampPos(p, n int) int {
	return min(max(p, 0), n-1)
}
