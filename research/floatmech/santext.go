package floatmech

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/wordveil/wordveil/mechanism"
	"github.com/wordveil/wordveil/research/euclid"
)

// SanTextSensitivity is the sensitivity SanText calibrates its utility
// u(w, y) = −‖φ(w) − φ(y)‖₂ with: 1 per unit of distance between inputs,
// because |u(w, y) − u(w', y)| ≤ ‖φ(w) − φ(w')‖₂ (the triangle
// inequality). It is a metric sensitivity: the utility's range is the
// vocabulary's diameter, so SanText is not ε-DP at word level.
const SanTextSensitivity = 1.0

// SanText is SanText (Yue et al., Findings of ACL 2021) on the float word
// vectors: the exponential mechanism over ALL N words, the input
// included, with the negative Euclidean distance as the utility:
//
//	Pr[M(w) = y] = exp(−ε·‖φ(w) − φ(y)‖₂/2) / Σ_z exp(−ε·‖φ(w) − φ(z)‖₂/2).
//
// Guarantee: ε·‖φ(w) − φ(w')‖₂ metric DP for every pair of words. The
// numerator moves by at most e^(ε·d(w,w')/2) between w and w' (triangle
// inequality), and so does every term of the normalizer.
//
// Departures from the paper, which uses this very form with the
// Euclidean distance between GloVe vectors: the vocabulary is the
// asset's N words (the paper takes the words of the task's corpus), the
// vectors are the asset's (100-d GloVe in the research asset, not the
// paper's 300-d), and SanText+'s split into sensitive and non-sensitive
// words is not implemented here (the on-device SanText+ is in package
// mechanism, over Hamming codes). The paper samples from the normalized
// probabilities as floats, which rounds the smallest weights to zero;
// here the draw is the Gumbel-max trick on the log-weights (untruncated
// Gumbel tails, sample.Gumbel), so every word keeps a positive
// probability. Each draw costs O(N·d): there is no approximate search.
type SanText struct {
	emb  *Embedding
	eps  float64
	coef float64 // ε/(2Δu); tests double it (the dropped factor 2)
}

// NewSanText returns SanText at ε over emb.
func NewSanText(emb *Embedding, eps float64) (*SanText, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("santext: %w", err)
	}
	if emb == nil {
		return nil, fmt.Errorf("santext: %w: nil embedding", ErrInvalidParameter)
	}
	return &SanText{emb: emb, eps: eps, coef: eps / (2 * SanTextSensitivity)}, nil
}

// Epsilon implements mechanism.Mechanism.
func (s *SanText) Epsilon() float64 { return s.eps }

// Len implements mechanism.Mechanism.
func (s *SanText) Len() int { return s.emb.Len() }

// Metric implements mechanism.Mechanism.
func (s *SanText) Metric() string { return "euclidean" }

func (s *SanText) check(w int, src rand.Source) error {
	if w < 0 || w >= s.emb.Len() {
		return fmt.Errorf("santext: %w: %d not in [0, %d)", mechanism.ErrWordOutOfRange, w, s.emb.Len())
	}
	if src == nil {
		return fmt.Errorf("santext: %w", mechanism.ErrNilSource)
	}
	return nil
}

// scores writes the log-weight −ε·‖φ(w) − φ(y)‖₂/2 of every y into dst
// (length N), the distance in float64 (euclid.Dist).
func (s *SanText) scores(w int, dst []float64) {
	v := s.emb.Vector(w)
	for y := range dst {
		dst[y] = -s.coef * euclid.Dist(v, s.emb.Vector(y))
	}
}

// Privatize releases one word for w.
func (s *SanText) Privatize(w int, src rand.Source) (int, error) {
	if err := s.check(w, src); err != nil {
		return -1, err
	}
	sc := make([]float64, s.emb.Len())
	s.scores(w, sc)
	return pick(sc, src), nil
}

// PrivatizeBatch implements Batcher, as SynTF's does: the scores of a few
// words at a time (synTFChunk, so memory is bounded for any batch) on
// workers goroutines, the Gumbel draws from src in input order, so a
// seeded source gives the same output for any worker count.
func (s *SanText) PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error {
	fail := func(err error) error {
		for i := range out {
			out[i] = -1
		}
		return err
	}
	if len(out) != len(ws) {
		return fail(fmt.Errorf("santext: %w: %d outputs for %d words", ErrInvalidParameter, len(out), len(ws)))
	}
	for _, w := range ws {
		if err := s.check(w, src); err != nil {
			return fail(err)
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := s.emb.Len()
	buf := make([]float64, synTFChunk*n)
	for start := 0; start < len(ws); start += synTFChunk {
		chunk := ws[start:min(len(ws), start+synTFChunk)]
		var wg sync.WaitGroup
		sem := make(chan struct{}, workers)
		for j, w := range chunk {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				s.scores(w, buf[j*n:(j+1)*n])
				<-sem
			}()
		}
		wg.Wait()
		for j := range chunk {
			out[start+j] = pick(buf[j*n:(j+1)*n], src)
		}
	}
	return nil
}
