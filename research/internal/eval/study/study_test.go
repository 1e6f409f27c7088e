package study

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/imdb"
	"gonum.org/v1/gonum/stat/distuv"
)

// fixture is a small research asset (60 words, d = 8, codes, 2 lists) and
// synthetic reviews whose label is carried by which half of the
// vocabulary they draw from, so privatization at high ε keeps accuracy
// and at low ε destroys it.
func fixture(t *testing.T) (*Env, *Corpus, *Corpus) {
	t.Helper()
	const n, d = 60, 8
	r := rand.New(rand.NewPCG(1, 2))
	a := &wva.Asset{Floats: make([]float32, n*d), Codes: make([]hamming.Code, n)}
	a.Header.Name, a.Header.Dim = "fixture", d
	for w := range n {
		a.SetWords(append(a.WordList(), fmt.Sprintf("w%02d", w)))
		for i := range d {
			// Two clusters: the label halves are far apart.
			c := 0.0
			if w >= n/2 && i == 0 {
				c = 3
			}
			a.Floats[w*d+i] = float32(c + 0.3*r.NormFloat64())
		}
		for i := range a.Codes[w] {
			a.Codes[w][i] = r.Uint64()
		}
	}
	for range 2 {
		order := make([]uint32, n)
		for i, p := range r.Perm(n) {
			order[i] = uint32(p)
		}
		p, err := wva.NewPermutation(order)
		if err != nil {
			t.Fatal(err)
		}
		a.Lists = append(a.Lists, p)
	}
	env, err := NewEnv(a, 1)
	if err != nil {
		t.Fatal(err)
	}
	review := func(label int) imdb.Review {
		var b strings.Builder
		for range 30 {
			w := r.IntN(n / 2)
			if label == 1 {
				w += n / 2
			}
			if r.IntN(4) == 0 {
				w = r.IntN(n)
			}
			fmt.Fprintf(&b, "w%02d ", w)
		}
		b.WriteString("oovword 123 me@example.com")
		return imdb.Review{Text: b.String(), Label: label}
	}
	var train, test []imdb.Review
	for i := range 80 {
		train = append(train, review(i%2))
		test = append(test, review((i+1)%2))
	}
	tr, err := Encode(train, a.Lookup, n)
	if err != nil {
		t.Fatal(err)
	}
	te, err := Encode(test, a.Lookup, n)
	if err != nil {
		t.Fatal(err)
	}
	return env, tr, te
}

func testConfig(env *Env, tr, te *Corpus, results string) Config {
	fc := fasttext.DefaultConfig()
	fc.Buckets = 1 << 10
	return Config{
		Env: env, Train: tr, Test: te, Grid: []float64{0.5, 60}, Runs: 2, PoolK: 3,
		Seed: 7, Classifier: fc, DeniabilityWords: 10, DeniabilityDraws: 20,
		Results: results, Workers: 2,
	}
}

// TestStudyRunsResumesAndIsReproducible runs the study on the fixture,
// interrupted, resumed and rerun into a fresh file with another worker
// count. -short makes one run per cell instead of two and leaves out the
// fresh rerun (every mechanism again: minutes under -race); both are in
// test-full.
func TestStudyRunsResumesAndIsReproducible(t *testing.T) {
	env, tr, te := fixture(t)
	withCusText(t, env)
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	cfg := testConfig(env, tr, te, a)
	if testing.Short() {
		cfg.Runs = 1
	}
	// Interrupt at once: nothing but the ratios is written, no error but
	// the context's.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Run(ctx, cfg); err == nil {
		t.Fatal("a cancelled study reported success")
	}
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadRecords(a)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range recs {
		count[r.Kind]++
	}
	cells := 0
	specs, _ := Specs(env, DefaultMechanisms, cfg.Grid)
	for _, s := range specs {
		cells += len(s.Eps)
	}
	if count["accuracy"] != cells*cfg.Runs || count["deniability"] != cells || count["baseline"] != cfg.Runs || count["ratio"] != 4 {
		t.Fatalf("records %v, want %d accuracy, %d deniability", count, cells*cfg.Runs, cells)
	}
	// Resume: a second run finds everything done and appends nothing.
	if err := Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	again, _ := ReadRecords(a)
	if len(again) != len(recs) {
		t.Fatalf("rerun appended %d records", len(again)-len(recs))
	}
	// Reproducible: a fresh file gives the same accuracies and N_w.
	if !testing.Short() {
		b := filepath.Join(dir, "b.jsonl")
		cfg.Results = b
		cfg.Workers = 1
		if err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		other, _ := ReadRecords(b)
		index := func(rs []Record) map[string]Record {
			m := map[string]Record{}
			for _, r := range rs {
				m[r.key()] = r
			}
			return m
		}
		ia, ib := index(recs), index(other)
		for k, r := range ia {
			if o := ib[k]; o.Accuracy != r.Accuracy || o.NW != r.NW || o.Draws != r.Draws {
				t.Errorf("%s: %+v vs %+v", k, r, o)
			}
		}
	}
	// The study measures something: at high ε the label survives, at
	// low ε (matched) the 1-D mechanisms and Madlib lose most of it.
	var base, high float64
	for _, r := range recs {
		if r.Kind == "baseline" {
			base += r.Accuracy / float64(cfg.Runs)
		}
		if r.Kind == "accuracy" && r.Mechanism == "madlib" && r.EpsIndex == 1 {
			high += r.Accuracy / float64(cfg.Runs)
		}
	}
	if base < 0.9 || high < 0.8 {
		t.Errorf("baseline %.2f, Madlib at ε=60 %.2f: the fixture should be learnable", base, high)
	}
}

