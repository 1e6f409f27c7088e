package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/wordveil/wordveil/internal/progress"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
)

// Config is one study.
type Config struct {
	Env         *Env
	Train, Test *Corpus
	Mechanisms  []string  // default DefaultMechanisms
	Grid        []float64 // Euclidean ε grid, default DefaultEuclideanGrid
	Runs        int       // default 5
	// PoolK caps the draws per word type per run for the pooled
	// mechanisms (see the package doc); 0 means fresh draws everywhere.
	// tem-pool always uses TEMPoolK.
	PoolK      int
	Seed       uint64
	Classifier fasttext.Config
	// DeniabilityWords words (uniform over the vocabulary, seeded) ×
	// DeniabilityDraws draws per grid point; defaults 100 × 100 (the
	// 1-Diffractor paper's protocol, docs/MECHANISMS.md).
	DeniabilityWords, DeniabilityDraws int
	Results                            string // JSON-lines results file
	Workers                            int    // ≤ 0: all cores
	Log                                io.Writer
}

func (c *Config) defaults() {
	if len(c.Mechanisms) == 0 {
		c.Mechanisms = DefaultMechanisms
	}
	if len(c.Grid) == 0 {
		c.Grid = DefaultEuclideanGrid
	}
	if c.Runs <= 0 {
		c.Runs = 5
	}
	if c.DeniabilityWords <= 0 {
		c.DeniabilityWords = 100
	}
	if c.DeniabilityDraws <= 0 {
		c.DeniabilityDraws = 100
	}
	if c.Workers <= 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// task is one unit of work: a training cell, a baseline run or a
// deniability estimate.
type task struct {
	kind string
	spec *Spec
	e    int // grid index
	run  int
}

// Run runs the study, skipping the cells already in the results file, and
// appends each finished cell to it. It stops between cells when ctx is
// cancelled (the results so far are kept) and returns ctx's error.
func Run(ctx context.Context, cfg Config) error {
	cfg.defaults()
	specs, err := Specs(cfg.Env, cfg.Mechanisms, cfg.Grid)
	if err != nil {
		return err
	}
	fps := cfg.fingerprints(specs)
	old, err := ReadRecords(cfg.Results)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	var otherConfig, otherSpec int
	for _, r := range old {
		want, asked := fps.want(r)
		switch {
		case r.Config != fps.common:
			otherConfig++
		case !asked:
			// A mechanism this run does not ask for: kept in the file,
			// neither reused nor stale.
		case r.Fingerprint == want:
			done[r.key()] = true
		default:
			otherSpec++
		}
	}
	if n := otherConfig + otherSpec; n > 0 {
		fmt.Fprintf(cfg.Log, "study: %d records in %s are from another configuration and are not reused (%d: another asset, corpus, seed, classifier or deniability protocol; %d: another ε grid or pool of the same mechanism)\n",
			n, cfg.Results, otherConfig, otherSpec)
	}
	out, err := openAppender(cfg.Results)
	if err != nil {
		return err
	}
	defer out.close()

	ratios := []string{"euclidean", "hamming", "list", "lists"}
	for _, name := range ratios {
		r := cfg.Env.Ratios[name]
		rec := Record{Kind: "ratio", Metric: name, Avg: r.Avg, AvgLo: r.AvgLo, AvgHi: r.AvgHi, Max: r.Max, Exact: r.Exact, Fingerprint: fps.common, Config: fps.common}
		if !done[rec.key()] {
			if err := out.add(rec); err != nil {
				return err
			}
		}
	}

	// The task list, run-major so an interrupted study has whole curves
	// with fewer runs.
	var tasks []task
	for run := range cfg.Runs {
		if t := (task{kind: "baseline", run: run}); !done[t.record(fps).key()] {
			tasks = append(tasks, t)
		}
		for i := range specs {
			for e := range specs[i].Eps {
				if run == 0 {
					if t := (task{kind: "deniability", spec: &specs[i], e: e}); !done[t.record(fps).key()] {
						tasks = append(tasks, t)
					}
				}
				if t := (task{kind: "accuracy", spec: &specs[i], e: e, run: run}); !done[t.record(fps).key()] {
					tasks = append(tasks, t)
				}
			}
		}
	}
	if len(tasks) == 0 {
		fmt.Fprintf(cfg.Log, "study: all %d cells are in %s\n", len(done), cfg.Results)
		return nil
	}
	fmt.Fprintf(cfg.Log, "study: %d cells to run (%d already in %s), %d workers, pool K = %d\n", len(tasks), len(done), cfg.Results, cfg.Workers, cfg.PoolK)

	// The law mechanisms' corpora (TEM, SynTF, SanText on floats) come
	// from one pass over the word types (a type's utility vector serves
	// every ε, its table every run); compute them first if needed.
	pass, err := cfg.passIfNeeded(ctx, tasks)
	if err != nil {
		return err
	}

	bar := progress.New(cfg.Log, "study", len(tasks))
	var (
		mu       sync.Mutex
		finished int
		firstErr error
	)
	ch := make(chan task)
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range ch {
				rec, err := cfg.runTask(t, fps, pass)
				if err == nil {
					err = out.add(rec)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s %s ε#%d run %d: %w", t.kind, t.name(), t.e, t.run, err)
				}
				finished++
				bar.Set(finished)
				mu.Unlock()
			}
		}()
	}
	for _, t := range tasks {
		mu.Lock()
		failed := firstErr != nil
		mu.Unlock()
		if failed || ctx.Err() != nil {
			break
		}
		select {
		case ch <- t:
		case <-ctx.Done():
		}
	}
	close(ch)
	wg.Wait()
	if ctx.Err() == nil && firstErr == nil {
		bar.Done()
	} else {
		fmt.Fprintf(cfg.Log, "study: stopped after %d of %d cells\n", finished, len(tasks))
	}
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

