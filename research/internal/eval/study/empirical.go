package study

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"sync"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/research/internal/eval/privacy"
	"github.com/wordveil/wordveil/research/internal/floatmech"
)

// EmpiricalConfig is the Vickrey paper's empirical privacy–utility study
// (§3): for each mechanism and ε, the utility loss L_M (AFINN sentiment
// flips) and the Bayesian adversary's inference error E_M over a universe
// of sentiment words weighted by their IMDB frequency, plus Algorithm 2's
// choice of (ε, t) for Vickrey.
type EmpiricalConfig struct {
	Env        *Env
	Train      *Corpus // word frequencies: the adversary's prior
	Valence    map[string]int
	Mechanisms []string
	Grid       []float64
	// Words is |U|: the most frequent TR1 words that carry an AFINN
	// valence (the paper's word-level setting: every word of U is polar).
	Words, Draws int
	// MaxLoss is Algorithm 2's utility-loss cap C (0: skip Algorithm 2).
	MaxLoss float64
	Seed    uint64
	Out     string
	Log     io.Writer
}

// EmpiricalRecord is one line of the empirical results file.
type EmpiricalRecord struct {
	Kind      string             `json:"kind"` // "point" or "algorithm2"
	Mechanism string             `json:"mechanism"`
	Family    string             `json:"family"`
	Epsilon   float64            `json:"epsilon"`
	Matched   *float64           `json:"matched,omitempty"`
	Params    map[string]float64 `json:"params,omitempty"`
	privacy.Empirical
	Chosen bool `json:"chosen,omitempty"` // Algorithm 2's answer
}

// Universe returns the Words most frequent TR1 words with a non-zero
// AFINN valence and their prior (frequencies, normalized).
func (cfg *EmpiricalConfig) universe() ([]int, []float64, error) {
	type wc struct{ w, c int }
	var cands []wc
	for _, w := range cfg.Train.Types {
		if cfg.Valence[cfg.Env.Asset.Word(w)] != 0 {
			cands = append(cands, wc{w, len(cfg.Train.Positions[w])})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].c != cands[j].c {
			return cands[i].c > cands[j].c
		}
		return cands[i].w < cands[j].w
	})
	if len(cands) == 0 {
		return nil, nil, fmt.Errorf("no TR1 word has an AFINN valence")
	}
	cands = cands[:min(len(cands), cfg.Words)]
	u := make([]int, len(cands))
	prior := make([]float64, len(cands))
	var total float64
	for i, c := range cands {
		u[i] = c.w
		total += float64(c.c)
	}
	for i, c := range cands {
		prior[i] = float64(c.c) / total
	}
	return u, prior, nil
}

