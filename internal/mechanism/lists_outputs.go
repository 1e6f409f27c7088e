package mechanism

import (
	"slices"
	"sort"

	"github.com/wordveil/wordveil/internal/wva"
)

// listOutputs is an output vocabulary seen through 1-Diffractor lists:
// for each list, the positions holding excluded words, ascending. Only
// those are stored (an exclusion list is a few hundred words, so this is
// a few KiB where the allowed positions took 4 bytes a word); the allowed
// positions are their complement, ranked by binary search. A nil
// *listOutputs allows every position, and its methods then answer as if
// every position were allowed.
type listOutputs struct {
	o        *Outputs
	n        int       // positions per list
	excluded [][]int32 // excluded[l]: positions of list l whose word is not in A
}

// newListOutputs returns o through lists, or nil for nil o.
func newListOutputs(lists []wva.Permutation, o *Outputs) *listOutputs {
	if o == nil {
		return nil
	}
	lo := &listOutputs{o: o, excluded: make([][]int32, len(lists))}
	for k, l := range lists {
		lo.n = len(l.Order)
		ex := make([]int32, 0, len(l.Order)-o.Len())
		for p, id := range l.Order {
			if !o.Allowed(int(id)) {
				ex = append(ex, int32(p))
			}
		}
		lo.excluded[k] = ex
	}
	return lo
}

// outputs returns the output vocabulary (nil: every word).
func (lo *listOutputs) outputs() *Outputs {
	if lo == nil {
		return nil
	}
	return lo.o
}

// size is |A| for a vocabulary of n words.
func (lo *listOutputs) size(n int) int {
	if lo == nil {
		return n
	}
	return lo.o.Len()
}

// rankBelow is the number of allowed positions of list l below p.
func (lo *listOutputs) rankBelow(l, p int) int {
	if lo == nil {
		return p
	}
	j, _ := slices.BinarySearch(lo.excluded[l], int32(p))
	return p - j
}

// position is the allowed position of rank k (from 0) in list l: k plus
// the number j of excluded positions before it, where j is the first
// excluded index whose position has more than k allowed positions below
// it (ex[j] − j > k; ex[j] − j never decreases, so it is found by binary
// search).
func (lo *listOutputs) position(l, k int) int {
	if lo == nil {
		return k
	}
	ex := lo.excluded[l]
	return k + sort.Search(len(ex), func(j int) bool { return int(ex[j])-j > k })
}

// allowedAt reports whether position p of list l holds an allowed word.
func (lo *listOutputs) allowedAt(l, p int) bool {
	if lo == nil {
		return true
	}
	_, found := slices.BinarySearch(lo.excluded[l], int32(p))
	return !found
}

// excludedIn returns the excluded positions of list l in [a, b] (not a
// copy: read only).
func (lo *listOutputs) excludedIn(l, a, b int) []int32 {
	if lo == nil {
		return nil
	}
	ex := lo.excluded[l]
	i, _ := slices.BinarySearch(ex, int32(a))
	j, _ := slices.BinarySearch(ex, int32(b+1))
	return ex[i:j]
}

// nearest returns the allowed position of list l nearest to p; of two at
// the same distance (one each side), the lower. The rule looks at p only,
// never at the input word, so it is post-processing. It is p itself when p
// is allowed.
func (lo *listOutputs) nearest(l, p int) int {
	if lo == nil {
		return p
	}
	ex := lo.excluded[l]
	i, found := slices.BinarySearch(ex, int32(p))
	if !found {
		return p
	}
	// p lies in a run of consecutive excluded positions ex[a..b]
	// (ex[b] − ex[a] = b − a); the allowed neighbours are just outside it.
	// Both ends are found by binary search, since ex[i] − ex[j] − (i − j)
	// is 0 inside the run and grows away from it.
	a := sort.Search(i, func(j int) bool { return int(ex[i])-int(ex[j]) == i-j })
	b := i + sort.Search(len(ex)-i, func(d int) bool { return int(ex[i+d])-int(ex[i]) != d }) - 1
	below, above := int(ex[a])-1, int(ex[b])+1
	switch {
	case below < 0: // A is never empty: above is in the list
		return above
	case above >= lo.n:
		return below
	case p-below <= above-p:
		return below
	}
	return above
}
