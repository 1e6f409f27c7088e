package pipeline

import (
	"math"
	"slices"
	"sort"
)

// grants is grantFn's accumulator: a user's refs that can still be
// granted, sorted by (Source, Line), and how many refs it has seen.
type grants struct {
	Refs    []ref
	Records int
	Sorted  int // Refs[:Sorted] are sorted and pruned; the rest were added since
}

// grantFn combines a user's refs into what the greedy (Source, Line)
// rule of decideFn can still grant, so that a runner can combine them
// where they are read and a user's record count does not bound what one
// worker holds. It drops refs the greedy rule withholds whatever the
// rest of the input and whatever the user's earlier spending (and
// withholding a ref changes no other decision, since it adds nothing to
// the sum). The rule rests on one fact: charges are never negative, so
// the sum only grows, and a ref r of charge c is withheld once one
// earlier ref of charge at most c is (that one found the sum above
// cap − its charge ≥ cap − c) or once the earlier refs of charge at
// most c, all granted, sum to more than cap − c. So r is dropped when
//
//   - c is over the cap;
//   - an earlier ref of charge at most c was dropped in the same prune
//     (it is withheld, by induction);
//   - the kept earlier refs of charge at most c sum to more than
//     cap − c (either one of them is withheld, or all are granted and
//     the sum is over).
//
// A part's pruning is right for the whole: the refs that justified it
// are in the whole too, and other parts' refs, wherever they fall, only
// add to the sum. So decideFn, run on what is left, releases exactly
// the set it would release from every ref. The sums are float64, which
// can round low; a ref is dropped only when the computed sum is over
// by a margin (capSlack) larger than any rounding of the sums a prune
// adds (at most maxSummed terms; beyond that the sum rule is not
// applied). What is kept of each distinct charge c ≤ cap sums to at
// most the cap (within capSlack), so it is at most ⌊cap/c⌋+1 refs; in
// practice far fewer are kept in all: for records of 5 to 15 words
// under a 200-word cap, about 100 refs, however many records the user
// has (a rule counting only refs of the same charge kept 260). The
// records with no charge (empty texts) or an unknown one are kept as
// they are; without a cap nothing is dropped.
type grantFn struct {
	CapLoss float64 // 0: no cap
}

// capSlack is the relative margin by which the kept refs' float64 sum
// must exceed the cap before the sum rule drops a ref: far above the
// rounding of a sum of maxSummed terms (maxSummed·2⁻⁵³ ≈ 1.2e-10).
const capSlack = 1e-9

// maxSummed is the most kept refs whose sum the rule trusts.
const maxSummed = 1 << 20

func (fn *grantFn) CreateAccumulator() grants { return grants{} }

// AddInput adds in, some of a user's refs as readFn batches them (in.Refs,
// in.Records of them: readFn prunes nothing).
func (fn *grantFn) AddInput(a grants, in grants) grants {
	a.Refs = append(a.Refs, in.Refs...)
	a.Records += in.Records
	// With a cap, prune once the unsorted tail is a quarter of the
	// pruned part (and at least pruneMin refs): a runner that lifts the
	// combine sends the accumulator as it stands, so it should be
	// little more than what pruning keeps, and each prune's sort is
	// still paid for by the refs added since the last. Without a cap
	// nothing is dropped, and ExtractOutput sorts once.
	if n := len(a.Refs) - a.Sorted; fn.CapLoss > 0 && n >= pruneMin && 4*n >= a.Sorted {
		a = fn.prune(a)
	}
	return a
}

// pruneMin is the fewest new refs AddInput prunes for.
const pruneMin = 16

func (fn *grantFn) MergeAccumulators(a, b grants) grants {
	a.Refs = append(a.Refs, b.Refs...)
	a.Records += b.Records
	return fn.prune(a)
}

func (fn *grantFn) ExtractOutput(a grants) grants { return fn.prune(a) }

// prune sorts the refs by (Source, Line) and drops those that can no
// longer be granted (see grantFn).
func (fn *grantFn) prune(a grants) grants {
	sort.SliceStable(a.Refs, func(i, j int) bool {
		if a.Refs[i].Source != a.Refs[j].Source {
			return a.Refs[i].Source < a.Refs[j].Source
		}
		return a.Refs[i].Line < a.Refs[j].Line
	})
	// Refs decoded from a shuffle each hold their own copy of the path:
	// the sorted refs of one file share one.
	for i := 1; i < len(a.Refs); i++ {
		if a.Refs[i].Source == a.Refs[i-1].Source {
			a.Refs[i].Source = a.Refs[i-1].Source
		}
	}
	if fn.CapLoss > 0 {
		a.Refs = fn.drop(a.Refs)
	}
	a.Sorted = len(a.Refs)
	return a
}

// charged reports whether c is a charge the rule reasons about: positive
// (0 adds nothing; NaN, unknown, comes only without a cap; a negative
// one fails the run in decideFn's tally, so it is kept for it to see).
func charged(c float64) bool { return c > 0 && !math.IsNaN(c) }

// drop removes from refs, sorted, the refs the greedy rule withholds
// whatever else is charged (see grantFn), in place.
func (fn *grantFn) drop(refs []ref) []ref {
	// While all of them fit under the cap none is dropped (keeping a
	// ref is always right): a cap far from reached costs one pass.
	total := 0.0
	for i := range refs {
		if c := refs[i].Cost; charged(c) {
			total += c
		}
	}
	if total <= fn.CapLoss {
		return refs
	}
	// The distinct charges, ranked, for a Fenwick tree of the kept refs'
	// charges and counts by rank: the sum and count of the kept refs of
	// charge at most c in O(log) each.
	var levels []float64
	for i := range refs {
		if c := refs[i].Cost; charged(c) && c <= fn.CapLoss {
			levels = append(levels, c)
		}
	}
	slices.Sort(levels)
	levels = slices.Compact(levels)
	sums := make([]float64, len(levels)+1)
	counts := make([]int, len(levels)+1)
	over := fn.CapLoss * (1 + capSlack)
	minDropped := math.Inf(1) // the least charge dropped so far
	kept := refs[:0]
	for _, r := range refs {
		c := r.Cost
		if charged(c) {
			if c > fn.CapLoss || c >= minDropped {
				minDropped = min(minDropped, c)
				continue
			}
			k, _ := slices.BinarySearch(levels, c)
			sum, n := 0.0, 0
			for i := k + 1; i > 0; i -= i & -i {
				sum += sums[i]
				n += counts[i]
			}
			if n <= maxSummed && sum+c > over {
				minDropped = c // c < minDropped here
				continue
			}
			for i := k + 1; i < len(sums); i += i & -i {
				sums[i] += c
				counts[i]++
			}
		}
		kept = append(kept, r)
	}
	clear(refs[len(kept):])
	return kept
}
