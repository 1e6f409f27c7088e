package mechanism

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

// refListOutputs is the plain form listOutputs replaced: every allowed
// position of the list, ascending.
type refListOutputs struct{ allowed []int }

func (r refListOutputs) rankBelow(p int) int {
	i, _ := slices.BinarySearch(r.allowed, p)
	return i
}

func (r refListOutputs) nearest(p int) int {
	i, found := slices.BinarySearch(r.allowed, p)
	switch {
	case found:
		return p
	case i == 0:
		return r.allowed[0]
	case i == len(r.allowed):
		return r.allowed[i-1]
	}
	if below, above := r.allowed[i-1], r.allowed[i]; p-below <= above-p {
		return below
	} else {
		return above
	}
}

// TestListOutputsMatchesAllowedPositions checks the complement form
// (excluded positions only) against the allowed positions themselves on
// every position and rank, for exclusion sets from one word to all but
// one, including runs at both ends of a list.
func TestListOutputsMatchesAllowedPositions(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	const n = 60
	order := make([]uint32, n)
	for i, p := range r.Perm(n) {
		order[i] = uint32(p)
	}
	perm, err := wva.NewPermutation(order)
	if err != nil {
		t.Fatal(err)
	}
	runs := func(ids ...[2]int) []int { // word ids at positions [a, b) of the list
		var out []int
		for _, ab := range ids {
			for p := ab[0]; p < ab[1]; p++ {
				out = append(out, int(order[p]))
			}
		}
		return out
	}
	cases := map[string][]int{
		"one word":          {int(order[17])},
		"first position":    runs([2]int{0, 1}),
		"last position":     runs([2]int{n - 1, n}),
		"run at the start":  runs([2]int{0, 9}),
		"run at the end":    runs([2]int{n - 7, n}),
		"runs inside":       runs([2]int{3, 6}, [2]int{10, 11}, [2]int{30, 45}),
		"all but the first": runs([2]int{1, n}),
		"all but the last":  runs([2]int{0, n - 1}),
		"all but one":       runs([2]int{0, 33}, [2]int{34, n}),
	}
	for i := range 20 {
		k := 1 + r.IntN(n-1)
		cases["random "+string(rune('a'+i))] = r.Perm(n)[:k]
	}
	for name, ex := range cases {
		o, err := NewOutputs(n, ex)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lo := newListOutputs([]wva.Permutation{perm}, o)
		var ref refListOutputs
		for p, id := range order {
			if o.Allowed(int(id)) {
				ref.allowed = append(ref.allowed, p)
			}
		}
		if got := lo.size(n); got != len(ref.allowed) {
			t.Fatalf("%s: size %d, want %d", name, got, len(ref.allowed))
		}
		for p := range n {
			if got, want := lo.rankBelow(0, p), ref.rankBelow(p); got != want {
				t.Fatalf("%s: rankBelow(%d) = %d, want %d", name, p, got, want)
			}
			if got, want := lo.nearest(0, p), ref.nearest(p); got != want {
				t.Fatalf("%s: nearest(%d) = %d, want %d", name, p, got, want)
			}
			if got, want := lo.allowedAt(0, p), slices.Contains(ref.allowed, p); got != want {
				t.Fatalf("%s: allowedAt(%d) = %v, want %v", name, p, got, want)
			}
		}
		for k, want := range ref.allowed {
			if got := lo.position(0, k); got != want {
				t.Fatalf("%s: position(%d) = %d, want %d", name, k, got, want)
			}
		}
	}
}
