package plane

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/progress"
	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/eval/fasttext"
	"github.com/wordveil/wordveil/research/internal/eval/study"
)

// Mechanisms are the product's mechanisms with presets, in the table's
// order (the product's default first).
var Mechanisms = []string{
	mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.NameSanText,
	mechanism.Name1DG, mechanism.Name1DT, mechanism.NameCusText,
}

// Baseline names the cell trained and tested on the original reviews.
const Baseline = "none"

// fingerprintVersion changes when the protocol changes results for the
// same configuration, so that old records are not reused.
const fingerprintVersion = 1

// Config is one measurement of the plane.
type Config struct {
	Asset *wva.Asset // the mechanisms and their presets
	Train *study.Corpus
	// Test holds each run's test reviews: run r is scored on Test[r],
	// disjoint from the others (len(Test) ≥ MaxRuns).
	Test       []*study.Corpus
	Mechanisms []string // default Mechanisms; the baseline always runs
	Runs       int      // the base runs of every cell; default len(Test)
	// TargetHalf > 0 adds runs, one at a time, to each cell whose 95%
	// interval under either protocol is wider than it, up to MaxRuns
	// (default Runs). A cell stops as soon as it is narrow enough, which
	// favours runs that happened to agree: keep Runs large enough that
	// the spread is estimated well before the rule applies.
	TargetHalf float64
	MaxRuns    int
	// Seeds is the classifiers trained per run, each with its own seed
	// on the same privatized reviews; a run's accuracy is their mean
	// (default 1). More seeds cost training only, not privatization, and
	// shrink the part of the runs' spread the classifier's seed makes.
	Seeds      int
	Seed       uint64
	Classifier fasttext.Config
	Results    string // JSON-lines results file
	Workers    int    // ≤ 0: 1
	Log        io.Writer
}

// Record is one line of the results file: one run of one cell.
type Record struct {
	Kind      string  `json:"kind"` // "plane"
	Mechanism string  `json:"mechanism"`
	Level     string  `json:"level,omitempty"`
	Epsilon   float64 `json:"epsilon,omitempty"`
	Run       int     `json:"run"`
	// Clean and Privatized are the accuracy on the run's test reviews as
	// they are and privatized (the baseline's are equal), the mean over
	// the run's Seeds classifiers.
	Clean      float64 `json:"clean"`
	Privatized float64 `json:"privatized"`
	Seeds      int     `json:"seeds"`
	// TrainReviews and TestReviews are the reviews trained and scored on;
	// Draws the mechanism draws the run took (training and test).
	TrainReviews int     `json:"train_reviews"`
	TestReviews  int     `json:"test_reviews"`
	Draws        int     `json:"draws,omitempty"`
	Seconds      float64 `json:"seconds,omitempty"`
	// Asset is the hex SHA-256 of the asset whose preset was run, so the
	// report can tell a record of the current presets from a stale one.
	Asset string `json:"asset"`
	// Fingerprint covers the common configuration (Config), the cell's
	// mechanism, level and ε, and the run's test slice.
	Fingerprint string `json:"fingerprint"`
	Config      string `json:"config"`
}

// ReadRecords reads a results file; a missing file has none.
func ReadRecords(path string) ([]Record, error) { return study.ReadLines[Record](path) }

// Cell is one mechanism at one level (Level "" for the baseline).
type Cell struct {
	Mech, Level string
	Eps         float64
}

// Cells returns the baseline and then mechs × the named levels at a's
// presets (a level the asset has no preset for has no cell).
func Cells(a *wva.Asset, mechs []string) ([]Cell, error) {
	cells := []Cell{{Mech: Baseline}}
	for _, m := range mechs {
		if m == Baseline {
			continue
		}
		for _, level := range study.PresetLevels {
			eps, err := mechanism.Preset(a, m, level)
			if errors.Is(err, mechanism.ErrNoPreset) && a != nil && a.Header.Presets != nil {
				continue // a level the calibration could not reach: not offered
			}
			if err != nil {
				return nil, fmt.Errorf("plane: %w", err)
			}
			cells = append(cells, Cell{m, level, eps})
		}
	}
	return cells, nil
}

