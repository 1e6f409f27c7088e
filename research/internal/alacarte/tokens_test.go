package alacarte

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   \n\t ", nil},
		{"Hello, World!", []string{"hello", ",", "world", "!"}},
		{"I don't know", []string{"i", "do", "n't", "know"}},
		{"I can't, I won't", []string{"i", "ca", "n't", ",", "i", "wo", "n't"}},
		{"I'm sure you're right, they'll see we've won and he'd go", []string{
			"i", "'m", "sure", "you", "'re", "right", ",", "they", "'ll", "see", "we", "'ve", "won", "and", "he", "'d", "go"}},
		{"It’s John’s DON’T", []string{"it", "'s", "john", "'s", "do", "n't"}}, // curly apostrophes
		{"could've shouldn't've", []string{"could", "'ve", "should", "n't", "'ve"}},
		{"O'Neil rock'n'roll", []string{"o'neil", "rock'n'roll"}},
		{"the U.S. army, e.g. at 5 p.m. u r", []string{"the", "u.s.", "army", ",", "e.g.", "at", "5", "p.m.", "u", "r"}},
		{"a.b end. U.S soldiers, x.", []string{"a.b", "end", ".", "u.s", "soldiers", ",", "x", "."}},
		{"the 1990's and 80s", []string{"the", "1990", "'s", "and", "80s"}},
		{"5 stars out of 10, 3.5 avg, 1,000 fans", []string{"5", "stars", "out", "of", "10", ",", "3.5", "avg", ",", "1,000", "fans"}},
		{"well-known, half- baked -- end", []string{"well-known", ",", "half", "-", "baked", "--", "end"}},
		{"Wait... what?!", []string{"wait", "...", "what", "?", "!"}},
		{"'quoted' dogs' toys", []string{"'", "quoted", "'", "dogs", "'", "toys"}},
		{"LOL thx HAHA", []string{"lol", "thx", "haha"}},
		{"Café ÉCOLE", []string{"café", "école"}},
		{"end.", []string{"end", "."}},
		{"3.", []string{"3", "."}},
		{"n't 's", []string{"n't", "'", "s"}},
		{"a\xffb", []string{"a", "b"}},   // invalid UTF-8 separates
		{"x\u00a0y", []string{"x", "y"}}, // no-break space is a space
	}
	for _, tc := range tests {
		got := Tokens(nil, tc.in)
		if !slices.Equal(got, tc.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTokenizeAppends: tokens are appended to dst, which is reused.
func TestTokensAppends(t *testing.T) {
	buf := Tokens(nil, "one two")
	buf = Tokens(buf[:0], "three")
	if !slices.Equal(buf, []string{"three"}) {
		t.Fatalf("%q", buf)
	}
	if got := Tokens([]string{"x"}, "y"); !slices.Equal(got, []string{"x", "y"}) {
		t.Fatalf("%q", got)
	}
}

var spaceRun = regexp.MustCompile(`\s+`)

// FuzzTokenize: never panics; tokens are non-empty, hold no white space
// and are lower-case; the result does not depend on the layout (any white
// space run may be replaced by one newline); the work is linear.
func FuzzTokens(f *testing.F) {
	for _, s := range []string{"", "I don't know.", "It’s 1,000... O'Neil's 80s", "a\xffb\u00a0c", "----", "x'y'z'", "n't've's"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		toks, steps := scanTokens(nil, s)
		if steps > 2*len(s)+1 {
			t.Fatalf("%d steps for %d bytes", steps, len(s))
		}
		for _, tok := range toks {
			if tok == "" {
				t.Fatalf("empty token in %q", toks)
			}
			for _, r := range tok {
				if unicode.IsSpace(r) {
					t.Fatalf("token %q holds white space", tok)
				}
			}
			if tok != lower(tok) {
				t.Fatalf("token %q is not lower-cased", tok)
			}
		}
		relaid := spaceRun.ReplaceAllString(s, "\n")
		if got := Tokens(nil, relaid); !slices.Equal(got, toks) {
			t.Fatalf("layout changed the tokens: %q vs %q", toks, got)
		}
		if got := Tokens(nil, " "+s+"  "); !slices.Equal(got, toks) {
			t.Fatalf("padding changed the tokens: %q vs %q", toks, got)
		}
	})
}

// TestTokenizeLinear counts work on long adversarial inputs: runs of one
// punctuation mark, of joiners, and of clitic-like endings.
func TestTokensLinear(t *testing.T) {
	for _, unit := range []string{".", "a-", "'s", "n't", "a'", "1,", "x ", "’", "\xff"} {
		s := strings.Repeat(unit, 100000)
		_, steps := scanTokens(nil, s)
		if steps > 2*len(s)+1 {
			t.Errorf("%q×100000: %d steps for %d bytes", unit, steps, len(s))
		}
	}
}
