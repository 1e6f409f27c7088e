package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// parseLine reads both formats, skips blank lines and refuses anything
// else with errMalformed, without quoting the line.
func TestParseLine(t *testing.T) {
	cases := []struct {
		format, line string
		user, text   string
		ok, bad      bool
	}{
		{FormatJSONL, `{"user":"u1","text":"hello there"}`, "u1", "hello there", true, false},
		{FormatJSONL, `{"text":"a\nb","user":"ü","extra":[1,2]}`, "ü", "a\nb", true, false},
		{FormatJSONL, `{"user":"u","text":""}`, "u", "", true, false},
		{FormatJSONL, "   ", "", "", false, false},
		{FormatJSONL, `{"user":"u"}`, "", "", false, true},
		{FormatJSONL, `{"text":"secret words"}`, "", "", false, true},
		{FormatJSONL, `{"user":"","text":"secret words"}`, "", "", false, true},
		{FormatJSONL, `{"user":5,"text":"secret words"}`, "", "", false, true},
		{FormatJSONL, `{"user":"u","text":null}`, "", "", false, true},
		{FormatJSONL, `{"user":"u","text":"secret words"} {}`, "", "", false, true},
		{FormatJSONL, `["u","secret words"]`, "", "", false, true},
		{FormatJSONL, `{"user":"u","text":"secret words`, "", "", false, true},
		{FormatJSONL, "{\"user\":\"u\",\"text\":\"secret \xff\"}", "", "", false, true},
		{FormatTSV, "u1\tthe text\twith a tab", "u1", "the text\twith a tab", true, false},
		{FormatTSV, "u1\t", "u1", "", true, false},
		{FormatTSV, "secret words without a tab", "", "", false, true},
		{FormatTSV, "\tsecret words", "", "", false, true},
	}
	for _, c := range cases {
		user, text, ok, err := parseLine(c.format, c.line)
		switch {
		case c.bad:
			if !errors.Is(err, errMalformed) {
				t.Errorf("%s %q: error %v, want errMalformed", c.format, c.line, err)
			} else if strings.Contains(err.Error(), "secret") {
				t.Errorf("%s %q: the error quotes the text: %v", c.format, c.line, err)
			}
		case err != nil || ok != c.ok || user != c.user || text != c.text:
			t.Errorf("%s %q: (%q, %q, %v, %v), want (%q, %q, %v)", c.format, c.line, user, text, ok, err, c.user, c.text, c.ok)
		}
	}
}

// FuzzParseLine: any line gives a record, a skip or errMalformed, never a
// panic; a record's user is never empty; and a JSON error never quotes
// the line.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{`{"user":"u","text":"t"}`, "u\tt", "", `{"user":"\u0000","text":"\ud800"}`, `{"user":"u","text":"t"}{`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, line string, jsonl bool) {
		format := FormatTSV
		if jsonl {
			format = FormatJSONL
		}
		user, _, ok, err := parseLine(format, line)
		switch {
		case err != nil && !errors.Is(err, errMalformed):
			t.Fatalf("%q: error %v not errMalformed", line, err)
		case ok && user == "":
			t.Fatalf("%q: a record with an empty user", line)
		case err != nil && len(line) > 8 && strings.Contains(err.Error(), line):
			t.Fatalf("%q: the error quotes the line: %v", line, err)
		}
	})
}

// A malformed line fails the run with its file and line and nothing of its
// text; with SkipMalformed it is counted and the run goes on, also past a
// line over MaxRecordBytes; the records around it are privatized.
func TestMalformedLines(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	long := `{"user":"u","text":"` + strings.Repeat("secret ", 200) + `"}`
	body := strings.Join([]string{
		`{"user":"u","text":"the first record"}`,
		`{"user":"u","text":"secret unterminated`,
		long,
		`{"user":"v","text":"the last record"}`,
	}, "\n") + "\n"
	if err := os.WriteFile(in, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Input: in, Output: filepath.Join(dir, "fail"), MaxRecordBytes: 1000}
	if raceEnabled {
		t.Log(beamFailureRace) // the failing run: in the pass without -race
	} else {
		_, err := Run(t.Context(), o, "")
		switch {
		case err == nil:
			t.Fatal("a malformed line did not fail the run")
		case !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "in.jsonl"):
			t.Errorf("the error does not name the file and line: %v", err)
		case strings.Contains(err.Error(), "secret"):
			t.Errorf("the error quotes the text: %v", err)
		}
	}
	o.Output, o.SkipMalformed = filepath.Join(dir, "skip"), true
	c := run(t, o)
	if c.Malformed != 2 || c.RecordsRead != 2 || c.Released != 2 {
		t.Fatalf("counters %+v, want 2 malformed, 2 read, 2 released", c)
	}
	outs := readJSONL[Output](t, o.Output, recordsPrefix)
	lines := map[int64]bool{}
	for _, out := range outs {
		lines[out.Line] = true
		if strings.Contains(out.Text, "secret") {
			t.Errorf("a malformed line's text is in the output: %+v", out)
		}
	}
	if len(outs) != 2 || !lines[1] || !lines[4] {
		t.Fatalf("records of lines %v, want 1 and 4", lines)
	}
}

// The cap's boundary through the whole pipeline: one user's records of
// 1, 2, ..., 6 words in (file, line) order and a cap of N words grant
// exactly the records the greedy rule grants (a record that no longer
// fits is withheld, a later smaller one may still fit); in loss, a cap of
// exactly the sum of the first records' charges grants them and not one
// word more.
func TestCapBoundary(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	texts := []string{"cat", "the cat", "the cat sat", "the cat sat on", "the cat sat on the", "the cat sat on the mat"}
	for _, tx := range texts {
		b.WriteString(`{"user":"u","text":"` + tx + `"}` + "\n")
	}
	in := filepath.Join(dir, "in.jsonl")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		capWords int
		released []int64 // lines
	}{
		{1, []int64{1}},
		{2, []int64{1}},
		{3, []int64{1, 2}},
		{6, []int64{1, 2, 3}},
		{9, []int64{1, 2, 3}},
		{10, []int64{1, 2, 3, 4}},
		{13, []int64{1, 2, 3, 4}},
		{21, []int64{1, 2, 3, 4, 5, 6}},
	}
	for i, c := range cases {
		o := Options{Input: in, Output: filepath.Join(dir, "out", string(rune('a'+i))), CapWords: c.capWords, Seed: 1}
		run(t, o)
		outs := readJSONL[Output](t, o.Output, recordsPrefix)
		var got []int64
		words := 0
		for _, out := range outs {
			got = append(got, out.Line)
			words += out.Words
		}
		if !slices.Equal(got, c.released) || words > c.capWords {
			t.Errorf("cap %d words: released lines %v (%d words), want %v", c.capWords, got, words, c.released)
		}
		sums := readJSONL[Summary](t, o.Output, budgetPrefix)
		if len(sums) != 1 || sums[0].Released != len(c.released) || sums[0].Withheld != len(texts)-len(c.released) {
			t.Errorf("cap %d words: summary %+v", c.capWords, sums)
		}
	}
}
