package study

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/wordveil/wordveil/internal/progress"
	"github.com/wordveil/wordveil/internal/sample"
)

// passCorpora holds the privatized training corpora of the mechanisms
// with a law (Spec.law: TEM, tem-pool, santext-float, SynTF) for the
// pending grid indices and runs, computed in one pass over the word
// types. Drawing them token by token would cost O(N·d) per token (a
// utility vector over all N words); the pass computes a type's utility
// vector once for every ε, its exact table (expMech.prepare) once per ε
// for every run and every mechanism of the same law, and then each
// occurrence costs a binary search.
//
// Every (mechanism, type, grid index, run) has its own seeded stream, so
// a corpus depends neither on the worker count nor on which other cells
// are pending: a resumed study computes the same corpora.
type passCorpora struct {
	mu     sync.Mutex
	tokens map[string][][][]int32 // name → grid index → run → tokens (nil: not computed)
	draws  map[string]int         // draws per corpus
}

// take returns a corpus and drops the pass's reference to it, so a
// trained cell's corpus can be freed.
func (p *passCorpora) take(name string, e, run int) []int32 {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.tokens[name][e][run]
	p.tokens[name][e][run] = nil
	return t
}

// passGroup is the specs that share one law per grid index (tem and
// tem-pool): their tables are built once.
type passGroup struct {
	specs []*Spec
	laws  []*expMech // per grid index; nil where nothing is pending
}

// passIfNeeded computes the corpora of the law specs with pending
// accuracy cells; nil if there are none.
func (cfg *Config) passIfNeeded(ctx context.Context, tasks []task) (*passCorpora, error) {
	pending := map[*Spec][][]bool{} // spec → grid index → run
	var order []*Spec
	for _, t := range tasks {
		if t.kind != "accuracy" || t.spec.law == nil {
			continue
		}
		p, ok := pending[t.spec]
		if !ok {
			p = make([][]bool, len(t.spec.Eps))
			for e := range p {
				p[e] = make([]bool, cfg.Runs)
			}
			pending[t.spec] = p
			order = append(order, t.spec)
		}
		p[t.e][t.run] = true
	}
	if len(order) == 0 {
		return nil, nil
	}
	c, n := cfg.Train, cfg.Env.Asset.Len()
	pc := &passCorpora{tokens: map[string][][][]int32{}, draws: map[string]int{}}
	var groups []*passGroup
	byKey := map[string]*passGroup{}
	for _, s := range order {
		key := fmt.Sprintf("%s/%v", s.lawKey, s.Eps)
		g := byKey[key]
		if g == nil {
			g = &passGroup{laws: make([]*expMech, len(s.Eps))}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.specs = append(g.specs, s)
		pc.draws[s.Name] = c.Draws(cfg.poolFor(s))
		byEps := make([][][]int32, len(s.Eps))
		for e := range s.Eps {
			byEps[e] = make([][]int32, cfg.Runs)
			for r := range cfg.Runs {
				if !pending[s][e][r] {
					continue
				}
				if g.laws[e] == nil {
					m, err := s.law(cfg.Env, s.Eps[e])
					if err != nil {
						return nil, fmt.Errorf("%s ε=%v: %w", s.Name, s.Eps[e], err)
					}
					g.laws[e] = m
				}
				toks := make([]int32, len(c.Tokens))
				// OOV tokens: a uniformly random word, as the product does.
				src := source(cfg.Seed, fmt.Sprintf("%s/oov/%d/%d", s.Name, e, r))
				for _, p := range c.OOV {
					toks[p] = int32(sample.UniformInt(src, n))
				}
				byEps[e][r] = toks
			}
		}
		pc.tokens[s.Name] = byEps
	}
	names := make([]string, len(order))
	for i, s := range order {
		names[i] = s.Name
	}
	fmt.Fprintf(cfg.Log, "study: corpora of %v in one pass over %d word types\n", names, len(c.Types))
	bar := progress.New(cfg.Log, "corpus pass", len(c.Types))
	var next, doneCount atomic.Int64
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dist, cos := make([]float64, n), make([]float64, n)
			var tab table
			var ys []int
			for {
				i := int(next.Add(1) - 1)
				if i >= len(c.Types) || ctx.Err() != nil {
					return
				}
				w := c.Types[i]
				pos := c.Positions[w]
				haveDist, haveCos := false, false
				for _, g := range groups {
					for e, m := range g.laws {
						if m == nil {
							continue
						}
						u := dist
						if m.cosine {
							if !haveCos {
								m.utility(w, cos)
								haveCos = true
							}
							u = cos
						} else if !haveDist {
							m.utility(w, dist)
							haveDist = true
						}
						m.prepare(u, &tab)
						for _, s := range g.specs {
							k := cfg.poolFor(s)
							for r, toks := range pc.tokens[s.Name][e] {
								if toks == nil {
									continue
								}
								src := source(cfg.Seed, fmt.Sprintf("%s/type/%d/%d/%d", s.Name, w, e, r))
								draws := len(pos)
								if k > 0 {
									draws = min(draws, k)
								}
								ys = ys[:0]
								for range draws {
									ys = append(ys, tab.draw(src))
								}
								assign(toks, pos, ys, k, src)
							}
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
	return pc, nil
}
