package mechanism

import (
	"slices"

	"github.com/wordveil/wordveil/internal/wva"
)

// listOutputs is an output vocabulary seen through 1-Diffractor lists:
// for each list, the positions holding allowed words and those holding
// excluded words, ascending. A nil *listOutputs allows every position, and
// its methods then answer as if every position were allowed.
type listOutputs struct {
	o        *Outputs
	allowed  [][]int32 // allowed[l]: positions of list l whose word is in A
	excluded [][]int32 // excluded[l]: the other positions
}

// newListOutputs returns o through lists, or nil for nil o.
func newListOutputs(lists []wva.Permutation, o *Outputs) *listOutputs {
	if o == nil {
		return nil
	}
	lo := &listOutputs{o: o, allowed: make([][]int32, len(lists)), excluded: make([][]int32, len(lists))}
	for k, l := range lists {
		al := make([]int32, 0, o.Len())
		ex := make([]int32, 0, len(l.Order)-o.Len())
		for p, id := range l.Order {
			if o.Allowed(int(id)) {
				al = append(al, int32(p))
			} else {
				ex = append(ex, int32(p))
			}
		}
		lo.allowed[k], lo.excluded[k] = al, ex
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
	r, _ := slices.BinarySearch(lo.allowed[l], int32(p))
	return r
}

// position is the allowed position of rank k (from 0) in list l.
func (lo *listOutputs) position(l, k int) int {
	if lo == nil {
		return k
	}
	return int(lo.allowed[l][k])
}

// allowedAt reports whether position p of list l holds an allowed word.
func (lo *listOutputs) allowedAt(l, p int) bool {
	if lo == nil {
		return true
	}
	_, found := slices.BinarySearch(lo.allowed[l], int32(p))
	return found
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
	al := lo.allowed[l]
	i, found := slices.BinarySearch(al, int32(p))
	switch {
	case found:
		return p
	case i == 0: // A is never empty: al[0] exists
		return int(al[0])
	case i == len(al):
		return int(al[i-1])
	}
	below, above := int(al[i-1]), int(al[i])
	if p-below <= above-p {
		return below
	}
	return above
}
