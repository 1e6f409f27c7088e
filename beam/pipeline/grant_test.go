package pipeline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// greedy is the rule of decideFn, written again: refs in (Source, Line)
// order, each granted if the sum so far plus its charge is within the
// cap. The test's charges are multiples of 1/4, so float64 sums are exact.
func greedy(refs []ref, capLoss, prior float64) []string {
	refs = slices.Clone(refs)
	slices.SortFunc(refs, func(a, b ref) int {
		if a.Source != b.Source {
			if a.Source < b.Source {
				return -1
			}
			return 1
		}
		return int(a.Line - b.Line)
	})
	var out []string
	sum := prior
	for _, r := range refs {
		if sum > capLoss {
			continue // the earlier spending alone is over the cap
		}
		if sum+r.Cost <= capLoss {
			sum += r.Cost
			out = append(out, fmt.Sprintf("%s:%d", r.Source, r.Line))
		}
	}
	return out
}

// TestGrantFnKeepsGreedy combines random refs split into random parts,
// in random orders, and checks that the greedy rule over what grantFn
// keeps grants exactly what it grants over every ref, that it counts
// every ref, and that it keeps no more than its bound.
func TestGrantFnKeepsGreedy(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 3))
	for _, tc := range []struct {
		name          string
		n, words      int
		capLoss, cost float64 // cost: the charge of one word
	}{
		{"tight cap, many records", 5000, 12, 10, 0.25},
		{"cap of a few records", 3000, 40, 20, 0.5},
		{"one word each", 2000, 1, 3, 1},
		{"no cap", 500, 8, 0, 0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for trial := 0; trial < 5; trial++ {
				fn := &grantFn{CapLoss: tc.capLoss}
				var all []ref
				for i := range tc.n {
					k := rng.IntN(tc.words + 1) // 0: an empty text
					all = append(all, ref{Source: fmt.Sprintf("f%d", rng.IntN(3)), Line: int64(i), Words: k, Cost: float64(k) * tc.cost})
				}
				parts := make([]grants, 1+rng.IntN(6))
				for i := range parts {
					parts[i] = fn.CreateAccumulator()
				}
				for _, i := range rng.Perm(len(all)) {
					p := rng.IntN(len(parts))
					parts[p] = fn.AddInput(parts[p], grants{Refs: []ref{all[i]}, Records: 1})
				}
				for len(parts) > 1 {
					i := rng.IntN(len(parts) - 1)
					parts[i] = fn.MergeAccumulators(parts[i], parts[i+1])
					parts = slices.Delete(parts, i+1, i+2)
				}
				g := fn.ExtractOutput(parts[0])
				if g.Records != len(all) {
					t.Fatalf("Records = %d, want %d", g.Records, len(all))
				}
				for _, prior := range []float64{0, tc.capLoss / 2, tc.capLoss + 1} {
					if got, want := greedy(g.Refs, tc.capLoss, prior), greedy(all, tc.capLoss, prior); !slices.Equal(got, want) && tc.capLoss > 0 {
						t.Fatalf("prior %v: grants from the kept refs %v, from all %v", prior, got, want)
					}
				}
				if tc.capLoss == 0 {
					if len(g.Refs) != len(all) {
						t.Fatalf("no cap: kept %d of %d", len(g.Refs), len(all))
					}
					continue
				}
				bound, empty := 0, 0
				for k := 1; k <= tc.words; k++ {
					if c := float64(k) * tc.cost; c <= tc.capLoss {
						bound += int(tc.capLoss/c) + 1
					}
				}
				for _, r := range all {
					if r.Cost == 0 {
						empty++
					}
				}
				if len(g.Refs) > bound+empty {
					t.Fatalf("kept %d refs, bound %d + %d empty", len(g.Refs), bound, empty)
				}
			}
		})
	}
}

// TestGrantFnKeepsOnlyGrantable checks the sum rule on what grantFn keeps
// of one user's records read in order (as readFn sends them, in small
// batches): no kept ref has kept earlier refs of charge at most its own
// summing to more than the cap less its charge, and a user with many
// records keeps about what the cap can grant, not all of them.
func TestGrantFnKeepsOnlyGrantable(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 4))
	for _, tc := range []struct {
		name       string
		n          int
		capLoss    float64
		maxKept    int // the most refs kept
		lifted     int // the most refs in the accumulator before ExtractOutput
		minW, maxW int
	}{
		{"few records", 15, 200, 15, 15, 5, 15},
		{"more than the cap grants", 116, 200, 75, 90, 5, 15},
		{"many records", 100000, 200, 120, 150, 5, 15},
		{"one word each", 1000, 20, 20, 41, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fn := &grantFn{CapLoss: tc.capLoss}
			a := fn.CreateAccumulator()
			for i := 0; i < tc.n; {
				var b grants
				for k := 1 + rng.IntN(3); k > 0 && i < tc.n; k-- {
					w := tc.minW + rng.IntN(tc.maxW-tc.minW+1)
					b.Refs = append(b.Refs, ref{Source: "f", Line: int64(i), Words: w, Cost: float64(w)})
					b.Records++
					i++
				}
				a = fn.AddInput(a, b)
			}
			if len(a.Refs) > tc.lifted {
				t.Errorf("the accumulator holds %d refs before ExtractOutput, want at most %d", len(a.Refs), tc.lifted)
			}
			g := fn.ExtractOutput(a)
			if len(g.Refs) > tc.maxKept {
				t.Errorf("kept %d of %d refs, want at most %d", len(g.Refs), tc.n, tc.maxKept)
			}
			for i, r := range g.Refs {
				sum := 0.0
				for _, e := range g.Refs[:i] {
					if e.Cost <= r.Cost {
						sum += e.Cost
					}
				}
				if sum+r.Cost > tc.capLoss {
					t.Fatalf("kept line %d (charge %v) after kept refs of at most its charge summing to %v, cap %v", r.Line, r.Cost, sum, tc.capLoss)
				}
			}
		})
	}
}
