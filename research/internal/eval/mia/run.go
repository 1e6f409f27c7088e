package mia

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
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

// Mechanisms are the on-device mechanisms the experiment runs at their
// presets, in the table's order; "none" is the baseline.
var Mechanisms = []string{
	mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.Name1DG,
	mechanism.Name1DT, mechanism.NameSanText, mechanism.NameCusText,
}

// Baseline names the unprivatized target.
const Baseline = "none"

// The attacker's shadow: trained on the original reviews, as the papers
// train it (the TEM paper's §5.3), or on reviews privatized by the
// target's mechanism at the target's ε, as Shokri et al.'s shadow mimics
// the target's training (a stronger attacker: the mechanism and ε are
// public).
const (
	ShadowClean      = "clean"
	ShadowPrivatized = "privatized"
)

// Shadows are both attackers, the papers' first.
var Shadows = []string{ShadowClean, ShadowPrivatized}

// fingerprintVersion changes when the protocol changes results for the
// same configuration, so that old records are not reused.
const fingerprintVersion = 1

// Config is one experiment.
type Config struct {
	Asset *wva.Asset // the mechanisms and their presets
	// TargetIn trains the target (privatized); TargetOut are its
	// non-members; ShadowIn trains the shadow (privatized the same way),
	// ShadowOut are its non-members. Disjoint.
	TargetIn, TargetOut, ShadowIn, ShadowOut *study.Corpus
	Mechanisms                               []string // default Mechanisms; the baseline always runs
	Shadows                                  []string // default Shadows
	Runs                                     int      // default 1
	Seed                                     uint64
	Classifier                               fasttext.Config
	Attack                                   MLPConfig
	Results                                  string // JSON-lines results file
	Workers                                  int    // ≤ 0: 1
	Log                                      io.Writer
}

