package hamming

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
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
	// (chi-square, 3 degrees of freedom, critical value 16.27 at 0.001).
	same := make([]Code, 5)
	r := rand.NewPCG(3, 3)
	var counts [5]int
	const draws = 8000
	for i := 0; i < draws; i++ {
		c, _ := Chain(same, 0, r, nil)
		counts[c[1]]++
	}
	chi := 0.0
	for _, o := range counts[1:] {
		e := draws / 4.0
		chi += (float64(o) - e) * (float64(o) - e) / e
	}
	if counts[0] != 0 || chi > 16.27 {
		t.Fatalf("second element counts %v (chi2 %.1f)", counts, chi)
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