// RunEmpirical measures every mechanism × ε and appends the points to
// cfg.Out, then runs Algorithm 2 for Vickrey when MaxLoss > 0.
func RunEmpirical(ctx context.Context, cfg EmpiricalConfig) error {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	u, prior, err := cfg.universe()
	if err != nil {
		return err
	}
	dL := privacy.SentimentFlip(cfg.Valence, cfg.Env.Asset.WordList())
	specs, err := Specs(cfg.Env, cfg.Mechanisms, cfg.Grid)
	if err != nil {
		return err
	}
	out, err := openAppender(cfg.Out)
	if err != nil {
		return err
	}
	defer out.close()
	fmt.Fprintf(cfg.Log, "eval empirical: |U| = %d AFINN words (%.1f%% of TR1's in-vocabulary tokens), %d draws per word\n",
		len(u), 100*priorMass(cfg.Train, u), cfg.Draws)
	for _, s := range specs {
		for e := range s.Eps {
			if err := ctx.Err(); err != nil {
				return err
			}
			smp, err := s.Build(cfg.Env, e)
			if err != nil {
				return err
			}
			m := asMechanism(smp, cfg.Env.Asset.Len(), s.Eps[e], s.Family)
			emp, err := privacy.Measure(m, u, prior, dL, cfg.Draws, cfg.Seed, nil)
			if err != nil {
				return fmt.Errorf("%s ε=%v: %w", s.Name, s.Eps[e], err)
			}
			rec := EmpiricalRecord{Kind: "point", Mechanism: s.Name, Family: s.Family, Epsilon: s.Eps[e], Empirical: emp}
			if mt := s.Matched[e]; mt == mt {
				rec.Matched = &mt
			}
			if err := out.add(rec); err != nil {
				return err
			}
			fmt.Fprintf(cfg.Log, "  %-12s ε=%-8.4g L_M=%.4f E_M=%.4f (MAP %.4f–%.4f)\n", s.Name, s.Eps[e], emp.UtilityLoss, emp.InferenceError, emp.InferenceErrorMAP, emp.InferenceErrorMAPHeldOut)
		}
	}
	if cfg.MaxLoss <= 0 {
		return nil
	}
	measure := func(eps, t float64) (privacy.Empirical, error) {
		v, err := floatmech.NewVickrey(cfg.Env.Emb, eps, t)
		if err != nil {
			return privacy.Empirical{}, err
		}
		e, err := privacy.Measure(v, u, prior, dL, cfg.Draws, cfg.Seed, nil)
		if err == nil {
			fmt.Fprintf(cfg.Log, "  algorithm 2: ε=%-6.4g t=%-4.2g L_M=%.4f E_M=%.4f\n", eps, t, e.UtilityLoss, e.InferenceError)
		}
		return e, err
	}
	best, trace, err := privacy.Algorithm2(1, privacy.VickreyTs(), cfg.MaxLoss, 12, measure)
	if err != nil {
		return fmt.Errorf("algorithm 2: %w", err)
	}
	for _, p := range trace {
		rec := EmpiricalRecord{Kind: "algorithm2", Mechanism: "vickrey", Family: "euclidean", Epsilon: p.Epsilon, Params: p.Params, Empirical: p}
		rec.Chosen = p.Epsilon == best.Epsilon && p.Params["t"] == best.Params["t"]
		if err := out.add(rec); err != nil {
			return err
		}
	}
	fmt.Fprintf(cfg.Log, "  algorithm 2 (C = %v): ε = %v, t = %v, E_M = %.4f, L_M = %.4f\n", cfg.MaxLoss, best.Epsilon, best.Params["t"], best.InferenceError, best.UtilityLoss)
	return nil
}

func priorMass(c *Corpus, u []int) float64 {
	n := 0
	for _, w := range u {
		n += len(c.Positions[w])
	}
	return float64(n) / float64(c.InVocab())
}

// asMechanism presents a sampler as a mechanism.Mechanism for privacy.Measure.
// The exponential mechanisms' per-word tables are cached (the measurement
// draws each word many times; a table costs O(N·d) to build).
func asMechanism(s sampler, n int, eps float64, family string) mechanism.Mechanism {
	if m, ok := s.(batchSampler); ok {
		return m.m
	}
	if m, ok := s.(singleSampler); ok {
		return m.m
	}
	return &samplerMechanism{s: s, n: n, eps: eps, family: family}
}

type samplerMechanism struct {
	s      sampler
	n      int
	eps    float64
	family string
	cache  sync.Map // word → *table (expMech)
}

func (m *samplerMechanism) Privatize(w int, src rand.Source) (int, error) {
	if w < 0 || w >= m.n {
		return -1, mechanism.ErrWordOutOfRange
	}
	if src == nil {
		return -1, mechanism.ErrNilSource
	}
	if x, ok := m.s.(*expMech); ok {
		c, ok := m.cache.Load(w)
		if !ok {
			u := make([]float64, m.n)
			x.utility(w, u)
			t := new(table)
			x.prepare(u, t)
			c, _ = m.cache.LoadOrStore(w, t)
		}
		return c.(*table).draw(src), nil
	}
	out := []int{0}
	if err := m.s.drawMany([]int{w}, out, src); err != nil {
		return -1, err
	}
	return out[0], nil
}

func (m *samplerMechanism) Epsilon() float64 { return m.eps }
func (m *samplerMechanism) Metric() string   { return m.family }
func (m *samplerMechanism) Len() int         { return m.n }