// Record is one line of the results file: one run of one cell.
type Record struct {
	Kind      string  `json:"kind"` // "mia"
	Mechanism string  `json:"mechanism"`
	Level     string  `json:"level,omitempty"`
	Shadow    string  `json:"shadow"`
	Epsilon   float64 `json:"epsilon,omitempty"`
	Run       int     `json:"run"`
	// The attack's AUC on the target's members against its non-members,
	// DeLong's standard error and 95% interval.
	AUC float64 `json:"auc"`
	SE  float64 `json:"se"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
	// ShadowAUC is the attack model's AUC on its own training data.
	ShadowAUC float64 `json:"shadow_auc"`
	// MemberAcc and NonMemberAcc are the target's accuracy on its
	// members' and non-members' original reviews (the gap is what the
	// attack feeds on).
	MemberAcc    float64 `json:"member_acc"`
	NonMemberAcc float64 `json:"non_member_acc"`
	Members      int     `json:"members"`
	NonMembers   int     `json:"non_members"`
	Seconds      float64 `json:"seconds,omitempty"`
	// Fingerprint covers the common configuration (Config) and the
	// cell's mechanism and ε; records of another one are not reused.
	Fingerprint string `json:"fingerprint"`
	Config      string `json:"config"`
}

// ReadRecords reads a results file; a missing file has none.
func ReadRecords(path string) ([]Record, error) { return study.ReadLines[Record](path) }

func (r Record) key() string {
	return fmt.Sprintf("%s/%s/%s/%d", r.Mechanism, r.Level, r.Shadow, r.Run)
}

// Cell is one mechanism at one level against one shadow (Level "" for
// the baseline, whose shadow is ShadowClean: nothing is privatized).
type Cell struct {
	Mech, Level, Shadow string
	Eps                 float64
}

// Cells returns the experiment's cells for mechs at the asset's presets
// against each shadow, the baseline first. A level the asset has no
// preset for (one its calibration could not reach) has no cell.
func Cells(a *wva.Asset, mechs, shadows []string) ([]Cell, error) {
	cells := []Cell{{Mech: Baseline, Shadow: ShadowClean}}
	for _, sh := range shadows {
		if sh != ShadowClean && sh != ShadowPrivatized {
			return nil, fmt.Errorf("mia: unknown shadow %q (want %s or %s)", sh, ShadowClean, ShadowPrivatized)
		}
	}
	for _, m := range mechs {
		if m == Baseline {
			continue
		}
		for _, level := range study.PresetLevels {
			eps, err := mechanism.Preset(a, m, level)
			if errors.Is(err, mechanism.ErrNoPreset) && a != nil && a.Header.Presets != nil {
				continue // a level the calibration could not reach: not offered, not measured
			}
			if err != nil {
				return nil, err
			}
			for _, sh := range shadows {
				cells = append(cells, Cell{m, level, sh, eps})
			}
		}
	}
	return cells, nil
}

func (c *Config) common() string {
	sum := c.Asset.SHA256()
	b, _ := json.Marshal(struct {
		Version              int
		Asset                string
		TIn, TOut, SIn, SOut string
		Seed                 uint64
		Classifier           fasttext.Config
		Attack               MLPConfig
	}{fingerprintVersion, hex.EncodeToString(sum[:]), corpusHash(c.TargetIn), corpusHash(c.TargetOut),
		corpusHash(c.ShadowIn), corpusHash(c.ShadowOut), c.Seed, c.Classifier, c.Attack})
	return shortHash(b)
}

func (c Cell) fingerprint(common string) string {
	b, _ := json.Marshal(struct {
		Common, Mech, Level, Shadow string
		Eps                         float64
	}{common, c.Mech, c.Level, c.Shadow, c.Eps})
	return shortHash(b)
}

func shortHash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

func corpusHash(c *study.Corpus) string {
	h := sha256.New()
	var b [4]byte
	for _, t := range c.Tokens {
		binary.LittleEndian.PutUint32(b[:], uint32(t))
		h.Write(b[:])
	}
	for _, o := range c.Offsets {
		binary.LittleEndian.PutUint32(b[:], uint32(o))
		h.Write(b[:])
	}
	for _, l := range c.Labels {
		h.Write([]byte{byte(l)})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Run runs the pending cells, skipping those already in the results file
// with the same fingerprint, appending each as it finishes. It stops
// between cells when ctx is cancelled and returns ctx's error.
func Run(ctx context.Context, cfg Config) error {
	if cfg.Asset == nil || cfg.TargetIn == nil || cfg.TargetOut == nil || cfg.ShadowIn == nil || cfg.ShadowOut == nil {
		return errors.New("mia: want an asset and four corpora")
	}
	if len(cfg.Mechanisms) == 0 {
		cfg.Mechanisms = Mechanisms
	}
	if len(cfg.Shadows) == 0 {
		cfg.Shadows = Shadows
	}
	if cfg.Runs <= 0 {
		cfg.Runs = 1
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	cells, err := Cells(cfg.Asset, cfg.Mechanisms, cfg.Shadows)
	if err != nil {
		return err
	}
	common := cfg.common()
	old, err := ReadRecords(cfg.Results)
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, r := range old {
		done[r.key()+"/"+r.Fingerprint] = true
	}
	type task struct {
		c   Cell
		run int
	}
	var tasks []task
	for run := range cfg.Runs {
		for _, c := range cells {
			r := Record{Mechanism: c.Mech, Level: c.Level, Shadow: c.Shadow, Run: run}
			if !done[r.key()+"/"+c.fingerprint(common)] {
				tasks = append(tasks, task{c, run})
			}
		}
	}
	if len(tasks) == 0 {
		fmt.Fprintf(cfg.Log, "mia: all cells are in %s\n", cfg.Results)
		return nil
	}
	fmt.Fprintf(cfg.Log, "mia: %d cells to run, %d workers, results in %s\n", len(tasks), cfg.Workers, cfg.Results)
	out, err := study.OpenAppender(cfg.Results)
	if err != nil {
		return err
	}
	defer out.Close()
	bar := progress.New(cfg.Log, "mia", len(tasks))
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
				rec, err := cfg.runCell(t.c, t.run, common)
				if err == nil {
					err = out.Add(rec)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("mia %s %s shadow %s run %d: %w", t.c.Mech, t.c.Level, t.c.Shadow, t.run, err)
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
		fmt.Fprintf(cfg.Log, "mia: stopped after %d of %d cells\n", finished, len(tasks))
		return ctx.Err()
	}
	bar.Done()
	return nil
}

// runCell privatizes the target's members with the cell's mechanism
// (fresh noise), and the shadow's too when the cell's shadow is
// privatized (its own stream), trains both models, and runs the attack.
func (cfg *Config) runCell(c Cell, run int, common string) (Record, error) {
	start := time.Now()
	rec := Record{Kind: "mia", Mechanism: c.Mech, Level: c.Level, Shadow: c.Shadow, Epsilon: c.Eps, Run: run,
		Members: len(cfg.TargetIn.Labels), NonMembers: len(cfg.TargetOut.Labels),
		Fingerprint: c.fingerprint(common), Config: common}
	n := cfg.Asset.Len()
	tokens := func(corp *study.Corpus, role string) ([]int32, error) {
		if c.Mech == Baseline || (role == "shadow" && c.Shadow == ShadowClean) {
			return corp.Tokens, nil
		}
		m, err := mechanism.New(c.Mech, cfg.Asset, c.Eps, mechanism.Options{AllowSaturated: true})
		if err != nil {
			return nil, err
		}
		return study.Privatize(corp, m, n, study.Source(cfg.Seed, fmt.Sprintf("mia/%s/%s/%s/%d", role, c.Mech, c.Level, run)))
	}
	train := func(corp *study.Corpus, role string, seed uint64) (*fasttext.Model, error) {
		toks, err := tokens(corp, role)
		if err != nil {
			return nil, err
		}
		fc := cfg.Classifier
		fc.Seed = seed
		return fasttext.Train(corp.Docs(toks), n, fc)
	}
	// Classifier seeds depend on the run only: runs are paired across cells.
	target, err := train(cfg.TargetIn, "target", cfg.Classifier.Seed*1000+uint64(2*run)+1)
	if err != nil {
		return rec, err
	}
	shadow, err := train(cfg.ShadowIn, "shadow", cfg.Classifier.Seed*1000+uint64(2*run)+2)
	if err != nil {
		return rec, err
	}
	feats := func(m *fasttext.Model, corp *study.Corpus) [][]float64 {
		out := make([][]float64, len(corp.Labels))
		var p []float64
		for i := range out {
			p = m.Probs(corp.Tokens[corp.Offsets[i]:corp.Offsets[i+1]], p)
			out[i] = Features(p, corp.Labels[i])
		}
		return out
	}
	ac := cfg.Attack
	ac.Seed = ac.Seed*1000 + uint64(run)
	a, err := Attack(feats(shadow, cfg.ShadowIn), feats(shadow, cfg.ShadowOut), feats(target, cfg.TargetIn), feats(target, cfg.TargetOut), ac)
	if err != nil {
		return rec, err
	}
	rec.AUC, rec.SE, rec.Lo, rec.Hi = a.Target.AUC, a.Target.SE, a.Target.Lo, a.Target.Hi
	rec.ShadowAUC = a.Shadow.AUC
	rec.MemberAcc = target.Accuracy(cfg.TargetIn.Docs(cfg.TargetIn.Tokens))
	rec.NonMemberAcc = target.Accuracy(cfg.TargetOut.Docs(cfg.TargetOut.Tokens))
	rec.Seconds = time.Since(start).Seconds()
	return rec, nil
}
