package tokenize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCut: tokenizing the parts Cut makes, one after the other, gives
// exactly the tokens of the whole text (Text, Kind, Part and Whole), on
// random texts over the special characters and on every adversarial
// shape, at many limits; and every part but the last reaches the limit.
func TestCut(t *testing.T) {
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
			rest := s
			for rest != "" {
				c := Cut(rest, limit)
				if c <= 0 || c > len(rest) {
					t.Fatalf("Cut(%q, %d) = %d", rest, limit, c)
				}
				if c < limit && c != len(rest) {
					t.Fatalf("Cut(%q, %d) = %d: short part", rest, limit, c)
				}
				parts = append(parts, Tokenize(rest[:c])...)
				rest = rest[c:]
			}
			if !sameTokens(parts, whole) {
				t.Fatalf("cutting %q at about %d bytes changes its tokens:\n%v\n%v", s, limit, parts, whole)
			}
		}
	}
}

// TestCutWithinLimit: a text within the limit is not cut.
func TestCutWithinLimit(t *testing.T) {
	for _, s := range []string{"", "a", "hello world"} {
		if c := Cut(s, 100); c != len(s) {
			t.Fatalf("Cut(%q, 100) = %d", s, c)
		}
	}
}
