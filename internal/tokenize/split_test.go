package tokenize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSplit: tokenizing the parts Split makes, one after the other, gives
// exactly the tokens of the whole text (Text, Kind, Part and Whole), on
// random texts over the special characters and on every adversarial
// shape, at many limits; and every part but the last reaches the limit.
func TestSplit(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	var inputs []string
	for range 2000 {
		inputs = append(inputs, randomText(r, 1+r.IntN(200)))
	}
	for _, sh := range adversarialShapes {
		inputs = append(inputs, shapeText(sh.Unit, 300)+randomText(r, 20)+shapeText(sh.Unit, 300))
	}
	inputs = append(inputs, "don't can't I’M well-known", strings.Repeat("x", 500), "a@b.com http://x.y/z (mail@host) "+strings.Repeat("🙂", 50))
	for _, s := range inputs {
		whole := Tokenize(s)
		for _, limit := range []int{1, 2, 3, 5, 8, 13, 40, 100} {
			var parts []Token
			ps := Split(s, limit)
			for i, p := range ps {
				if p == "" || i < len(ps)-1 && len(p) < limit {
					t.Fatalf("Split(%q, %d): part %d is %q", s, limit, i, p)
				}
				parts = append(parts, Tokenize(p)...)
			}
			if strings.Join(ps, "") != s {
				t.Fatalf("Split(%q, %d) = %q: not the text", s, limit, ps)
			}
			if !sameTokens(parts, whole) {
				t.Fatalf("cutting %q at about %d bytes changes its tokens:\n%v\n%v", s, limit, parts, whole)
			}
		}
	}
}

// TestSplitWork: Split costs one pass over a text without delimiters
// (one e-mail/URL chunk), not one pass per part.
func TestSplitWork(t *testing.T) {
	s := strings.Repeat("\x00", 1<<20)
	parts, work := split(s, 1<<10)
	if len(parts) != 1<<10 {
		t.Fatalf("%d parts", len(parts))
	}
	if work > 4*len(s) {
		t.Fatalf("splitting examined %d bytes of %d", work, len(s))
	}
}

// TestSplitWithinLimit: a text within the limit is its own part.
func TestSplitWithinLimit(t *testing.T) {
	for _, s := range []string{"a", "hello world"} {
		if p := Split(s, 100); len(p) != 1 || p[0] != s {
			t.Fatalf("Split(%q, 100) = %q", s, p)
		}
	}
	if p := Split("", 100); p != nil {
		t.Fatalf("Split of the empty text = %q", p)
	}
}
