package deniability_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/deniability"
	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// fixtureLists are two 36-word permutations (identity and a fixed
// shuffle) and each word's positions in them, for 1-DG.
func fixtureLists(t *testing.T) ([]wva.Permutation, [][]int) {
	t.Helper()
	const n = 36
	shuffled := rand.New(rand.NewPCG(1, 2)).Perm(n)
	var lists []wva.Permutation
	var pos [][]int
	for _, order := range [][]int{nil, shuffled} {
		o := make([]uint32, n)
		for i := range o {
			o[i] = uint32(i)
			if order != nil {
				o[i] = uint32(order[i])
			}
		}
		l, err := wva.NewPermutation(o)
		if err != nil {
			t.Fatal(err)
		}
		p := make([]int, n)
		for w := range p {
			p[w] = int(l.Pos[w])
		}
		lists, pos = append(lists, l), append(pos, p)
	}
	return lists, pos
}

func TestEstimate(t *testing.T) {
	lists, pos := fixtureLists(t)
	src := seeded.Key(stattest.Seed("pd"))
	const eps, draws = 0.3, 20000
	m, err := mechanism.NewDiffractorGeometric(lists, eps)
	if err != nil {
		t.Fatal(err)
	}
	exact, err := dpexact.DiffractorGeometric(pos, eps)
	if err != nil {
		t.Fatal(err)
	}
	words := []int{0, 5, 20, 35}
	d, err := deniability.Estimate(m, words, draws, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Words) != len(words) || d.Draws != draws {
		t.Fatalf("got %d words, %d draws", len(d.Words), d.Draws)
	}
	meanN, meanS := 0.0, 0.0
	for i, wd := range d.Words {
		pw := exact[words[i]][words[i]]
		// 5σ binomial band around the exact N_w.
		if tol := 5 * math.Sqrt(pw*(1-pw)/draws); wd.Word != words[i] || math.Abs(wd.N-pw) > tol {
			t.Errorf("word %d: N_w = %v, exact %v ± %v", wd.Word, wd.N, pw, tol)
		}
		if wd.S < 2 || wd.S > len(exact) {
			t.Errorf("word %d: S_w = %d outside [2, %d]", wd.Word, wd.S, len(exact))
		}
		meanN += wd.N / float64(len(words))
		meanS += float64(wd.S) / float64(len(words))
	}
	if math.Abs(meanN-d.MeanN) > 1e-12 || math.Abs(meanS-d.MeanS) > 1e-12 {
		t.Errorf("means %v %v, want %v %v", d.MeanN, d.MeanS, meanN, meanS)
	}

	// Nearly noiseless: every draw is the word itself.
	m, err = mechanism.NewDiffractorGeometric(lists, 60)
	if err != nil {
		t.Fatal(err)
	}
	d, err = deniability.Estimate(m, words, 0, src)
	if err != nil {
		t.Fatal(err)
	}
	if d.Draws != deniability.DefaultDraws || d.MeanN != 1 || d.MeanS != 1 {
		t.Errorf("ε=60: draws=%d N=%v S=%v, want 100, 1, 1", d.Draws, d.MeanN, d.MeanS)
	}

	if _, err := deniability.Estimate(m, []int{-1}, 10, src); !errors.Is(err, mechanism.ErrWordOutOfRange) {
		t.Errorf("bad word: %v", err)
	}
}

// Plausible deniability of 1-DG on a seeded sample of words.
func ExampleEstimate() {
	a, err := wva.Default()
	if err != nil {
		panic(err)
	}
	m, err := mechanism.NewDiffractorGeometric(a.Lists, 60)
	if err != nil {
		panic(err)
	}
	src := seeded.Key([32]byte{2}) // evaluation only
	d, err := deniability.Estimate(m, []int{10, 200, 3000}, 0, src)
	if err != nil {
		panic(err)
	}
	// At ε = 60 per position the word is almost always kept.
	fmt.Printf("N_w=%.2f S_w=%.1f\n", d.MeanN, d.MeanS)
	// Output: N_w=1.00 S_w=1.0
}