func (t task) name() string {
	if t.spec == nil {
		return "none"
	}
	return t.spec.Name
}

// record is the task's result record without its measurements (its key).
func (t task) record(fps *fingerprints) Record {
	r := Record{Kind: t.kind, Mechanism: t.name(), EpsIndex: t.e, Run: t.run, Config: fps.common}
	r.Fingerprint, _ = fps.want(r)
	if t.spec != nil {
		r.Family = t.spec.Family
		r.Epsilon = t.spec.Eps[t.e]
		if m := t.spec.Matched[t.e]; !math.IsNaN(m) {
			r.Matched = &m
		}
	}
	return r
}

func (cfg *Config) runTask(t task, fps *fingerprints, pass *passCorpora) (Record, error) {
	start := time.Now()
	rec := t.record(fps)
	label := fmt.Sprintf("%s/%s/%d/%d", t.kind, t.name(), t.e, t.run)
	switch t.kind {
	case "baseline":
		acc, err := cfg.trainTest(cfg.Train.Tokens, t.run)
		if err != nil {
			return rec, err
		}
		rec.Accuracy = acc
	case "deniability":
		s, err := t.spec.Build(cfg.Env, t.e)
		if err != nil {
			return rec, err
		}
		nw, sw, err := deniability(s, cfg.Env.Asset.Len(), cfg.DeniabilityWords, cfg.DeniabilityDraws, cfg.Seed, source(cfg.Seed, label))
		if err != nil {
			return rec, err
		}
		rec.NW, rec.SW = nw, sw
	case "accuracy":
		var tokens []int32
		if t.spec.law != nil { // computed by the corpus pass
			tokens = pass.take(t.spec.Name, t.e, t.run)
			rec.Draws = pass.draws[t.spec.Name]
		} else {
			s, err := t.spec.Build(cfg.Env, t.e)
			if err != nil {
				return rec, err
			}
			var n int
			if tokens, n, err = privatizeCorpus(cfg.Train, s, cfg.poolFor(t.spec), cfg.Env.Asset.Len(), source(cfg.Seed, label)); err != nil {
				return rec, err
			}
			rec.Draws = n
		}
		rec.PoolK = cfg.poolFor(t.spec)
		acc, err := cfg.trainTest(tokens, t.run)
		if err != nil {
			return rec, err
		}
		rec.Accuracy = acc
	default:
		return rec, errors.New("unknown task")
	}
	rec.Seconds = time.Since(start).Seconds()
	return rec, nil
}

// poolFor is the sample pool spec runs with (0: fresh draws).
func (cfg *Config) poolFor(s *Spec) int {
	switch {
	case s.Name == "tem-pool":
		return TEMPoolK
	case s.Pooled:
		return cfg.PoolK
	}
	return 0
}

// trainTest trains the classifier on the training labels with tokens and
// returns its accuracy on the original test corpus. The classifier's seed
// depends on the run only, so runs are paired across mechanisms.
func (cfg *Config) trainTest(tokens []int32, run int) (float64, error) {
	fc := cfg.Classifier
	fc.Seed = fc.Seed*1000 + uint64(run) + 1
	m, err := fasttext.Train(cfg.Train.Docs(tokens), cfg.Env.Asset.Len(), fc)
	if err != nil {
		return 0, err
	}
	return m.Accuracy(cfg.Test.Docs(cfg.Test.Tokens)), nil
}

// deniability runs the plausible-deniability protocol
// (docs/MECHANISMS.md, "Plausible deniability"): words
// uniform over the vocabulary from a seeded sample (the same words for
// every mechanism), draws per word; mean N_w and S_w.
func deniability(s sampler, n, words, draws int, seed uint64, src rand.Source) (float64, float64, error) {
	pick := source(seed, "deniability-words")
	var nw, sw float64
	ws := make([]int, draws)
	ys := make([]int, draws)
	for range words {
		w := sample.UniformInt(pick, n)
		for i := range ws {
			ws[i] = w
		}
		if err := s.drawMany(ws, ys, src); err != nil {
			return 0, 0, err
		}
		seen := map[int]bool{}
		for _, y := range ys {
			if y == w {
				nw++
			}
			seen[y] = true
		}
		sw += float64(len(seen))
	}
	return nw / float64(words*draws), sw / float64(words), nil
}
