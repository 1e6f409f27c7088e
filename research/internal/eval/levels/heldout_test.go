package levels

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
)

// TestTextIDs: on fixture sentences with clitics, hyphens, capitals,
// numbers and an unknown word, TextIDs counts the privatizer's word
// pieces and keeps the ids of those in the vocabulary, in order.
func TestTextIDs(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"I DON'T like well-known Boston's 42 cafes.", "Qzxqvv, said the Mother-in-Law!"}
	text, err := TextIDs(a, func(fn func(string) error) error {
		for _, d := range docs {
			if err := fn(d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, k := range []string{"i", "do", "n't", "like", "well", "known", "boston", "'s", "cafes", "said", "the", "mother", "in", "law"} {
		id, ok := a.Lookup(k)
		if !ok {
			t.Fatalf("%q is not in the asset", k)
		}
		want = append(want, id)
	}
	if text.Words != len(want)+1 || !slices.Equal(text.IDs, want) {
		t.Fatalf("%d words, ids %v; want %d words, ids %v", text.Words, text.IDs, len(want)+1, want)
	}
	if got, w := text.InVocab(), float64(len(want))/float64(len(want)+1); got != w {
		t.Errorf("in-vocabulary share %v, want %v", got, w)
	}
	if (Text{}).InVocab() != 0 {
		t.Error("the share of an empty text is not 0")
	}
	stop := errors.New("stop")
	if _, err := TextIDs(a, func(func(string) error) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("the documents' error is lost: %v", err)
	}
}

// TestSubsample: at most m tokens, in text order, the same for a seed and
// uniform over positions (each of 10 positions drawn in 3 of 10 draws on
// average over seeds, within 5 standard errors; a first-m "sample" fails
// this); all of them when there are no more than m.
func TestSubsample(t *testing.T) {
	ids := []int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	all, err := Subsample(ids, 20, 1)
	if err != nil || !slices.Equal(all, ids) {
		t.Fatalf("m above the count: %v, %v", all, err)
	}
	const seeds, m = 4000, 3
	counts := make([]int, len(ids))
	for s := range uint64(seeds) {
		got, err := Subsample(ids, m, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != m || !slices.IsSorted(got) {
			t.Fatalf("seed %d: %v", s, got)
		}
		for _, v := range got {
			counts[v-10]++
		}
		again, _ := Subsample(ids, m, s)
		if !slices.Equal(got, again) {
			t.Fatalf("seed %d: %v then %v", s, got, again)
		}
	}
	p := float64(m) / float64(len(ids))
	sd := math.Sqrt(seeds * p * (1 - p))
	for i, c := range counts {
		if math.Abs(float64(c)-seeds*p) > 5*sd {
			t.Errorf("position %d drawn %d times, want about %.0f", i, c, seeds*p)
		}
	}
}
