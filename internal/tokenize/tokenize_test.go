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
		{"don't stop", "don't| |stop", "wsw"},
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
		"a.a.a.a.", "a@a@a@", "@a@", "(x@y).", "HTTP://A", "wWw.x", "mailto:", "İttp://", "1.1.1.", "x'x'x'", "--", "🙂🙂🙂", "\x00\x00"} {
		f.Add(s)
	}
	var sc Scanner
	f.Fuzz(func(t *testing.T, s string) {
		ts := Tokenize(s)
		pos := 0
		for _, tk := range ts {
			if tk.Text == "" {
				t.Fatalf("empty token in %q", s)
			}
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
