package pipeline

import (
	"testing"
	"unicode/utf8"
)

// parseJSONRecord reads the plain lines and leaves every other one to
// encoding/json (simple false), whatever that makes of it.
func TestParseJSONRecord(t *testing.T) {
	cases := []struct {
		line       string
		user, text string
		simple     bool
	}{
		{`{"user":"u1","text":"hello there"}`, "u1", "hello there", true},
		{" \t{ \"text\" : \"ü ß\" , \"user\":\"a b\" }\r\n ", "a b", "ü ß", true},
		{`{"user":"","text":""}`, "", "", true}, // parseLine refuses the empty user
		{`{"user":"u","text":"a\nb"}`, "", "", false},
		{`{"user":"u","text":"t","extra":1}`, "", "", false},
		{`{"User":"u","text":"t"}`, "", "", false},
		{`{"user":"u","user":"v","text":"t"}`, "", "", false},
		{`{"user":"u"}`, "", "", false},
		{`{"user":"u","text":null}`, "", "", false},
		{`{"user":"u","text":"t"} {}`, "", "", false},
		{`{"user":"u","text":"t"}}`, "", "", false},
		{`{"user":"u","text":"t",}`, "", "", false},
		{"{\"user\":\"u\",\"text\":\"a\tb\"}", "", "", false},
		{`{"user":"u","text":"t`, "", "", false},
		{`{}`, "", "", false},
		{``, "", "", false},
	}
	for _, c := range cases {
		user, text, simple := parseJSONRecord(c.line)
		if user != c.user || text != c.text || simple != c.simple {
			t.Errorf("%q: (%q, %q, %v), want (%q, %q, %v)", c.line, user, text, simple, c.user, c.text, c.simple)
		}
	}
}

// FuzzParseJSONRecord: on every valid UTF-8 line the fast path reads,
// it reads what encoding/json decodes.
func FuzzParseJSONRecord(f *testing.F) {
	for _, s := range []string{`{"user":"u","text":"t"}`, ` {"text":"t", "user":"u"} `, `{"user":"u","text":"t"}}`,
		`{"user":"u","text":"\u00e9"}`, `{"user":"u","USER":"v","text":"t"}`, `{"user":"u","text":"t","text":"x"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if !utf8.ValidString(line) {
			return
		}
		user, text, simple := parseJSONRecord(line)
		if !simple {
			return
		}
		u, x, err := decodeJSONRecord(line)
		if err != nil || u != user || x != text {
			t.Fatalf("%q: fast (%q, %q), encoding/json (%q, %q, %v)", line, user, text, u, x, err)
		}
	})
}
