package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/wordveil/wordveil/core"
)

// run runs the pipeline on Prism and fails the test on an error.
func run(t testing.TB, o Options) Counts {
	t.Helper()
	c, err := Run(context.Background(), o, "")
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return c
}

// readJSONL reads every line of the files matching dir/prefix-*.jsonl,
// in file-name order, decoding each into a new T.
func readJSONL[T any](t testing.TB, dir, prefix string) []T {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, prefix+"-*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var out []T
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			var v T
			if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
				t.Fatalf("%s: %v", n, err)
			}
			out = append(out, v)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return out
}

// runs returns the lower-case maximal runs of letters and digits in text.
// The SDK's tokenizer is internal to it (a data team's pipeline cannot
// import it), so the leak check below uses this test-local cut instead. It
// cuts finer than the tokenizer ("don't" is "don" and "t"), and so both
// sides are cut the same way: the input's runs that no vocabulary word
// contains (unreachable) can come out of no mechanism, and none may appear
// among the output's runs.
func runs(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// unreachable returns the runs of text that no vocabulary word contains:
// the engine privatizes them as out of vocabulary, never by passing them
// through, and no vocabulary word it outputs brings them back.
func unreachable(text string, vocabRuns map[string]bool) []string {
	var out []string
	for _, r := range runs(text) {
		if !vocabRuns[r] {
			out = append(out, r)
		}
	}
	return out
}

// The acceptance test of the pipeline at scale: a generated corpus of at
// least a million words (30,000 with -short) from 1,200 users whose record
// counts are Zipf-skewed, over several files (one gzip-compressed), run on
// Prism with a cap of 2,000 words per user and withheld records written as
// placeholders. Every record comes out exactly once, privatized or
// withheld; no token outside the vocabulary reaches the output; each
// user's summary is the exact sum of the charges of the released records
// and within the cap; and the records released are exactly those the
// greedy (source, line) rule grants, recomputed here with the SDK.
func TestPipelineCorpus(t *testing.T) {
	words, users := 1_000_000, 1200
	if testing.Short() {
		words = 30_000
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	c := genCorpus(t, in, words, users, 8, 28)
	if c.words < words || c.users < 1000 {
		t.Fatalf("generated %d words for %d users", c.words, c.users)
	}
	// The skew: the busiest user has far more records than the median one.
	perUser := map[string][]record{}
	for _, r := range c.records {
		perUser[r.User] = append(perUser[r.User], r)
	}
	counts := make([]int, 0, len(perUser))
	for _, rs := range perUser {
		counts = append(counts, len(rs))
	}
	sort.Ints(counts)
	if top, med := counts[len(counts)-1], counts[len(counts)/2]; top < 20*med {
		t.Fatalf("record counts are not skewed: top %d, median %d", top, med)
	}
	t.Logf("%d words, %d records, %d users; records per user: median %d, max %d", c.words, len(c.records), len(perUser), counts[len(counts)/2], counts[len(counts)-1])

	const capWords = 2000
	o := Options{Input: filepath.Join(in, "*"), Output: filepath.Join(dir, "out"), CapWords: capWords, OverCap: OverCapPlaceholder}
	got := run(t, o)

	p, err := core.Open(core.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	capLoss, err := core.WordCap(capWords, p.Info().WordCost)
	if err != nil {
		t.Fatal(err)
	}
	outs := readJSONL[Output](t, o.Output, recordsPrefix)
	byKey := make(map[string]Output, len(outs))
	for _, out := range outs {
		k := recordKey(out.User, out.Source, out.Line)
		if _, dup := byKey[k]; dup {
			t.Fatalf("record %s line %d written twice", out.Source, out.Line)
		}
		byKey[k] = out
	}
	if len(byKey) != len(c.records) {
		t.Fatalf("%d records written, want %d", len(byKey), len(c.records))
	}
	sums := readJSONL[Summary](t, o.Output, budgetPrefix)
	sumOf := map[string]Summary{}
	for _, s := range sums {
		sumOf[s.User] = s
	}
	if len(sumOf) != len(perUser) {
		t.Fatalf("%d users in the budget files, want %d", len(sumOf), len(perUser))
	}

	vocabRuns := vocabularyRuns(t)
	// A control: the run check sees each planted token that is one run.
	// (The runs of an e-mail address or a URL are ordinary words; the
	// check of the planted tokens' raw text below sees those whole.)
	for _, tk := range oovTokens {
		if rs := runs(tk); len(rs) == 1 && len(unreachable(tk, vocabRuns)) == 0 {
			t.Fatalf("the leak check cannot see %q: it is in a vocabulary word", tk)
		}
	}
	leaks, released, withheld := 0, 0, 0
	for user, rs := range perUser {
		sort.Slice(rs, func(i, j int) bool {
			if rs[i].Source != rs[j].Source {
				return rs[i].Source < rs[j].Source
			}
			return rs[i].Line < rs[j].Line
		})
		want, _ := core.NewTally(capLoss) // the greedy rule, recomputed with the SDK's Cost
		spent, _ := core.NewTally(0)      // the exact sum of the released records' charges
		s := sumOf[user]
		wordsOut := 0
		for _, r := range rs {
			acc, err := p.Cost(r.Text)
			if err != nil {
				t.Fatal(err)
			}
			grant, err := want.Charge(acc.UnitFree)
			if err != nil {
				t.Fatal(err)
			}
			out := byKey[recordKey(r.User, r.Source, r.Line)]
			switch {
			case grant && out.Status != StatusReleased, !grant && out.Status != StatusWithheld:
				t.Fatalf("%s line %d: status %q, but the greedy rule grants it: %v", r.Source, r.Line, out.Status, grant)
			case !grant:
				withheld++
				if out.Text != "•" || out.Words != 0 || out.UnitFree != nil {
					t.Fatalf("withheld record written as %+v", out)
				}
				continue
			}
			released++
			if out.UnitFree == nil || *out.UnitFree != acc.UnitFree || out.Words != acc.Words {
				t.Fatalf("%s line %d: charged %v for %d words, Cost says %v for %d", r.Source, r.Line, out.UnitFree, out.Words, acc.UnitFree, acc.Words)
			}
			if _, err := spent.Charge(*out.UnitFree); err != nil {
				t.Fatal(err)
			}
			wordsOut += out.Words
			outToks := map[string]bool{}
			for _, tk := range runs(out.Text) {
				outToks[tk] = true
			}
			for _, tk := range unreachable(r.Text, vocabRuns) {
				if outToks[tk] {
					leaks++
					t.Errorf("%s line %d: the out-of-vocabulary token %q is in the output", r.Source, r.Line, tk)
				}
			}
			for _, raw := range oovTokens {
				if strings.Contains(strings.ToLower(out.Text), strings.ToLower(raw)) {
					t.Errorf("%s line %d: %q passed through", r.Source, r.Line, raw)
				}
			}
		}
		switch {
		case s.Records != len(rs) || s.Released+s.Withheld != len(rs):
			t.Fatalf("user %s: summary %+v for %d records", user, s, len(rs))
		case s.Spent == nil || *s.Spent != spent.Spent():
			t.Fatalf("user %s: summary spent %v, the released records' charges sum to %v", user, s.Spent, spent.Spent())
		case *s.Spent > capLoss || s.Words > capWords || s.Words != wordsOut:
			t.Fatalf("user %s: spent %v for %d words (released %d), over the cap %v (%d words)", user, *s.Spent, s.Words, wordsOut, capLoss, capWords)
		case s.Cap == nil || *s.Cap != capLoss || s.CapWords == nil || *s.CapWords != capWords:
			t.Fatalf("user %s: summary cap %v / %v words", user, s.Cap, s.CapWords)
		}
	}
	if leaks > 0 {
		t.Fatalf("%d out-of-vocabulary tokens in the output", leaks)
	}
	want := Counts{RecordsRead: int64(len(c.records)), Released: int64(released), Withheld: int64(withheld), Users: int64(len(perUser))}
	if got.RecordsRead != want.RecordsRead || got.Released != want.Released || got.Withheld != want.Withheld || got.Users != want.Users {
		t.Fatalf("counters %+v, want %+v", got, want)
	}
	if withheld == 0 || got.UsersCapped == 0 {
		t.Fatal("no record was withheld: the cap was not exercised")
	}
	t.Logf("released %d, withheld %d records; %d users capped", released, withheld, got.UsersCapped)
}

// vocabularyRuns returns the runs of the embedded asset's words.
func vocabularyRuns(t testing.TB) map[string]bool {
	t.Helper()
	a, err := assetsDefault()
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]bool, len(a))
	for _, w := range a {
		for _, r := range runs(w) {
			m[r] = true
		}
	}
	return m
}

// recordKey is a record's key in the tests' maps: the
// user, the source and the line, each length-prefixed so that no two
// records share a key whatever bytes their user keys and paths hold.
func recordKey(user, source string, line int64) string {
	var b bytes.Buffer
	b.Grow(len(user) + len(source) + 32)
	b.WriteString(strconv.Itoa(len(user)))
	b.WriteByte(':')
	b.WriteString(user)
	b.WriteString(strconv.Itoa(len(source)))
	b.WriteByte(':')
	b.WriteString(source)
	b.WriteString(strconv.FormatInt(line, 10))
	return b.String()
}
