package pipeline

import (
	"math"
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
// worker holds. It drops two kinds of ref, both ones the greedy rule
// withholds whatever the rest of the input (and withholding a ref
// changes no other decision, since it adds nothing to the sum): a ref
// whose charge c is over the cap, and a ref preceded by ⌊cap/c⌋+1 kept
// refs of the same charge c (if one of those was withheld, the sum
// already exceeded cap − c and only grows; if all were granted, they sum
// to more than cap − c). A part's pruning is right for the whole: the
// refs that justified it are in the whole too. So decideFn, run on what
// is left, releases exactly the set it would release from every ref.
// What is kept is at most Σ_c (⌊cap/c⌋+1) refs over the distinct charges
// c ≤ cap, plus the records with no charge (empty texts) or an unknown
// one, which are kept as they are; without a cap nothing is dropped.
type grantFn struct {
	CapLoss float64 // 0: no cap
}

func (fn *grantFn) CreateAccumulator() grants { return grants{} }

// AddInput adds in, some of a user's refs as readFn batches them (in.Refs,
// in.Records of them: readFn prunes nothing).
func (fn *grantFn) AddInput(a grants, in grants) grants {
	a.Refs = append(a.Refs, in.Refs...)
	a.Records += in.Records
	// Amortized: prune once the unsorted tail is half the pruned part, so
	// that an accumulator holds at most 1.5 times what pruning keeps (and
	// each prune's sort is paid for by the refs added since the last).
	if n := len(a.Refs) - a.Sorted; n > 64 && 2*n > a.Sorted {
		a = fn.prune(a)
	}
	return a
}

func (fn *grantFn) MergeAccumulators(a, b grants) grants {
	a.Refs = append(a.Refs, b.Refs...)
	a.Records += b.Records
	return fn.prune(a)
}

func (fn *grantFn) ExtractOutput(a grants) grants { return fn.prune(a) }

// prune sorts the refs by (Source, Line) and drops those that can no
// longer be granted.
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
		kept := a.Refs[:0]
		same := map[float64]float64{} // kept refs per charge
		for _, r := range a.Refs {
			c := r.Cost
			if c > 0 && !math.IsNaN(c) {
				// One more than ⌊cap/c⌋, so that float64 division can
				// only keep too many, never too few.
				if c > fn.CapLoss || same[c] >= math.Floor(fn.CapLoss/c)+1 {
					continue
				}
				same[c]++
			}
			kept = append(kept, r)
		}
		clear(a.Refs[len(kept):])
		a.Refs = kept
	}
	a.Sorted = len(a.Refs)
	return a
}
