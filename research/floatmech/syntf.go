package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/mechanism"
)

// SynTFSensitivity is Δu, the sensitivity of SynTF's utility: the cosine
// similarity takes values in [−1, 1], so |u(w, y) − u(w', y)| ≤ 2 for all
// words w, w', y.
const SynTFSensitivity = 2.0

// SynTF is the per-word exponential mechanism of Weggenmann and Kerschbaum
// (SynTF, SIGIR 2018) with the cosine similarity of the word vectors as the
// utility: M(w) = y with probability
//
//	exp(ε·u(w, y)/(2Δu)) / Σ_z exp(ε·u(w, z)/(2Δu)),  u(w, y) = cos(φ(w), φ(y)),
//
// over ALL N words, the input included, with Δu = 2 (SynTFSensitivity).
//
// Guarantee: ε-DP at word level, for every pair of words w, w' (the usual
// exponential-mechanism argument: the numerator moves by at most e^(ε/2),
// the normalizer by at most e^(ε/2)). It is also metric DP on the unit
// sphere: |ln Pr[M(w)=y] − ln Pr[M(w')=y]| ≤ (ε/2)·‖φ̂(w) − φ̂(w')‖₂ with
// φ̂ = φ/‖φ‖, because |cos(a, y) − cos(b, y)| ≤ ‖â − b̂‖₂; that chord is at
// most 2, which gives the ε back.
//
// The output is sampled exactly by the Gumbel-max trick (argmax of
// ε·u/(2Δu) + Gumbel noise with untruncated tails, sample.Gumbel), so no
// word with positive probability is made impossible by rounding a small
// weight to zero. Each word costs O(N·d): no approximate search.
type SynTF struct {
	emb  *Embedding
	eps  float64
	coef float64   // ε/(2Δu); tests double it (the dropped factor 2)
	inv  []float64 // 1/‖φ(w)‖₂
}

// NewSynTF returns SynTF at ε over emb. Every vector must be non-zero
// (the cosine is undefined otherwise).
func NewSynTF(emb *Embedding, eps float64) (*SynTF, error) {
	if err := checkEps(eps); err != nil {
		return nil, fmt.Errorf("syntf: %w", err)
	}
	if emb == nil {
		return nil, fmt.Errorf("syntf: %w: nil embedding", ErrInvalidParameter)
	}
	norms := emb.Norms()
	inv := make([]float64, len(norms))
	for w, n := range norms {
		if !(n > 0) || math.IsInf(n, 0) {
			return nil, fmt.Errorf("syntf: %w: word %d has vector norm %v", ErrInvalidParameter, w, n)
		}
		inv[w] = 1 / n
	}
	return &SynTF{emb: emb, eps: eps, coef: eps / (2 * SynTFSensitivity), inv: inv}, nil
}

// Epsilon implements mechanism.Mechanism.
func (s *SynTF) Epsilon() float64 { return s.eps }

// Len implements mechanism.Mechanism.
func (s *SynTF) Len() int { return s.emb.Len() }

// Metric implements mechanism.Mechanism: word-level ε-DP (the constant
// metric), with the finer chord bound stated on the type.
func (s *SynTF) Metric() string { return "discrete (word-level eps-DP)" }

func (s *SynTF) check(w int, src rand.Source) error {
	if w < 0 || w >= s.emb.Len() {
		return fmt.Errorf("syntf: %w: %d not in [0, %d)", mechanism.ErrWordOutOfRange, w, s.emb.Len())
	}
	if src == nil {
		return fmt.Errorf("syntf: %w", mechanism.ErrNilSource)
	}
	return nil
}

// scores writes ε·u(w, y)/(2Δu) for every y into dst (length N).
func (s *SynTF) scores(w int, dst []float64) {
	v := s.emb.Vector(w)
	for y := range dst {
		var dp float64
		for i, x := range s.emb.Vector(y) {
			dp += float64(x) * float64(v[i])
		}
		// Rounding can push |cos| a hair past 1; the utility's range,
		// and so Δu, is [−1, 1].
		c := min(1, max(-1, dp*s.inv[w]*s.inv[y]))
		dst[y] = s.coef * c
	}
}

// pick is the Gumbel-max draw: the argmax of score + Gumbel(1) noise has
// exactly the softmax law of the scores.
func pick(sc []float64, src rand.Source) int {
	best, arg := math.Inf(-1), 0
	for y, x := range sc {
		if g := x + sample.Gumbel(src, 1); g > best {
			best, arg = g, y
		}
	}
	return arg
}

// Privatize releases one word for w.
func (s *SynTF) Privatize(w int, src rand.Source) (int, error) {
	if err := s.check(w, src); err != nil {
		return -1, err
	}
	sc := make([]float64, s.emb.Len())
	s.scores(w, sc)
	return pick(sc, src), nil
}

// synTFChunk is how many words' scores a batch holds at once (4·N
// float64s, 1.6 MB at N = 50,000), so a batch of any length runs in
// bounded memory.
const synTFChunk = 4

// PrivatizeBatch implements Batcher. The scores of a few words at a time
// are computed on workers goroutines; the Gumbel draws come from src in
// input order, so a seeded source gives the same output for any worker
// count.
func (s *SynTF) PrivatizeBatch(ws []int, out []int, src rand.Source, workers int) error {
	fail := func(err error) error {
		for i := range out {
			out[i] = -1
		}
		return err
	}
	if len(out) != len(ws) {
		return fail(fmt.Errorf("syntf: %w: %d outputs for %d words", ErrInvalidParameter, len(out), len(ws)))
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
		if workers == 1 || len(chunk) == 1 {
			for j, w := range chunk {
				s.scores(w, buf[j*n:(j+1)*n])
			}
		} else {
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
		}
		for j := range chunk {
			out[start+j] = pick(buf[j*n:(j+1)*n], src)
		}
	}
	return nil
}
