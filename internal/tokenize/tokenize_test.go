package tokenize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func kinds(ts []Token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.Kind.String()[:1])
	}
	return b.String()
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in, want string // want: tokens joined by |, then kinds
		kinds    string
	}{
		{"Hello, world!", "Hello|,| |world|!", "wpswp"},
		{"don't stop", "do|n't| |stop", "wwsw"},
		{"well-known  fact\n", "well-known|  |fact|\n", "wsws"},
		{"it costs 1,000.50 now", "it| |costs| |1,000.50| |now", "wswsnsw"},
		{"mail john.doe@example.com.", "mail| |john.doe@example.com|.", "wsop"},
		{"see https://x.org/a?b=1, ok", "see| |https://x.org/a?b=1|,| |ok", "wsopsw"},
		{"covid19 and 3rd", "covid19| |and| |3rd", "oswso"},
		{"'quoted'", "'|quoted|'", "pwp"},
		{"a--b", "a|-|-|b", "wppw"},
		{"café Zürich", "café| |Zürich", "wsw"},
		{"smile 🙂 $5 ©", "smile| |🙂| |$|5| |©", "wsospnso"},
		{"end.", "end|.", "wp"},
		{"3.", "3|.", "np"},
		{"", "", ""},
	}
	for _, tc := range tests {
		ts := Tokenize(tc.in)
		var parts []string
		for _, tk := range ts {
			parts = append(parts, tk.Text)
		}
		if got := strings.Join(parts, "|"); got != tc.want || kinds(ts) != tc.kinds {
			t.Errorf("Tokenize(%q) = %q %s, want %q %s", tc.in, got, kinds(ts), tc.want, tc.kinds)
		}
	}
}

// parts renders each token's Part: s(ingle), h(ost), c(litic).
func parts(ts []Token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteByte("shc"[t.Part])
	}
	return b.String()
}

