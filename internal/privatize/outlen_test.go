package privatize

import (
	"math/rand/v2"
	"testing"
)

// TestOutLenFastPath: outLen, which recognises plain ASCII words 8 bytes
// at a time, equals its definition outLenSlow on every word of the
// default asset, on the clitic forms, and on random strings that put an
// apostrophe or a non-ASCII byte at every position of an 8-byte group
// (and at none).
func TestOutLenFastPath(t *testing.T) {
	words := []string{"", "n", "n't", "'d", "'s", "na", "nt", "abcdefgh", "abcdefg'", "'bcdefgh", "abcdefghé", "é"}
	for _, c := range cliticFull {
		words = append(words, c.clitic, c.full)
	}
	a := defaultAsset(t)
	for id := range a.Len() {
		words = append(words, a.Word(id))
	}
	pieces := []string{"a", "z", "n", "t", "'", "é", "\xff", "\x00", "&", "7", "\x7f", "\x80", "\x26", "\x28"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 50000 {
		w := ""
		for range r.IntN(20) {
			if r.IntN(4) == 0 {
				w += pieces[r.IntN(len(pieces))]
			} else {
				w += pieces[r.IntN(2)]
			}
		}
		words = append(words, w)
	}
	special := 0
	for _, w := range words {
		got, want := outLen(w), outLenSlow(w)
		if got != want {
			t.Fatalf("outLen(%q) = %d, outLenSlow %d", w, got, want)
		}
		if got != len(w) {
			special++
		}
	}
	if special == 0 { // negative control: the cases reach the slow path
		t.Fatal("no word's outLen differs from its length")
	}
}
