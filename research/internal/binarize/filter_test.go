package binarize

import (
	"regexp"
	"testing"
)

func TestPlainWord(t *testing.T) {
	tests := []struct {
		w    string
		want bool
	}{
		{"cat", true}, {"don't", true}, {"well-known", true}, {"rock-'n-roll", false},
		{"mother-in-law", true}, {"o'neill", true}, {"1999", true}, {"0", true},
		{"", false}, {"Cat", false}, {"café", false}, {"'s", false}, {"n't", true},
		{"cat-", false}, {"-cat", false}, {"a--b", false}, {"a'-b", false}, {"b2b", false},
		{"19th", false}, {"1,000", false}, {"1.5", false}, {"-1", false}, {",", false},
		{".", false}, {"a b", false}, {"a\u00a0b", false}, {"e-mail", true},
	}
	for _, tc := range tests {
		if got := PlainWord(tc.w); got != tc.want {
			t.Errorf("PlainWord(%q) = %t, want %t", tc.w, got, tc.want)
		}
	}
}

// FuzzPlainWord checks the hand-written filter against the documented
// regular expressions.
func FuzzPlainWord(f *testing.F) {
	re := regexp.MustCompile(`^(?:[a-z]+(?:['-][a-z]+)*|[0-9]+)$`)
	for _, s := range []string{"cat", "don't", "a-b-c", "12", "a--b", "-", "'", "x'", "Ab", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, w string) {
		if got, want := PlainWord(w), re.MatchString(w); got != want {
			t.Fatalf("PlainWord(%q) = %t, regexp says %t", w, got, want)
		}
	})
}