// TestClitics: the cutting rules, token by token: the pieces, their kinds
// and parts, and the whole word each piece points back to.
func TestClitics(t *testing.T) {
	tests := []struct {
		in, want     string // want: token texts joined by |
		kinds, parts string
	}{
		{"don't", "do|n't", "ww", "hc"},
		{"can't", "ca|n't", "ww", "hc"},
		{"won't", "wo|n't", "ww", "hc"},
		{"shan't", "sha|n't", "ww", "hc"},
		{"I'm", "I|'m", "ww", "hc"},
		{"I'M", "I|'M", "ww", "hc"},
		{"DON'T", "DO|N'T", "ww", "hc"},
		{"you're", "you|'re", "ww", "hc"},
		{"it's", "it|'s", "ww", "hc"},
		{"we'll", "we|'ll", "ww", "hc"},
		{"I've", "I|'ve", "ww", "hc"},
		{"he'd", "he|'d", "ww", "hc"},
		{"John's", "John|'s", "ww", "hc"},
		{"don’t", "do|n’t", "ww", "hc"}, // curly apostrophe
		{"I’M", "I|’M", "ww", "hc"},     // curly, upper case
		{"wouldn't've", "would|n't|'ve", "www", "hcc"},
		{"y'all'd", "y'all|'d", "ww", "hc"},
		{"well-known's", "well-known|'s", "ww", "hc"},
		{"rock'n'roll", "rock'n'roll", "w", "s"}, // inner apostrophes ending no clitic
		{"o'clock", "o'clock", "w", "s"},
		{"'tis", "'|tis", "pw", "ss"}, // a leading apostrophe is punctuation
		{"'s", "'|s", "pw", "ss"},     // a clitic with no host is not one
		{"n't", "n't", "w", "s"},      // no host: a word of its own
		{"n'tn't", "n't|n't", "ww", "hc"},
		{"''", "'|'", "pp", "ss"},
		{"don't-care", "don't-care", "w", "s"}, // clitics are cut off the end only
		{"x-n't", "x-n't", "w", "s"},           // the host would end in a hyphen
		{"rock'n't", "rock'n't", "w", "s"},     // ... or in an apostrophe
		{"it''s", "it|'|'|s", "wppw", "ssss"},  // a doubled apostrophe joins nothing
		{"it's.", "it|'s|.", "wwp", "hcs"},
		{"its'", "its|'", "wp", "ss"},
		{"5's", "5|'|s", "npw", "sss"}, // clitics are cut off words, not numbers
		{"1990s", "1990s", "o", "s"},
		{"it'ſ", "it'ſ", "w", "s"}, // only ASCII letters spell a clitic
		{"don't@x.org", "don't@x.org", "o", "s"},
	}
	for _, tc := range tests {
		ts := Tokenize(tc.in)
		var texts []string
		for _, tk := range ts {
			texts = append(texts, tk.Text)
			if tk.Part == Single && tk.Whole != tk.Text {
				t.Errorf("%q: single token %q has Whole %q", tc.in, tk.Text, tk.Whole)
			}
		}
		if got := strings.Join(texts, "|"); got != tc.want || kinds(ts) != tc.kinds || parts(ts) != tc.parts {
			t.Errorf("Tokenize(%q) = %q %s %s, want %q %s %s", tc.in, got, kinds(ts), parts(ts), tc.want, tc.kinds, tc.parts)
		}
		word := "" // the pieces' word: the input's leading host and clitics
		for _, tk := range ts {
			if tk.Part != Single {
				word += tk.Text
			}
		}
		for _, tk := range ts {
			if tk.Part != Single && tk.Whole != word {
				t.Errorf("%q: piece %q has Whole %q, want %q", tc.in, tk.Text, tk.Whole, word)
			}
		}
	}
	for in, want := range map[string]string{"n’t": "n't", "N’T": "n't", "’S": "'s", "'Ll": "'ll"} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCliticPrefixMatchesSuffix: for every clitic form, in every case and
// with both apostrophes, reading from the front finds what cutting from the
// end found (the scanner relies on it), and nothing else is a form.
func TestCliticPrefixMatchesSuffix(t *testing.T) {
	forms := []string{"n't", "'s", "'m", "'re", "'ll", "'ve", "'d"}
	for _, f := range forms {
		for _, v := range []string{f, strings.ToUpper(f), strings.ReplaceAll(f, "'", "’"), strings.ToUpper(strings.ReplaceAll(f, "'", "’"))} {
			if n := cliticSuffix("x" + v); n != len(v) {
				t.Errorf("cliticSuffix(x%s) = %d, want %d", v, n, len(v))
			}
			for _, g := range forms {
				if n := cliticPrefix(v + g); n != len(v) {
					t.Errorf("cliticPrefix(%s%s) = %d, want %d", v, g, n, len(v))
				}
			}
		}
	}
	for _, s := range []string{"'t", "'x", "nt", "n'", "'", "’", "'rr", "n’x", "", "s", "'ſ"} {
		if n := cliticPrefix(s); n != 0 {
			t.Errorf("cliticPrefix(%q) = %d, want 0", s, n)
		}
		if n := cliticSuffix("x" + s); n != 0 && s != "" {
			t.Errorf("cliticSuffix(x%q) = %d, want 0", s, n)
		}
	}
}

func TestCase(t *testing.T) {
	for _, tc := range []struct {
		w    string
		c    Case
		back string
	}{
		{"privacy", Lower, "privacy"}, {"Privacy", Title, "Privacy"}, {"PRIVACY", Upper, "PRIVACY"},
		{"iPhone", Mixed, "iphone"}, {"I", Title, "I"}, {"Élan", Title, "Élan"}, {"ÉLAN", Upper, "ÉLAN"},
		{"don't", Lower, "don't"}, {"DON'T", Upper, "DON'T"},
	} {
		if got := CaseOf(tc.w); got != tc.c {
			t.Errorf("CaseOf(%q) = %d, want %d", tc.w, got, tc.c)
		}
		if got := Apply(CaseOf(tc.w), Key(tc.w)); got != tc.back {
			t.Errorf("Apply(CaseOf(%q), Key) = %q, want %q", tc.w, got, tc.back)
		}
	}
	if Key("Don’t") != "don't" {
		t.Errorf("Key(Don’t) = %q", Key("Don’t"))
	}
}

// FuzzTokenize: lossless on any input; every byte in exactly one non-empty
// token, in order; layout tokens are whitespace or exactly one
// punctuation/symbol rune; a reused Scanner gives Tokenize's tokens; both
// agree with the old tokenizer (the oracle) and stay within the work bound.
func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"Hello, world!", "a@b.c d", "x\xff\xfe y", "1,2,3", "https://a.b/c?d", "   ", "é́", "a'b'-c",
		"a.a.a.a.", "a@a@a@", "@a@", "(x@y).", "HTTP://A", "wWw.x", "mailto:", "İttp://", "1.1.1.", "x'x'x'", "--", "🙂🙂🙂", "\x00\x00",
		"I'm", "DON’T", "wouldn't've", "n't", "'s", "x's's's", "rock'n'roll", "''", "5's", "1990s", "y'all'd've", "a-n't'"} {
		f.Add(s)
	}
	var sc Scanner
	f.Fuzz(func(t *testing.T, s string) {
		ts := Tokenize(s)
		pos := 0
		for i, tk := range ts {
			if tk.Text == "" {
				t.Fatalf("empty token in %q", s)
			}
			checkPart(t, s, ts, i)
			if !strings.HasPrefix(s[pos:], tk.Text) {
				t.Fatalf("token %q at byte %d of %q is not the next slice of the input", tk.Text, pos, s)
			}
			pos += len(tk.Text)
			switch tk.Kind {
			case Punct:
				if utf8.RuneCountInString(tk.Text) != 1 || !utf8.ValidString(tk.Text) {
					t.Fatalf("punct token %q is not one valid rune", tk.Text)
				}
			case Space:
				if strings.TrimSpace(tk.Text) != "" || !utf8.ValidString(tk.Text) {
					t.Fatalf("space token %q holds non-space", tk.Text)
				}
			}
		}
		if pos != len(s) {
			t.Fatalf("not lossless: tokens of %q cover %d of %d bytes", s, pos, len(s))
		}
		sc.Reset(s)
		for i := 0; ; i++ {
			tk, ok := sc.Next()
			if !ok {
				if i != len(ts) {
					t.Fatalf("Scanner gave %d tokens of %q, Tokenize %d", i, s, len(ts))
				}
				break
			}
			if i >= len(ts) || tk != ts[i] {
				t.Fatalf("Scanner token %d of %q is %v, Tokenize disagrees", i, s, tk)
			}
		}
		if sc.work > maxWorkPerByte*len(s) {
			t.Fatalf("examined %d bytes for %d of %q", sc.work, len(s), s)
		}
		if len(s) <= 4<<10 {
			if want := oracleTokenize(s); !sameTokens(ts, want) {
				t.Fatalf("Tokenize(%q) = %q, old tokenizer %q", s, ts, want)
			}
		}
	})
}