func TestResultsFileSurvivesTruncation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := os.WriteFile(path, []byte(`{"kind":"baseline","run":0,"accuracy":0.5,"fingerprint":"x"}`+"\n"+`{"kind":"base`), 0o644); err != nil {
		t.Fatal(err)
	}
	ap, err := openAppender(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ap.add(Record{Kind: "baseline", Run: 1, Accuracy: 0.6, Fingerprint: "x"}); err != nil {
		t.Fatal(err)
	}
	ap.close()
	recs, err := ReadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Run != 1 {
		t.Fatalf("records after a torn line: %+v", recs)
	}
}

// TestTEMExact checks the Euclidean TEM sampler against its closed form,
// Pr[y] ∝ exp(−ε·min(d(w,y), γ)/2), with a chi-square test.
func TestTEMExact(t *testing.T) {
	env, _, _ := fixture(t)
	n := env.Emb.Len()
	for _, eps := range []float64{0.5, 3, 20} {
		m, err := newTEM(env.Emb, eps)
		if err != nil {
			t.Fatal(err)
		}
		const w, draws = 5, 60000
		ws := make([]int, draws)
		for i := range ws {
			ws[i] = w
		}
		ys := make([]int, draws)
		if err := m.drawMany(ws, ys, source(1, "tem-test")); err != nil {
			t.Fatal(err)
		}
		counts := make([]float64, n)
		for _, y := range ys {
			counts[y]++
		}
		dist := make([]float64, n)
		distances(env.Emb, w, dist)
		p := make([]float64, n)
		var z float64
		for y := range p {
			p[y] = math.Exp(-eps * min(dist[y], m.gamma) / 2)
			z += p[y]
		}
		var chi, rest, restExp float64
		cells := 0
		for y := range p {
			e := p[y] / z * draws
			if e < 5 {
				rest += counts[y]
				restExp += e
				continue
			}
			chi += (counts[y] - e) * (counts[y] - e) / e
			cells++
		}
		if restExp >= 5 {
			chi += (rest - restExp) * (rest - restExp) / restExp
			cells++
		}
		if cells < 2 {
			if counts[w] != draws {
				t.Errorf("ε=%v: degenerate distribution but %v of %d draws kept w", eps, counts[w], draws)
			}
			continue
		}
		if crit := (distuv.ChiSquared{K: float64(cells - 1)}).Quantile(1 - 1e-5); chi > crit {
			t.Errorf("ε=%v: χ² = %.1f > %.1f (%d cells)", eps, chi, crit, cells)
		}
	}
}

func TestPrivatizeCorpus(t *testing.T) {
	env, tr, _ := fixture(t)
	s, err := Specs(env, []string{"madlib", "1dg-2"}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range s {
		smp, err := spec.Build(env, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, 2} {
			out, draws, err := privatizeCorpus(tr, smp, k, env.Asset.Len(), source(3, spec.Name))
			if err != nil {
				t.Fatal(err)
			}
			if draws != tr.Draws(k) {
				t.Errorf("%s K=%d: %d draws, want %d", spec.Name, k, draws, tr.Draws(k))
			}
			for i, y := range out {
				if y < 0 || int(y) >= env.Asset.Len() {
					t.Fatalf("%s: token %d → %d (OOV kept or invalid)", spec.Name, i, y)
				}
			}
			// With the pool, a word type has at most K distinct outputs.
			if k > 0 {
				for _, w := range tr.Types {
					seen := map[int32]bool{}
					for _, p := range tr.Positions[w] {
						seen[out[p]] = true
					}
					if len(seen) > k {
						t.Fatalf("%s: type %d has %d outputs with K=%d", spec.Name, w, len(seen), k)
					}
				}
			}
		}
	}
	if tr.Draws(0) != tr.InVocab() {
		t.Errorf("Draws(0) = %d, in-vocabulary tokens %d", tr.Draws(0), tr.InVocab())
	}
	if len(tr.OOV) == 0 {
		t.Error("the fixture has OOV tokens (oovword, 123, an e-mail)")
	}
}

func TestSpecsErrors(t *testing.T) {
	env, _, _ := fixture(t)
	if _, err := Specs(env, []string{"nope"}, []float64{1}); err == nil {
		t.Error("unknown mechanism accepted")
	}
	s, err := Specs(env, []string{"brr-avg", "brr-max"}, []float64{2})
	if err != nil {
		t.Fatal(err)
	}
	euc, ham := env.Ratios["euclidean"], env.Ratios["hamming"]
	if got, want := s[0].Eps[0], 2*euc.Avg/ham.Avg; math.Abs(got-want) > 1e-12 {
		t.Errorf("brr-avg ε = %v, want %v", got, want)
	}
	if got, want := s[1].Eps[0], 2*euc.Max/ham.Max; math.Abs(got-want) > 1e-12 {
		t.Errorf("brr-max ε = %v, want %v", got, want)
	}
}
