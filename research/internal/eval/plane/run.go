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
	// disjoint from the others (len(Test) ≥ Runs).
	Test       []*study.Corpus
	Mechanisms []string // default Mechanisms; the baseline always runs
	Runs       int      // default len(Test)
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

func (r Record) key() string {
	return fmt.Sprintf("%s/%s/%d/%s", r.Mechanism, r.Level, r.Run, r.Fingerprint)
}

// Cell is one mechanism at one level (Level "" for the baseline).
type Cell struct {
	Mech, Level string
	Eps         float64
}

// Cells returns the baseline and then mechs × the named levels at a's
// presets.
func Cells(a *wva.Asset, mechs []string) ([]Cell, error) {
	cells := []Cell{{Mech: Baseline}}
	for _, m := range mechs {
		if m == Baseline {
			continue
		}
		for _, level := range study.PresetLevels {
			eps, err := mechanism.Preset(a, m, level)
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
// with the same fingerprint, and appends each as it finishes, run-major
// (an interrupted measurement has whole planes with fewer runs). It stops
// between cells when ctx is cancelled and returns ctx's error.
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
	if cfg.Runs > len(cfg.Test) {
		return fmt.Errorf("plane: %d runs, %d test slices", cfg.Runs, len(cfg.Test))
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
	tests := make([]string, cfg.Runs)
	for r := range tests {
		tests[r] = study.CorpusHash(cfg.Test[r])
	}
	old, err := ReadRecords(cfg.Results)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, r := range old {
		done[r.key()] = true
	}
	var tasks []task
	for run := range cfg.Runs {
		for _, c := range cells {
			r := Record{Mechanism: c.Mech, Level: c.Level, Run: run, Fingerprint: c.fingerprint(common, tests[run])}
			if !done[r.key()] {
				tasks = append(tasks, task{c, run})
			}
		}
	}
	if len(tasks) == 0 {
		fmt.Fprintf(cfg.Log, "plane: all cells are in %s\n", cfg.Results)
		return nil
	}
	fmt.Fprintf(cfg.Log, "plane: %d cells to run, %d workers, results in %s\n", len(tasks), cfg.Workers, cfg.Results)
	out, err := study.OpenAppender(cfg.Results)
	if err != nil {
		return err
	}
	defer out.Close()
	bar := progress.New(cfg.Log, "plane", len(tasks))
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
				rec, err := cfg.runCell(t.c, t.run, common, tests[t.run])
				if err == nil {
					err = out.Add(rec)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("plane %s %s run %d: %w", t.c.Mech, t.c.Level, t.run, err)
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
		return firstErr
	}
	if ctx.Err() != nil {
		fmt.Fprintf(cfg.Log, "plane: stopped after %d of %d cells\n", finished, len(tasks))
		return ctx.Err()
	}
	bar.Done()
	return nil
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