// checkPart checks token i's piece structure: a Host is followed by a
// Clitic, a Clitic follows a Host or a Clitic and is a clitic form, the
// pieces of a word share its Whole and spell it, and a Single token's
// Whole is its Text.
func checkPart(t *testing.T, s string, ts []Token, i int) {
	tk := ts[i]
	switch tk.Part {
	case Single:
		if tk.Whole != tk.Text {
			t.Fatalf("single token %q of %q has Whole %q", tk.Text, s, tk.Whole)
		}
	case Host:
		if i+1 >= len(ts) || ts[i+1].Part != Clitic || tk.Kind != Word {
			t.Fatalf("host %q of %q is not followed by a clitic", tk.Text, s)
		}
		spelled := tk.Text
		for _, c := range ts[i+1:] {
			if c.Part != Clitic {
				break
			}
			if c.Whole != tk.Whole {
				t.Fatalf("pieces of %q disagree on their word: %q, %q", s, tk.Whole, c.Whole)
			}
			spelled += c.Text
		}
		if spelled != tk.Whole {
			t.Fatalf("pieces of %q spell %q, not their word %q", s, spelled, tk.Whole)
		}
	case Clitic:
		if i == 0 || ts[i-1].Part == Single || tk.Kind != Word {
			t.Fatalf("clitic %q of %q has no host", tk.Text, s)
		}
		switch Key(tk.Text) {
		case "n't", "'s", "'m", "'re", "'ll", "'ve", "'d":
		default:
			t.Fatalf("clitic piece %q of %q is not a clitic form", tk.Text, s)
		}
	default:
		t.Fatalf("token %q of %q has part %d", tk.Text, s, tk.Part)
	}
}

// TestAppendKey: AppendKey forms exactly Key's string, for case, the
// typographic apostrophe, non-ASCII letters and invalid UTF-8; IsKey is
// never wrong when it says yes; no key is over MaxKeyShrink times shorter.
func TestAppendKey(t *testing.T) {
	for _, w := range []string{"", "the", "The", "DON’T", "don't", "Straße", "İstanbul", "ΣΊΣΥΦΟΣ", "I’M", "\xff\xfeA", "a’’b", strings.Repeat("Ab", 40), "\u212a\u212a", "’’", "abc", "it's"} {
		if got, want := string(AppendKey(nil, w)), Key(w); got != want {
			t.Errorf("AppendKey(%q) = %q, Key = %q", w, got, want)
		}
		if IsKey(w) && Key(w) != w {
			t.Errorf("IsKey(%q), but Key is %q", w, Key(w))
		}
		if len(w) > MaxKeyShrink*len(Key(w)) {
			t.Errorf("Key(%q) = %q is more than %d times shorter", w, Key(w), MaxKeyShrink)
		}
	}
}
