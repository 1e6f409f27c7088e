package tokenize

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// alphabet holds the characters the tokenizer treats specially, so random
// strings over it reach every branch: joiners, trailing punctuation, URL
// prefix letters, delimiters, '@', marks, wide runes, Kelvin and dotted I
// (which lower to ASCII), U+FFFD and invalid bytes, and ASCII of every
// class the fast paths' table holds (ascii.go): other symbols and
// punctuation, controls, the other spaces, upper-case letters and DEL.
var alphabet = []string{
	"a", "b", "h", "t", "p", "s", "w", "m", "i", "l", "o", "f", "H", "T", "P", "W", "M", "K", "İ", "é", "\u0301",
	"0", "1", "9", "٣", ".", ",", ";", ":", "!", "?", "'", "’", "-", "_", "/", "@",
	"<", ">", "\"", "(", ")", "[", "]", "{", "}", "$", "©", "🙂",
	" ", "\n", "\t", "\u00a0", "\x00", "\xff", "\xe2\x80", "\uFFFD",
	"http://", "https://", "www.", "mailto:", "ftp://", "HTTP://", "WwW.",
	"n", "N", "'s", "’S", "n't", "N’T", "'m", "'re", "’ll", "'VE", "'d", "do", "I",
	"#", "&", "*", "+", "=", "|", "~", "`", "^", "\\", "%", "\r", "\v", "\f", "\x1f", "\x7f", "Z", "F", "5",
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func sameTokens(a, b []Token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAgreesWithOracle: the Scanner gives exactly the old tokenizer's
// tokens on random texts over the special characters and on every
// adversarial shape, alone and mixed with others.
//
// The oracle is quadratic on the adversarial shapes, so -short caps the
// long texts at 1 kB instead of 4 kB (same shapes, same mixes: a
// disagreement shows at any length past a few units; the full size runs
// in test-full).
func TestAgreesWithOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	long := 4 << 10
	if testing.Short() {
		long = 1 << 10
	}
	var inputs []string
	for i := 0; i < 3000; i++ {
		inputs = append(inputs, randomText(r, 1+r.IntN(64)))
	}
	for i := 0; i < 100; i++ {
		inputs = append(inputs, randomText(r, 1+r.IntN(long)))
	}
	for _, sh := range adversarialShapes {
		for _, n := range []int{1, 2, 3, 7, 100, long} {
			inputs = append(inputs, shapeText(sh.Unit, n))
		}
		for _, other := range adversarialShapes {
			inputs = append(inputs, shapeText(sh.Unit, 500)+randomText(r, 8)+shapeText(other.Unit, 500))
		}
	}
	for _, s := range inputs {
		got, want := Tokenize(s), oracleTokenize(s)
		if !sameTokens(got, want) {
			t.Fatalf("Tokenize(%q):\n got %q\nwant %q", s, got, want)
		}
	}
}

// TestOracleDisagreementIsSeen is the negative control of the comparison:
// a text whose tokens differ is reported as different.
func TestOracleDisagreementIsSeen(t *testing.T) {
	a := Tokenize("mail a@b.c now")
	b := Tokenize("mail a@b.c. now")
	if sameTokens(a, b) {
		t.Fatal("different token lists compare equal")
	}
}

func TestScannerZeroAndReset(t *testing.T) {
	var sc Scanner
	if tk, ok := sc.Next(); ok || tk != (Token{}) {
		t.Fatalf("zero Scanner returned %v, %v", tk, ok)
	}
	for _, s := range []string{"see www.x.org, then a@b.c.", "", "x\xff y", "see www.x.org, then a@b.c."} {
		sc.Reset(s)
		var got []Token
		for tk, ok := sc.Next(); ok; tk, ok = sc.Next() {
			got = append(got, tk)
		}
		if want := oracleTokenize(s); !sameTokens(got, want) {
			t.Errorf("after Reset(%q): got %q, want %q", s, got, want)
		}
		if _, ok := sc.Next(); ok {
			t.Errorf("Next after the end of %q returned a token", s)
		}
	}
}
