package hamming

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

func randomCodes(r *rand.Rand, n int) []Code {
	out := make([]Code, n)
	for i := range out {
		out[i] = Code{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
	}
	return out
}

// flip returns c with n distinct random bits flipped.
func flip(r *rand.Rand, c Code, n int) Code {
	m := Code{}
	for m.onesCount() < n {
		m = m.SetBit(r.IntN(Bits), true)
	}
	return c.xor(m)
}

// clusteredCodes imitates word codes: clusters around random centres, each
// member a few to a few dozen bits away, with some exact duplicates, so that
// ties and dense MIH buckets are common.
func clusteredCodes(r *rand.Rand, n int) []Code {
	centres := randomCodes(r, max(1, n/50))
	out := make([]Code, n)
	for i := range out {
		c := centres[r.IntN(len(centres))]
		switch r.IntN(10) {
		case 0:
			out[i] = c // duplicate of a centre
		default:
			out[i] = flip(r, c, r.IntN(40))
		}
	}
	return out
}

// bruteKNN is the reference: every code with distance <= the k-th smallest.
func bruteKNN(codes []Code, q Code, k int, excl *bitset.BitSet) []Neighbor {
	all := bruteRange(codes, q, Bits, excl)
	sortNeighbors(all)
	if len(all) <= k {
		return all
	}
	kth := all[k-1].Dist
	end := k
	for end < len(all) && all[end].Dist == kth {
		end++
	}
	return all[:end]
}

func bruteRange(codes []Code, q Code, r int, excl *bitset.BitSet) []Neighbor {
	var out []Neighbor
	for i, c := range codes {
		if excl != nil && excl.Test(uint(i)) {
			continue
		}
		if d := Distance(q, c); d <= r {
			out = append(out, Neighbor{ID: int32(i), Dist: int32(d)})
		}
	}
	return out
}

// checkRandomTies verifies a TiesRandom result against the TiesAll reference:
// exactly min(k, |ref|) results, everything strictly below the k-th distance
// present, the rest drawn from the codes at the k-th distance, no repeats.
func checkRandomTies(t *testing.T, got, ref []Neighbor, k int) {
	t.Helper()
	want := min(k, len(ref))
	if len(got) != want {
		t.Fatalf("TiesRandom returned %d results, want %d", len(got), want)
	}
	if want == 0 {
		return
	}
	kth := ref[want-1].Dist
	inRef := map[Neighbor]bool{}
	for _, n := range ref {
		inRef[n] = true
	}
	seen := map[int32]bool{}
	below := 0
	for _, n := range got {
		if !inRef[n] || n.Dist > kth || seen[n.ID] {
			t.Fatalf("TiesRandom result %v not a valid choice (k-th distance %d)", n, kth)
		}
		seen[n.ID] = true
		if n.Dist < kth {
			below++
		}
	}
	wantBelow := 0
	for _, n := range ref {
		if n.Dist < kth {
			wantBelow++
		}
	}
	if below != wantBelow {
		t.Fatalf("TiesRandom kept %d codes below the k-th distance, want all %d", below, wantBelow)
	}
}

func sortedCopy(ns []Neighbor) []Neighbor {
	c := slices.Clone(ns)
	sortNeighbors(c)
	return c
}
