package core

import (
	"errors"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/hamming"
)

func TestBuildLists(t *testing.T) {
	_, codes := syntheticCodes(40, 12, "build")
	src := NewSeededSourceForEvaluation(testSeed("build"))
	lists, err := BuildLists(codes, 3, src)
	if err != nil {
		t.Fatal(err)
	}
	if len(lists) != 3 {
		t.Fatalf("%d lists, want 3", len(lists))
	}
	for k, l := range lists {
		if _, err := checkLists("test", lists[k:k+1]); err != nil {
			t.Fatalf("list %d: %v", k, err)
		}
		// Each step appends a nearest not-yet-placed word (brute force).
		placed := make([]bool, len(codes))
		placed[l.Order[0]] = true
		for p := 1; p < len(l.Order); p++ {
			prev, next := codes[l.Order[p-1]], l.Order[p]
			best := hamming.Bits + 1
			for i, c := range codes {
				if !placed[i] {
					best = min(best, hamming.Distance(prev, c))
				}
			}
			if d := hamming.Distance(prev, codes[next]); d != best {
				t.Fatalf("list %d position %d: step of %d bits, nearest unplaced is %d", k, p, d, best)
			}
			placed[next] = true
		}
	}
	// Start words come from the caller's randomness: over many builds on
	// a tiny vocabulary, more than one start word occurs.
	starts := map[uint32]bool{}
	for range 20 {
		ls, err := BuildLists(codes[:5], 1, src)
		if err != nil {
			t.Fatal(err)
		}
		starts[ls[0].Order[0]] = true
	}
	if len(starts) < 2 {
		t.Errorf("20 builds all started at the same word: %v", starts)
	}
	// The lists feed the mechanisms.
	if _, err := NewDiffractorGeometric(lists, 0.5); err != nil {
		t.Fatal(err)
	}
}

func TestBuildListsErrors(t *testing.T) {
	_, codes := syntheticCodes(8, 8, "build")
	src := NewSeededSourceForEvaluation(testSeed("e"))
	for _, c := range []struct {
		name  string
		codes []hamming.Code
		count int
		want  error
	}{
		{"empty", nil, 1, ErrEmptyVocabulary},
		{"zero lists", codes, 0, ErrNoLists},
		{"too many lists", codes, 257, ErrNoLists},
	} {
		if _, err := BuildLists(c.codes, c.count, src); !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := BuildLists(codes, 1, nil); !errors.Is(err, ErrNilSource) {
		t.Errorf("nil source: %v", err)
	}
}

// TEM on the full default asset: output frequencies of ball members (and
// of "anything outside the ball", one pooled cell) match the closed form.
func TestFullAssetTEMMatchesExact(t *testing.T) {
	if testing.Short() {
		t.Skip("full asset")
	}
	a := defaultAsset(t)
	const eps = 9.0
	m, err := NewTEM(a.TEM, eps, TEMOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps, err := a.TEM.StepsFor(m.Gamma())
	if err != nil {
		t.Fatal(err)
	}
	src := NewSeededSourceForEvaluation(testSeed("full-tem"))
	for _, word := range []string{"good", "the", "paris"} {
		w, ok := a.Lookup(word)
		if !ok {
			continue
		}
		ball := a.TEM.BallWithin(w, steps, nil)
		cell := make(map[int]int, len(ball))
		p := make([]float64, len(ball)+1)
		z := 0.0
		for k, nb := range ball {
			cell[int(nb.ID)] = k
			p[k] = expNeg(eps * float64(nb.Dist) * a.TEM.Step() / 2)
			z += p[k]
		}
		p[len(ball)] = float64(a.Len()-len(ball)) * expNeg(eps*m.Gamma()/2)
		z += p[len(ball)]
		for k := range p {
			p[k] /= z
		}
		counts := make([]int, len(p))
		for range 30000 {
			y, err := m.Privatize(w, src)
			if err != nil {
				t.Fatal(err)
			}
			if k, in := cell[y]; in {
				counts[k]++
			} else {
				counts[len(ball)]++
			}
		}
		if stat, df, pv := chiSquare(counts, p); pv < falseFailureRate {
			t.Errorf("%q (|L_w|=%d): chi2=%.1f df=%d p=%.3g", word, len(ball), stat, df, pv)
		}
		if !slices.ContainsFunc(ball, func(nb wvaNeighbor) bool { return int(nb.ID) == w }) {
			t.Errorf("%q: ball lacks the word itself", word)
		}
	}
}
