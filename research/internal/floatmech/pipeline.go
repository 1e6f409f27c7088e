package floatmech

import (
	"fmt"
	"math/rand/v2"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

// Batcher is implemented by every mechanism of this package.
// PrivatizeBatch releases out[i] for ws[i] with fresh noise per word,
// answering the nearest-neighbour searches of the whole batch at once on
// workers goroutines (≤ 0: all cores). Noise and selection draws come from
// src in input order, so a seeded source gives the same output for any
// worker count. On error out is filled with −1: no input word is ever
// returned as a failure value.
type Batcher interface {
	mechanism.Mechanism
	PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error
}

// pipeline is what the mechanisms share: a noisy point for the input word,
// its k exact nearest words over ALL of W, and a choice among them.
type pipeline struct {
	name string
	emb  *Embedding
	eps  float64
	k    int
	// noisy writes the noisy point for word w into q (float64, length d).
	noisy func(q []float64, w int, src rand.Source)
	// pick chooses the output among the k nearest (ascending distance);
	// nil means the nearest.
	pick func(nb []euclid.Neighbor, src rand.Source) int

	// excludeInput reproduces the published Vickrey code's mistake (the
	// search skips the input word). Set only by this package's tests, as
	// the negative control the DP audit must catch.
	excludeInput bool
}

func (p *pipeline) Epsilon() float64 { return p.eps }
func (p *pipeline) Len() int         { return p.emb.Len() }

func (p *pipeline) check(w int, src rand.Source) error {
	if w < 0 || w >= p.emb.Len() {
		return fmt.Errorf("%s: %w: %d not in [0, %d)", p.name, mechanism.ErrWordOutOfRange, w, p.emb.Len())
	}
	if src == nil {
		return fmt.Errorf("%s: %w", p.name, mechanism.ErrNilSource)
	}
	return nil
}

// searchK is how many neighbours to ask the index for.
func (p *pipeline) searchK() int {
	k := p.k
	if p.excludeInput {
		k++
	}
	return min(k, p.emb.Len())
}

// choose applies the (test-only) exclusion and the selection rule.
func (p *pipeline) choose(w int, nb []euclid.Neighbor, src rand.Source) int {
	if p.excludeInput {
		kept := nb[:0:0]
		for _, n := range nb {
			if int(n.ID) != w {
				kept = append(kept, n)
			}
		}
		nb = kept[:min(len(kept), p.k)]
	}
	if p.pick == nil || len(nb) == 1 {
		return int(nb[0].ID)
	}
	return p.pick(nb, src)
}

// Privatize releases one word for w.
func (p *pipeline) Privatize(w int, src rand.Source) (int, error) {
	if err := p.check(w, src); err != nil {
		return -1, err
	}
	d := p.emb.Dim()
	q64 := make([]float64, d)
	p.noisy(q64, w, src)
	q := make([]float32, d)
	for i, v := range q64 {
		q[i] = float32(v)
	}
	nb, err := p.emb.Index().Nearest(q, p.searchK(), nil)
	if err != nil {
		return -1, fmt.Errorf("%s: nearest neighbour of the noisy point: %w", p.name, err)
	}
	return p.choose(w, nb, src), nil
}

// PrivatizeBatch implements Batcher.
func (p *pipeline) PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error {
	fail := func(err error) error {
		for i := range out {
			out[i] = -1
		}
		return err
	}
	if len(out) != len(ws) {
		return fail(fmt.Errorf("%s: %w: %d outputs for %d words", p.name, ErrInvalidParameter, len(out), len(ws)))
	}
	if len(ws) == 0 {
		return nil
	}
	for _, w := range ws {
		if err := p.check(w, src); err != nil {
			return fail(err)
		}
	}
	d, k := p.emb.Dim(), p.searchK()
	qs := make([]float32, len(ws)*d)
	q64 := make([]float64, d)
	for i, w := range ws {
		p.noisy(q64, w, src)
		row := qs[i*d : (i+1)*d]
		for j, v := range q64 {
			row[j] = float32(v)
		}
	}
	nb := make([]euclid.Neighbor, len(ws)*k)
	if err := p.emb.Index().NearestBatch(qs, k, nb, workers); err != nil {
		return fail(fmt.Errorf("%s: nearest neighbours of the noisy points: %w", p.name, err))
	}
	for i, w := range ws {
		out[i] = p.choose(w, nb[i*k:(i+1)*k], src)
	}
	return nil
}

// addTo writes v + scale·u into q (v float32, the rest float64).
func addTo(q []float64, v []float32, scale float64, u []float64) {
	for i, x := range v {
		q[i] = float64(x) + scale*u[i]
	}
}
