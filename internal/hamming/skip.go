package hamming

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// A skip set is the ids an Index made by [Index.Without] never returns,
// kept as a sorted list of distinct ids (4 bytes per skipped code) with
// where Nearest's blocks end (blockEnds: 4 bytes per 256 searched
// codes), so a restriction that leaves out 214 words of 50,000 costs
// 1.6 KB and no copy of the codes. The scans compute every distance with the unchanged kernels and
// then give each skipped code the distance skippedDist, which no search
// admits.

// skippedDist is the distance a scan gives a skipped code: above every
// distance (≤ Bits), noDistance and every radius a scan compares it with
// (scan.Range caps its radius at Bits first).
const skippedDist = math.MaxUint16

// Errors of Without.
var (
	ErrSkipRange = errors.New("hamming: skipped id outside the index")
	ErrNoIndex   = errors.New("hamming: no index (nil or zero Index)")
)

// normalizeSkip returns the distinct ids of a and b, ascending, in a new
// slice (nil when both are empty), or ErrSkipRange if one is outside
// [0, n).
func normalizeSkip(a, b []int32, n int) ([]int32, error) {
	if len(a)+len(b) == 0 {
		return nil, nil
	}
	out := make([]int32, 0, len(a)+len(b))
	out = append(append(out, a...), b...)
	slices.Sort(out)
	out = slices.Compact(out)
	if out[0] < 0 || int(out[len(out)-1]) >= n {
		bad := out[0]
		if bad >= 0 {
			bad = out[len(out)-1]
		}
		return nil, fmt.Errorf("%w: id %d not in [0, %d)", ErrSkipRange, bad, n)
	}
	return slices.Clip(out), nil
}

// skipFrom returns skip without its ids below base (skip ascending).
// Called once per block of an ascending walk, it costs O(1) amortized per
// skipped id.
func skipFrom(skip []int32, base int) []int32 {
	for len(skip) > 0 && int(skip[0]) < base {
		skip = skip[1:]
	}
	return skip
}

// maskSkipped gives every skipped id in [base, base+len(ds)) the distance
// skippedDist in ds (ds[i] is the distance of id base+i; skip holds no id
// below base). It returns skip without those ids and the smallest
// distance it overwrote (noDistance if none), so that a caller holding the
// block's minimum knows whether it came from a skipped code.
func maskSkipped(ds []uint16, base int, skip []int32) (rest []int32, minMasked int) {
	end, m := base+len(ds), noDistance
	i := 0
	for ; i < len(skip) && int(skip[i]) < end; i++ {
		p := int(skip[i]) - base
		m = min(m, int(ds[p]))
		ds[p] = skippedDist
	}
	return skip[i:], m
}

// minDist returns the smallest of ds, noDistance if none is below it
// (skipped codes included).
func minDist(ds []uint16) int {
	m := noDistance
	for _, d := range ds {
		m = min(m, int(d))
	}
	return m
}

// isSkipped reports whether id is in skip (ascending).
func isSkipped(skip []int32, id uint32) bool {
	if len(skip) == 0 {
		return false
	}
	_, found := slices.BinarySearch(skip, int32(id))
	return found
}

// skipRank returns how many ids below id are not skipped.
func skipRank(skip []int32, id int) int {
	i, _ := slices.BinarySearch(skip, int32(min(id, math.MaxInt32)))
	return id - i
}

// skipSelect returns the j-th id (from 0, ascending) that is not skipped.
// skip[i]−i counts the unskipped ids below skip[i] and never decreases, so
// the skipped ids below the answer are those with skip[i]−i ≤ j.
func skipSelect(skip []int32, j int) int {
	return j + sort.Search(len(skip), func(i int) bool { return int(skip[i])-i > j })
}

// blockEnds returns where each of Nearest's blocks ends for n codes of
// which skip (ascending) are skipped, nil when none is: block g holds the
// searched codes g·blockSize to (g+1)·blockSize−1 in id order, as the
// g-th block of a scan over a copy of them, and the skipped ids among
// them; the last block runs to n (a block holds at least one code, and
// every skipped id lies in a block). 4 bytes per blockSize searched codes.
func blockEnds(skip []int32, n int) []int32 {
	if len(skip) == 0 {
		return nil
	}
	g := max(1, (n-len(skip)+blockSize-1)/blockSize)
	ends := make([]int32, g)
	for i := range g - 1 {
		ends[i] = int32(skipSelect(skip, (i+1)*blockSize-1) + 1)
	}
	ends[g-1] = int32(n)
	return ends
}
