package study

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/internal/progress"
	"github.com/wordveil/wordveil/internal/sample"
)

// temCorpora holds TEM's privatized training corpora for every grid index
// and run, fresh ("tem") and pooled ("tem-pool"), computed in one pass
// over the word types: a type's distances to all words serve every ε, and
// its cumulative weights every run.
type temCorpora struct {
	tokens map[string][][][]int32 // name → grid index → run → tokens
	draws  map[string]int         // draws per corpus
}

func (t *temCorpora) get(name string, e, run int) []int32 { return t.tokens[name][e][run] }

// temIfNeeded computes TEM's corpora when a pending task needs them.
func (cfg *Config) temIfNeeded(ctx context.Context, tasks []task, specs []Spec) (*temCorpora, error) {
	var names []string
	var grid []float64
	seen := map[string]bool{}
	for _, t := range tasks {
		if t.kind == "accuracy" && t.spec.build == nil && !seen[t.spec.Name] {
			seen[t.spec.Name] = true
			names = append(names, t.spec.Name)
			grid = t.spec.Eps
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	return cfg.buildTEMCorpora(ctx, names, grid)
}

func (cfg *Config) buildTEMCorpora(ctx context.Context, names []string, grid []float64) (*temCorpora, error) {
	c, n := cfg.Train, cfg.Env.Asset.Len()
	tc := &temCorpora{tokens: map[string][][][]int32{}, draws: map[string]int{}}
	mechs := make([]*temEuclid, len(grid))
	for e, eps := range grid {
		m, err := newTEM(cfg.Env.Emb, eps)
		if err != nil {
			return nil, err
		}
		mechs[e] = m
	}
	for _, name := range names {
		k := 0
		if name == "tem-pool" {
			k = TEMPoolK
		}
		tc.draws[name] = c.Draws(k)
		byEps := make([][][]int32, len(grid))
		for e := range grid {
			byEps[e] = make([][]int32, cfg.Runs)
			for r := range cfg.Runs {
				toks := make([]int32, len(c.Tokens))
				// OOV tokens: a uniformly random word, as the product does.
				src := source(cfg.Seed, fmt.Sprintf("%s/oov/%d/%d", name, e, r))
				for _, p := range c.OOV {
					toks[p] = int32(sample.UniformInt(src, n))
				}
				byEps[e][r] = toks
			}
		}
		tc.tokens[name] = byEps
	}
	fmt.Fprintf(cfg.Log, "study: TEM corpora (%v) for %d word types × %d ε × %d runs\n", names, len(c.Types), len(grid), cfg.Runs)
	bar := progress.New(cfg.Log, "TEM corpora", len(c.Types))
	var next, doneCount atomic.Int64
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dist, cdf := make([]float64, n), make([]float64, n)
			var ys []int
			for {
				i := int(next.Add(1) - 1)
				if i >= len(c.Types) || ctx.Err() != nil {
					return
				}
				w := c.Types[i]
				pos := c.Positions[w]
				distances(cfg.Env.Emb, w, dist)
				// One source per word type: the corpora do not depend on
				// how types are spread over the workers.
				src := source(cfg.Seed, fmt.Sprintf("tem/type/%d", w))
				for e, m := range mechs {
					m.cumulative(dist, cdf)
					for r := range cfg.Runs {
						for _, name := range names {
							k := 0
							if name == "tem-pool" {
								k = TEMPoolK
							}
							draws := len(pos)
							if k > 0 {
								draws = min(draws, k)
							}
							ys = ys[:0]
							for range draws {
								ys = append(ys, drawFrom(cdf, src))
							}
							assign(tc.tokens[name][e][r], pos, ys, k, src)
						}
					}
				}
				bar.Set(int(doneCount.Add(1)))
			}
		}()
	}
	wg.Wait()
	bar.Done()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return tc, nil
}
