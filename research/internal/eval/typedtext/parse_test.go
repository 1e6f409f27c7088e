package typedtext

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func readFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseSubtlex(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []WordFreq
		err  bool
	}{
		{"fixture merges case and sorts", readFixture(t, "subtlex.json"),
			[]WordFreq{{"you", 50}, {"i", 42}, {"lol", 7}, {"okay", 7}}, false},
		{"empty array", `[]`, []WordFreq{}, false},
		{"not an array", `{"word":"a","count":1}`, nil, true},
		{"negative count", `[{"word":"a","count":-1}]`, nil, true},
		{"fractional count", `[{"word":"a","count":1.5}]`, nil, true},
		{"missing count", `[{"word":"a"}]`, nil, true},
		{"blank word", `[{"word":" ","count":1}]`, nil, true},
		{"overflow on merge", `[{"word":"A","count":9223372036854775807},{"word":"a","count":1}]`, nil, true},
		{"unterminated", `[{"word":"a","count":1}`, nil, true},
		{"trailing data", `[] []`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSubtlex(strings.NewReader(tc.in))
			if tc.err {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("err = %v, want ErrFormat", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseBrown(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  bool
	}{
		{"fixture", readFixture(t, "brown_c_fixture"),
			[]string{`The cat said " hi " .`, `It wasn't 1 , ok ?`}, false},
		{"slash inside word", "\tand/or/cc x/nn\n", []string{"and/or x"}, false},
		{"blank only", "\n\n\t\n", nil, false},
		{"no tag", "\tword\n", nil, true},
		{"empty tag", "\tword/\n", nil, true},
		{"empty word", "\t/nn\n", nil, true},
		{"line too long", "\t" + strings.Repeat("a", maxLineBytes+1) + "/nn\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			err := parseBrown(strings.NewReader(tc.in), func(s string) error { got = append(got, s); return nil })
			if tc.err {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("err = %v, want ErrFormat", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseStringArray(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
		err  bool
	}{
		{"fixture", readFixture(t, "nlp-doc.json"),
			[]string{"ok lor, c u there", "Could you pick up the milk on your way home?", "", "lol thx ur the best"}, false},
		{"number element", `["a", 1]`, nil, true},
		{"null element", `["a", null]`, nil, true},
		{"object", `{}`, nil, true},
		{"truncated", `["a"`, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			err := parseStringArray(strings.NewReader(tc.in), func(s string) error { got = append(got, s); return nil })
			if tc.err {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("err = %v, want ErrFormat", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseCuss(t *testing.T) {
	const head = "export const cuss = {\n"
	tests := []struct {
		name string
		in   string
		want []Profane
		err  bool
	}{
		{"fixture", readFixture(t, "cuss-index.js"),
			[]Profane{{"blorp", 0}, {"blorp blorp", 2}, {"zib's", 1}, {"zonk", 2}}, false},
		{"escaped quote", head + `  'it\'s': 1` + "\n}\n", []Profane{{"it's", 1}}, false},
		{"no header", "  a: 1\n}\n", nil, true},
		{"unclosed", head + "  a: 1,\n", nil, true},
		{"rating 3", head + "  a: 3\n}\n", nil, true},
		{"no colon", head + "  a 1\n}\n", nil, true},
		{"bare key with space", head + "  a b: 1\n}\n", nil, true},
		{"bad escape", head + `  'a\n': 1` + "\n}\n", nil, true},
		{"unescaped quote", head + `  'a'b': 1` + "\n}\n", nil, true},
		{"text after map", head + "  a: 1\n}\nexport default cuss\n", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseCuss(strings.NewReader(tc.in))
			if tc.err {
				if !errors.Is(err, ErrFormat) {
					t.Fatalf("err = %v, want ErrFormat", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSimpleWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Don't STOP, 'em all!", []string{"don't", "stop", "em", "all"}},
		{"It’s 2 a.m. lol", []string{"it's", "2", "a", "m", "lol"}},
		{"''' --- ", nil},
		{"Café naïve", []string{"café", "naïve"}},
	}
	for _, tc := range tests {
		if got := simpleWords(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("simpleWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIsHeldOutMember(t *testing.T) {
	for name, want := range map[string]bool{
		"package/builds/doc-0.json":  true,
		"package/builds/doc-29.json": true,
		"package/builds/doc-30.json": false,
		"package/builds/doc-99.json": false,
		"package/builds/doc-05.json": false,
		"package/builds/doc-.json":   false,
		"package/builds/doc-1.js":    false,
		"package/README.md":          false,
	} {
		if got := isHeldOutMember(name); got != want {
			t.Errorf("isHeldOutMember(%q) = %v, want %v", name, got, want)
		}
	}
}

func FuzzParseSubtlex(f *testing.F) {
	f.Add(readFixture(f, "subtlex.json"))
	f.Add(`[{"word":"A","count":9223372036854775807},{"word":"a","count":1}]`)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := parseSubtlex(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v is not ErrFormat", err)
			}
			return
		}
		for i, e := range got {
			if e.Count < 0 || e.Word != strings.ToLower(e.Word) || strings.TrimSpace(e.Word) == "" {
				t.Fatalf("bad entry %v", e)
			}
			if i > 0 && (got[i-1].Count < e.Count || got[i-1].Count == e.Count && got[i-1].Word >= e.Word) {
				t.Fatalf("not sorted at %d: %v, %v", i, got[i-1], e)
			}
		}
	})
}

func FuzzParseBrown(f *testing.F) {
	f.Add(readFixture(f, "brown_c_fixture"))
	f.Add("\tand/or/cc\n\t/nn\n")
	f.Fuzz(func(t *testing.T, in string) {
		err := parseBrown(strings.NewReader(in), func(s string) error {
			if s == "" || strings.ContainsAny(s, "\n\t") || strings.Contains(s, "  ") {
				t.Fatalf("bad sentence %q", s)
			}
			return nil
		})
		if err != nil && !errors.Is(err, ErrFormat) {
			t.Fatalf("error %v is not ErrFormat", err)
		}
	})
}

func FuzzParseStringArray(f *testing.F) {
	f.Add(readFixture(f, "nlp-doc.json"))
	f.Add(`["a\u00e9\ud800", "b"]`)
	f.Fuzz(func(t *testing.T, in string) {
		err := parseStringArray(strings.NewReader(in), func(s string) error {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8 %q", s)
			}
			return nil
		})
		if err != nil && !errors.Is(err, ErrFormat) {
			t.Fatalf("error %v is not ErrFormat", err)
		}
	})
}

func FuzzParseCuss(f *testing.F) {
	f.Add(readFixture(f, "cuss-index.js"))
	f.Add("export const cuss = {\n  'it\\'s': 1\n}\n")
	f.Fuzz(func(t *testing.T, in string) {
		got, err := parseCuss(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v is not ErrFormat", err)
			}
			return
		}
		for _, p := range got {
			if strings.TrimSpace(p.Word) == "" || p.Rating < 0 || p.Rating > 2 {
				t.Fatalf("bad entry %v", p)
			}
		}
	})
}

func FuzzSimpleWords(f *testing.F) {
	f.Add("Don't STOP, 'em all! It’s 2 a.m.")
	f.Fuzz(func(t *testing.T, in string) {
		for _, w := range simpleWords(in) {
			if w == "" || w[0] == '\'' || w[len(w)-1] == '\'' || strings.ContainsAny(w, " \t\n.,!?") {
				t.Fatalf("bad word %q from %q", w, in)
			}
		}
	})
}
