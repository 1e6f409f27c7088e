package hamming

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/stattest"
)

func TestChainIsExactPermutation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 2, 3, 300, 1500} {
		codes := clusteredCodes(r, n)
		start := r.IntN(n)
		chain, err := Chain(codes, start, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(chain) != n || chain[0] != int32(start) {
			t.Fatalf("n=%d: chain of %d starting at %d", n, len(chain), chain[0])
		}
		placed := make([]bool, n)
		for i, id := range chain {
			if placed[id] {
				t.Fatalf("n=%d: id %d placed twice", n, id)
			}
			placed[id] = true
			if i == 0 {
				continue
			}
			// Each step must be a nearest code among those not yet placed.
			prev := codes[chain[i-1]]
			d := Distance(prev, codes[id])
			for j, c := range codes {
				if !placed[j] && Distance(prev, c) < d {
					t.Fatalf("n=%d step %d: chose distance %d, code %d not placed is at %d", n, i, d, j, Distance(prev, c))
				}
			}
		}
	}
}

func TestChainDeterministicAndTiesUniform(t *testing.T) {
	codes := clusteredCodes(rand.New(rand.NewPCG(1, 1)), 500)
	a, _ := Chain(codes, 7, rand.NewPCG(5, 5), nil)
	b, _ := Chain(codes, 7, rand.NewPCG(5, 5), nil)
	if !slices.Equal(a, b) {
		t.Fatal("same seed, different chains")
	}
	// Five identical codes: the second element is uniform over the other four
	// (stattest.ChiSquare at the suites' false-failure rate). Negative
	// control: draws from a tie-break that favours id 1 (0.3 against 0.233
	// for each other id) are rejected at the same size (expected chi-square
	// about 110 with 3 df).
	same := make([]Code, 5)
	r := rand.NewPCG(3, 3)
	const draws = 8000
	uniform := []float64{0, 0.25, 0.25, 0.25, 0.25}
	var counts [5]int
	for range draws {
		c, _ := Chain(same, 0, r, nil)
		counts[c[1]]++
	}
	if stat, df, p := stattest.ChiSquare(counts[:], uniform); p < stattest.FalseFailureRate {
		t.Errorf("second element counts %v: chi2=%.1f df=%d p=%.3g", counts, stat, df, p)
	}
	biased := [5]int{}
	rr := rand.New(r)
	for range draws {
		switch u := rr.Float64(); {
		case u < 0.3:
			biased[1]++
		default:
			biased[2+int((u-0.3)/0.7*3)]++
		}
	}
	if stat, df, p := stattest.ChiSquare(biased[:], uniform); p >= stattest.FalseFailureRate {
		t.Errorf("negative control: counts %v of a biased tie-break accepted: chi2=%.1f df=%d p=%.3g", biased, stat, df, p)
	}
}

func TestChainErrors(t *testing.T) {
	codes := make([]Code, 3)
	if _, err := Chain(codes, 3, rand.NewPCG(1, 1), nil); !errors.Is(err, ErrBadStart) {
		t.Fatalf("start 3 of 3: err = %v", err)
	}
	if _, err := Chain(nil, 0, rand.NewPCG(1, 1), nil); !errors.Is(err, ErrBadStart) {
		t.Fatalf("empty: err = %v", err)
	}
	if _, err := Chain(codes, 0, nil, nil); !errors.Is(err, ErrNoRand) {
		t.Fatalf("nil rng: err = %v", err)
	}
}

func BenchmarkChain50k(b *testing.B) {
	codes := benchData()["clustered/N=50k"]
	for b.Loop() {
		Chain(codes, 0, rand.NewPCG(1, 1), nil)
	}
}
