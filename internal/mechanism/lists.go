package mechanism

import (
	"fmt"

	"github.com/wordveil/wordveil/internal/wva"
)

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

// listsMean is P_avg of the list-position metric over lists
// (wva.ListsMeanDistance, which an asset also stores).
func listsMean(lists []wva.Permutation) float64 { return wva.ListsMeanDistance(lists) }

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
