package assetbuild

import (
	"math/bits"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// TestStandIns: the stand-ins are the first ranked words past the
// vocabulary that have a source vector and that the tokenizer looks up
// whole, each mapped to the vocabulary word nearest to its own code
// (checked here by brute force, ties to the lowest id); the build stays
// deterministic.
func TestStandIns(t *testing.T) {
	src, cfg := typedFixture(t)
	cfg.TypedText.Interleave = true // the source's own order supplies words past the vocabulary
	cfg.TypedText.StandIns = 40
	built, err := Build(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := wva.Marshal(built)
	if err != nil {
		t.Fatal(err)
	}
	a, err := wva.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	s := a.StandIns
	if s.Len() != 40 || a.Header.StandIns == nil || a.Header.StandIns.Words != 40 {
		t.Fatalf("%d stand-ins, header %+v", s.Len(), a.Header.StandIns)
	}

	// The stand-in's own code, from the projection Build trained.
	_, words, vecs := fakeWink(t, 520, 16, 7)
	var train binarize.Embeddings
	train.Dim = 16
	vec := map[string][]float32{}
	for i, w := range words {
		if !binarize.PlainWord(w) {
			continue
		}
		vec[w] = vecs[i]
		if train.Len() < cfg.Words {
			train.Words = append(train.Words, w)
			train.Vectors = append(train.Vectors, vecs[i]...)
		}
	}
	proj, err := Projection(&train, cfg)
	if err != nil {
		t.Fatal(err)
	}
	dist := func(x, y hamming.Code) int {
		d := 0
		for i := range x {
			d += bits.OnesCount64(x[i] ^ y[i])
		}
		return d
	}
	nonzero := 0
	for i := range s.Len() {
		w, id := s.At(i)
		if _, ok := a.Lookup(w); ok {
			t.Fatalf("stand-in %q is a vocabulary word", w)
		}
		if !standInWord(w) || vec[w] == nil {
			t.Fatalf("stand-in %q: not a plain source word the tokenizer looks up whole", w)
		}
		c, err := proj.Encode(vec[w])
		if err != nil {
			t.Fatal(err)
		}
		best := 0
		for j := range a.Codes {
			if dist(c, a.Codes[j]) < dist(c, a.Codes[best]) {
				best = j
			}
		}
		if id != best {
			t.Fatalf("stand-in %q → %q (distance %d), nearest is %q (%d)", w, a.Word(id), dist(c, a.Codes[id]), a.Word(best), dist(c, a.Codes[best]))
		}
		if id != 0 {
			nonzero++
		}
	}
	if nonzero < 20 { // not a degenerate map
		t.Fatalf("%d of 40 stand-ins map to a word other than id 0", nonzero)
	}

	// Zero stand-ins: none, and no header field; a negative count is refused.
	cfg.TypedText.StandIns = 0
	if b, err := Build(src, cfg); err != nil || b.StandIns != nil {
		t.Fatalf("StandIns 0: %v", err)
	}
	cfg.TypedText.StandIns = -1
	if _, err := Build(src, cfg); err == nil {
		t.Fatal("StandIns -1 accepted")
	}
}

func TestStandInWord(t *testing.T) {
	for _, tc := range []struct {
		w  string
		ok bool
	}{
		{"heisenberg", true}, {"o'clock", true}, {"y'know", true},
		{"well-known", false}, // the privatizer cuts it at the hyphen
		{"don't", false},      // cut into pieces by the tokenizer
		{"'s", false}, {"19th", false}, {"1990", false}, {"Paris", false}, {"", false},
	} {
		if got := standInWord(tc.w); got != tc.ok {
			t.Errorf("standInWord(%q) = %v, want %v", tc.w, got, tc.ok)
		}
	}
}