// AssetID is the hex SHA-256 a record names its asset by.
func AssetID(a *wva.Asset) string {
	sum := a.SHA256()
	return hex.EncodeToString(sum[:])
}

func (c *Config) common() string {
	b, _ := json.Marshal(struct {
		Version    int
		Asset      string
		Train      string
		Seeds      int
		Seed       uint64
		Classifier fasttext.Config
	}{fingerprintVersion, AssetID(c.Asset), study.CorpusHash(c.Train), c.Seeds, c.Seed, c.Classifier})
	return shortHash(b)
}

func (c Cell) fingerprint(common, test string) string {
	b, _ := json.Marshal(struct {
		Common, Mech, Level, Test string
		Eps                       float64
	}{common, c.Mech, c.Level, test, c.Eps})
	return shortHash(b)
}

func shortHash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

type task struct {
	c   Cell
	run int
}

// Run runs the pending cells, skipping those already in the results file
// with the same fingerprint, and appends each as it finishes: first runs
// 0…Runs−1 of every cell, run-major (an interrupted measurement has whole
// planes with fewer runs); then, when TargetHalf > 0, one more run at a
// time for each cell whose interval under either protocol is still wider
// than TargetHalf, up to MaxRuns. It stops between cells when ctx is
// cancelled and returns ctx's error.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Asset == nil || cfg.Train == nil || len(cfg.Test) == 0 {
		return errors.New("plane: want an asset, training reviews and test reviews")
	}
	if len(cfg.Mechanisms) == 0 {
		cfg.Mechanisms = Mechanisms
	}
	if cfg.Runs <= 0 {
		cfg.Runs = len(cfg.Test)
	}
	if cfg.MaxRuns < cfg.Runs {
		cfg.MaxRuns = cfg.Runs
	}
	if cfg.MaxRuns > len(cfg.Test) {
		return fmt.Errorf("plane: up to %d runs, %d test slices", cfg.MaxRuns, len(cfg.Test))
	}
	if cfg.Seeds <= 0 {
		cfg.Seeds = 1
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	cells, err := Cells(cfg.Asset, cfg.Mechanisms)
	if err != nil {
		return err
	}
	common := cfg.common()
	tests := make([]string, cfg.MaxRuns)
	for r := range tests {
		tests[r] = study.CorpusHash(cfg.Test[r])
	}
	old, err := ReadRecords(cfg.Results)
	if err != nil {
		return err
	}
	// have[cell][run] is the cell's record of that run, when it is in the
	// file with this configuration's fingerprint.
	have := make([]map[int]Record, len(cells))
	for i, c := range cells {
		have[i] = map[int]Record{}
		for _, r := range old {
			if r.Mechanism == c.Mech && r.Level == c.Level && r.Run < cfg.MaxRuns && r.Fingerprint == c.fingerprint(common, tests[r.Run]) {
				have[i][r.Run] = r
			}
		}
	}
	out, err := study.OpenAppender(cfg.Results)
	if err != nil {
		return err
	}
	defer out.Close()
	for round := 0; ; round++ {
		var tasks []task
		if round == 0 {
			for run := range cfg.Runs {
				for i, c := range cells {
					if _, ok := have[i][run]; !ok {
						tasks = append(tasks, task{c, run})
					}
				}
			}
		} else {
			for i, c := range cells {
				if run, ok := cfg.next(have[i]); ok {
					tasks = append(tasks, task{c, run})
				}
			}
		}
		if len(tasks) == 0 {
			if round == 0 {
				continue // the base runs are all in the file: top up
			}
			break
		}
		recs, err := cfg.execute(ctx, tasks, common, tests, out, round)
		for _, r := range recs {
			for i, c := range cells {
				if r.Mechanism == c.Mech && r.Level == c.Level {
					have[i][r.Run] = r
				}
			}
		}
		if err != nil {
			return err
		}
	}
	fmt.Fprintf(cfg.Log, "plane: every cell is in %s\n", cfg.Results)
	return nil
}

