package tokenize

import (
	"math/rand/v2"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestASCIIClass: the table answers every ASCII byte as the unicode
// package does, for each class the fast paths use it for.
func TestASCIIClass(t *testing.T) {
	for b := range rune(utf8.RuneSelf) {
		for _, tc := range []struct {
			name string
			bit  uint8
			want bool
		}{
			{"space", cSpace, unicode.IsSpace(b)},
			{"letter", cLetter, unicode.IsLetter(b)},
			{"upper", cUpper, unicode.IsUpper(b) || unicode.IsTitle(b)},
			{"lower", cLower, unicode.IsLower(b)},
			{"digit", cDigit, unicode.IsDigit(b)},
			{"punct", cPunct, unicode.IsPunct(b) || unicode.IsSymbol(b)},
			{"end", cEnd, unicode.IsSpace(b) || isDelimiter(b)},
		} {
			if got := asciiClass[b]&tc.bit != 0; got != tc.want {
				t.Errorf("%s(%q) = %v, want %v", tc.name, b, got, tc.want)
			}
		}
		if got, want := isAlnum(b), unicode.IsLetter(b) || unicode.IsDigit(b); got != want {
			t.Errorf("isAlnum(%q) = %v, want %v", b, got, want)
		}
	}
}

// caseOfRunes is CaseOf without its ASCII fast path: the definition.
func caseOfRunes(w string) Case {
	var first = true
	var firstUpper, restUpper, restLower bool
	letters := 0
	for _, r := range w {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		up, low := unicode.IsUpper(r) || unicode.IsTitle(r), unicode.IsLower(r)
		if first {
			firstUpper, first = up, false
			continue
		}
		restUpper = restUpper || up
		restLower = restLower || low
	}
	switch {
	case letters == 0 || !firstUpper && !restUpper:
		return Lower
	case firstUpper && !restUpper:
		return Title
	case firstUpper && !restLower && letters > 1:
		return Upper
	}
	return Mixed
}

// TestCaseOfFastPath: CaseOf agrees with the rune-by-rune definition on
// every ASCII byte pair and on random strings mixing ASCII, other
// scripts' letters (upper, lower, title case), marks and invalid bytes.
func TestCaseOfFastPath(t *testing.T) {
	var inputs []string
	for a := range utf8.RuneSelf {
		for b := range utf8.RuneSelf {
			inputs = append(inputs, string([]byte{byte(a), byte(b)}))
		}
	}
	pieces := []string{"a", "Z", "'", "-", "1", " ", "é", "É", "ǅ", "ß", "\u0301", "\xff", "\xe2\x80", "İ", "K", "k", "ΣΑ", "日"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		w := ""
		for range 1 + r.IntN(6) {
			w += pieces[r.IntN(len(pieces))]
		}
		inputs = append(inputs, w)
	}
	for _, w := range inputs {
		if got, want := CaseOf(w), caseOfRunes(w); got != want {
			t.Fatalf("CaseOf(%q) = %d, want %d", w, got, want)
		}
	}
}
