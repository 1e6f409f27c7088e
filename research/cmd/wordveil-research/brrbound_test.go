package main

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBRRBoundGo: eval brrbound-go writes each line's top-1 interval and,
// where the line records one, its top-5 interval, as gofmt'd Go; a line
// whose top-5 interval is not one is an error.
func TestBRRBoundGo(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	old := `{"kind":"brr-bound","level":"strong","epsilon":0.4,"lo":0.1,"hi":0.14,"draws":8,"delta":0.025,"asset_sha256":"` + sha + `"}`
	cur := `{"kind":"brr-bound","level":"balanced","epsilon":0.5,"lo":0.3,"hi":0.33,"top5":{"lo":0.5,"hi":0.56,"fitted":0.51,"plug_in":0.55},"draws":8,"delta":0.025,"asset_sha256":"` + sha + `"}`
	bad := `{"kind":"brr-bound","level":"light","epsilon":0.6,"lo":0.6,"hi":0.63,"top5":{"lo":0.7,"hi":0.6},"draws":8,"delta":0.025,"asset_sha256":"` + sha + `"}`
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string // substrings of the output, in order
		err   bool
	}{
		{"old line: top-1 only", []string{old}, []string{`level: "strong", epsilon: 0.4, lo: 0.1, hi: 0.14, draws: 8,`}, false},
		{"top-5 recorded", []string{cur, old}, []string{
			`level: "strong", epsilon: 0.4, lo: 0.1, hi: 0.14, draws: 8,`,
			`level: "balanced", epsilon: 0.5, lo: 0.3, hi: 0.33, lo5: 0.5, hi5: 0.56, draws: 8,`}, false},
		{"top-5 not an interval", []string{bad}, nil, true},
	} {
		path := filepath.Join(dir, "r.jsonl")
		if err := os.WriteFile(path, []byte(strings.Join(tc.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		err := evalBRRBoundGo([]string{"-results", path}, &out, &errb)
		if (err != nil) != tc.err {
			t.Errorf("%s: err = %v, want error: %v", tc.name, err, tc.err)
			continue
		}
		if tc.err {
			continue
		}
		got := out.String()
		rest := got
		for _, w := range tc.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s: output lacks %q (in order):\n%s", tc.name, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		if f, err := format.Source(out.Bytes()); err != nil || string(f) != got {
			t.Errorf("%s: output is not gofmt'd Go (%v):\n%s", tc.name, err, got)
		}
	}
}

// TestFindBRRBound: a stored line measured as the run would measure it
// is kept only if it records the top-5 interval; an older line without
// it, or one measured otherwise, is measured again.
func TestFindBRRBound(t *testing.T) {
	r := brrBoundRecord{Kind: "brr-bound", Level: "strong", Epsilon: 0.4, Draws: 8, Tau: 1e-3, Delta: 0.025, Seed: 1, AssetSHA256: "x", Prior: "p"}
	withTop5 := r
	withTop5.Lo, withTop5.Hi, withTop5.Top5 = 0.1, 0.2, &brrBoundSide{Lo: 0.3, Hi: 0.4}
	otherDraws := withTop5
	otherDraws.Draws = 16
	for _, tc := range []struct {
		name string
		old  []brrBoundRecord
		keep bool
	}{
		{"same, with top-5", []brrBoundRecord{withTop5}, true},
		{"same, without top-5", []brrBoundRecord{r}, false},
		{"other draws", []brrBoundRecord{otherDraws}, false},
	} {
		got, ok := findBRRBound(tc.old, r)
		if ok != tc.keep || ok && got.Top5 == nil {
			t.Errorf("%s: kept %v (%+v), want %v", tc.name, ok, got, tc.keep)
		}
	}
}