// next is the run to add to a cell with runs have (after the base runs):
// the first missing one, if the cell's interval under either protocol is
// wider than TargetHalf and it has fewer than MaxRuns.
func (cfg *Config) next(have map[int]Record) (int, bool) {
	if !(cfg.TargetHalf > 0) || len(have) >= cfg.MaxRuns {
		return 0, false
	}
	var clean, priv []float64
	for _, r := range have {
		clean, priv = append(clean, r.Clean), append(priv, r.Privatized)
	}
	if estimate(clean).Half <= cfg.TargetHalf && estimate(priv).Half <= cfg.TargetHalf {
		return 0, false
	}
	for run := range cfg.MaxRuns {
		if _, ok := have[run]; !ok {
			return run, true
		}
	}
	return 0, false
}

// execute runs tasks on cfg.Workers workers, appending each record as it
// finishes, and returns the records made.
func (cfg *Config) execute(ctx context.Context, tasks []task, common string, tests []string, out *study.Appender, round int) ([]Record, error) {
	what := "base runs"
	if round > 0 {
		what = fmt.Sprintf("top-up round %d (cells wider than ±%.1f points)", round, 100*cfg.TargetHalf)
	}
	fmt.Fprintf(cfg.Log, "plane: %s: %d cells to run, %d workers, results in %s\n", what, len(tasks), cfg.Workers, cfg.Results)
	bar := progress.New(cfg.Log, "plane", len(tasks))
	var (
		mu       sync.Mutex
		finished int
		firstErr error
		recs     []Record
	)
	ch := make(chan task)
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range ch {
				rec, err := cfg.runCell(t.c, t.run, common, tests[t.run])
				if err == nil {
					err = out.Add(rec)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("plane %s %s run %d: %w", t.c.Mech, t.c.Level, t.run, err)
				}
				if err == nil {
					recs = append(recs, rec)
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
	if firstErr != nil {
		return recs, firstErr
	}
	if ctx.Err() != nil {
		fmt.Fprintf(cfg.Log, "plane: stopped after %d of %d cells\n", finished, len(tasks))
		return recs, ctx.Err()
	}
	bar.Done()
	return recs, nil
}

// runCell privatizes the training reviews (fresh noise), trains the
// classifier, and scores it on the run's test reviews as they are and
// privatized (their own stream).
func (cfg *Config) runCell(c Cell, run int, common, test string) (Record, error) {
	start := time.Now()
	tc := cfg.Test[run]
	rec := Record{Kind: "plane", Mechanism: c.Mech, Level: c.Level, Epsilon: c.Eps, Run: run,
		Seeds: cfg.Seeds, TrainReviews: len(cfg.Train.Labels), TestReviews: len(tc.Labels),
		Asset: AssetID(cfg.Asset), Fingerprint: c.fingerprint(common, test), Config: common}
	n := cfg.Asset.Len()
	trainTokens, testTokens := cfg.Train.Tokens, tc.Tokens
	if c.Mech != Baseline {
		outputs, err := mechanism.DefaultOutputs(cfg.Asset)
		if err != nil {
			return rec, err
		}
		m, err := mechanism.New(c.Mech, cfg.Asset, c.Eps, mechanism.Options{Outputs: outputs})
		if err != nil {
			return rec, err
		}
		label := fmt.Sprintf("plane/%s/%s/%d", c.Mech, c.Level, run)
		if trainTokens, err = study.Privatize(cfg.Train, m, n, study.Source(cfg.Seed, label+"/train")); err != nil {
			return rec, err
		}
		if testTokens, err = study.Privatize(tc, m, n, study.Source(cfg.Seed, label+"/test")); err != nil {
			return rec, err
		}
		rec.Draws = cfg.Train.InVocab() + tc.InVocab()
	}
	// The classifiers' seeds depend on the run only: runs are paired
	// across cells.
	for s := range cfg.Seeds {
		fc := cfg.Classifier
		fc.Seed = fc.Seed*1000 + uint64(run*cfg.Seeds+s) + 1
		model, err := fasttext.Train(cfg.Train.Docs(trainTokens), n, fc)
		if err != nil {
			return rec, err
		}
		rec.Clean += model.Accuracy(tc.Docs(tc.Tokens)) / float64(cfg.Seeds)
		rec.Privatized += model.Accuracy(tc.Docs(testTokens)) / float64(cfg.Seeds)
	}
	rec.Seconds = time.Since(start).Seconds()
	return rec, nil
}
