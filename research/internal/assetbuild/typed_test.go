package assetbuild

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/binarize"
)

// typedFixture: a fake source, a ranking that puts rare source words and
// missing words ("lol", "n't", "5") first, a corpus in which the missing
// words occur in context, and an exclusion list.
func typedFixture(t *testing.T) ([]byte, Config) {
	src, words, _ := fakeWink(t, 520, 16, 7)
	var plain []string
	for _, w := range words {
		if binarize.PlainWord(w) {
			plain = append(plain, w)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	ranking := []string{"lol", "zzrare", "don't"} // zzrare is never seen: not induced; don't is split by the tokenizer: skipped
	ranking = append(ranking, plain[400:440]...)
	ranking = append(ranking, plain[:360]...)
	var docs [][]string
	for range 300 {
		doc := make([]string, 12)
		for i := range doc {
			doc[i] = plain[r.IntN(200)]
		}
		doc[4], doc[8] = "lol", "n't"
		doc[10] = "5"
		docs = append(docs, doc)
	}
	cfg := testConfig()
	cfg.Presets = false
	cfg.TypedText = &TypedText{
		Ranking:       ranking,
		Required:      []string{"n't", "5", "never-seen"},
		Corpus:        func(fn func([]string) error) error { return eachDoc(docs, fn) },
		MinCount:      5,
		SourceWords:   520,
		Exclude:       []string{plain[401], "LOL"},
		ExcludeSource: "test", ExcludeLicence: "CC0-1.0",
		RankingSource: "test ranking", CorpusSource: "test corpus",
	}
	return src, cfg
}

func eachDoc(docs [][]string, fn func([]string) error) error {
	for _, d := range docs {
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

func TestTypedTextVocabulary(t *testing.T) {
	src, cfg := typedFixture(t)
	a, err := Build(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != cfg.Words {
		t.Fatalf("%d words, want %d", a.Len(), cfg.Words)
	}
	// Ranking order first; missing words induced; required ones in.
	if a.Word(0) != "lol" || slices.Contains(a.WordList(), "zzrare") || slices.Contains(a.WordList(), "don't") || slices.Contains(a.WordList(), "never-seen") {
		t.Fatalf("vocabulary head %v", a.WordList()[:5])
	}
	for _, w := range []string{"n't", "5"} {
		if !slices.Contains(a.WordList(), w) {
			t.Errorf("required word %q missing", w)
		}
	}
	// Codes come from the projection trained on the first Words source
	// words: a source word keeps the code the plain build gives it.
	plainCfg := cfg
	plainCfg.TypedText = nil
	p, err := Build(src, plainCfg)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i, w := range a.WordList() {
		if j, ok := p.Lookup(w); ok {
			if a.Codes[i] != p.Codes[j] {
				t.Fatalf("%q: code differs from the plain build", w)
			}
			same++
		}
	}
	if same < cfg.Words-50 {
		t.Fatalf("only %d shared words", same)
	}
	// Exclusion: lower-cased list matched against the vocabulary.
	x := a.Header.Excluded
	if x == nil || x.Licence != "CC0-1.0" || len(x.IDs) != 2 || a.Word(int(x.IDs[0])) != "lol" {
		t.Fatalf("excluded %+v", x)
	}
	// Deterministic and valid.
	b1, err := wva.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := Build(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if b2, _ := wva.Marshal(a2); !bytes.Equal(b1, b2) {
		t.Fatal("two typed-text builds differ")
	}
}

func TestTypedTextConfigErrors(t *testing.T) {
	src, cfg := typedFixture(t)
	for name, mutate := range map[string]func(*TypedText){
		"no ranking":         func(tt *TypedText) { tt.Ranking = nil },
		"no corpus":          func(tt *TypedText) { tt.Corpus = nil },
		"min count 0":        func(tt *TypedText) { tt.MinCount = 0 },
		"source below words": func(tt *TypedText) { tt.SourceWords = 10 },
		"too many required":  func(tt *TypedText) { tt.Required = make([]string, 1000) },
	} {
		c := cfg
		tt := *cfg.TypedText
		mutate(&tt)
		c.TypedText = &tt
		if _, err := Build(src, c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestFitBudget(t *testing.T) {
	per := []uint64{0, 4, 6, 10, 20} // ordered: 0, 2, 3, 5, 10 unordered pairs
	for _, c := range []struct {
		budget uint64
		want   uint32
	}{{0, 4}, {1, 0}, {2, 1}, {4, 1}, {5, 2}, {10, 3}, {19, 3}, {20, 4}, {1000, 4}} {
		if got := fitBudget(per, c.budget); got != c.want {
			t.Errorf("budget %d: radius %d, want %d", c.budget, got, c.want)
		}
	}
}
