package privatize

import (
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/tokenize"
)

// TestWordIDs: the pieces and ids WordIDs reports for a fixture sentence
// are the privatizer's (clitics cut as GloVe does, hyphenated words cut
// into segments, keys in lower case), numbers and punctuation are
// skipped, and a word outside the vocabulary, or a stand-in, is not
// found.
func TestWordIDs(t *testing.T) {
	a := defaultAsset(t)
	if a.StandIns.Len() == 0 {
		t.Fatal("the default asset has no stand-ins")
	}
	standIn, standFor := a.StandIns.At(0)
	if _, ok := a.Lookup(standIn); ok {
		t.Fatalf("stand-in %q is a vocabulary word", standIn)
	}
	text := "I DON'T like well-known Boston's 42 cafes, qzxqvv! " + standIn
	type piece struct {
		text string
		key  string // "" for a piece that must not be found
	}
	want := []piece{
		{"I", "i"}, {"DO", "do"}, {"N'T", "n't"}, {"like", "like"},
		{"well", "well"}, {"known", "known"}, {"Boston", "boston"}, {"'s", "'s"},
		{"cafes", "cafes"}, {"qzxqvv", ""}, {standIn, ""},
	}
	var got []piece
	var ids []int
	WordIDs(a, text, func(p string, id int, ok bool) {
		k := ""
		if ok {
			k = a.Word(id)
		} else if id != -1 {
			t.Errorf("%q: not found but id %d", p, id)
		}
		got = append(got, piece{p, k})
		ids = append(ids, id)
	})
	if !slices.Equal(got, want) {
		t.Fatalf("pieces\n got %q\nwant %q", got, want)
	}
	for i, p := range want {
		if p.key == "" {
			continue
		}
		if id, ok := a.Lookup(p.key); !ok || id != ids[i] {
			t.Errorf("%q: id %d, want Lookup(%q) = %d, %v", p.text, ids[i], p.key, id, ok)
		}
	}
	// The privatizer itself would privatize the stand-in as its word.
	if id, _, ok := lookupIn(a, tokenize.Token{Kind: tokenize.Word, Text: standIn, Whole: standIn}, true); !ok || id != standFor {
		t.Errorf("lookupIn with stand-ins: %d, %v; want %d", id, ok, standFor)
	}
	// A nil asset or a nil callback finds nothing and does not panic.
	n := 0
	WordIDs(nil, text, func(_ string, _ int, ok bool) {
		if ok {
			t.Error("found a word in a nil asset")
		}
		n++
	})
	if n != len(want) {
		t.Errorf("nil asset: %d pieces, want %d", n, len(want))
	}
	WordIDs(a, text, nil)
}
