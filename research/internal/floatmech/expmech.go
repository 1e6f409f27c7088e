package floatmech

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/sample"
)

// expMech is what SynTF and SanText share: both are the exponential
// mechanism over every word of the vocabulary, so a draw is a score per
// output word (scores, supplied by the mechanism) and an exact Gumbel-max
// pick. name prefixes the errors.
type expMech struct {
	name   string
	emb    *Embedding
	scores func(w int, dst []float64) // log-weights of every y for input w; len(dst) = N
}

func (m *expMech) check(w int, src rand.Source) error {
	if w < 0 || w >= m.emb.Len() {
		return fmt.Errorf("%s: %w: %d not in [0, %d)", m.name, mechanism.ErrWordOutOfRange, w, m.emb.Len())
	}
	if src == nil {
		return fmt.Errorf("%s: %w", m.name, mechanism.ErrNilSource)
	}
	return nil
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

func (m *expMech) privatize(w int, src rand.Source) (int, error) {
	if err := m.check(w, src); err != nil {
		return -1, err
	}
	sc := make([]float64, m.emb.Len())
	m.scores(w, sc)
	return pick(sc, src), nil
}

// expChunk is how many words' scores a batch holds at once (4·N float64s,
// 1.6 MB at N = 50,000), so a batch of any length runs in bounded memory.
const expChunk = 4

// privatizeBatch computes the scores of a few words at a time on workers
// goroutines; the Gumbel draws come from src in input order, so a seeded
// source gives the same output for any worker count.
func (m *expMech) privatizeBatch(ws []int, out []int, src rand.Source, workers int) error {
	fail := func(err error) error {
		for i := range out {
			out[i] = -1
		}
		return err
	}
	if len(out) != len(ws) {
		return fail(fmt.Errorf("%s: %w: %d outputs for %d words", m.name, ErrInvalidParameter, len(out), len(ws)))
	}
	for _, w := range ws {
		if err := m.check(w, src); err != nil {
			return fail(err)
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := m.emb.Len()
	buf := make([]float64, expChunk*n)
	for start := 0; start < len(ws); start += expChunk {
		chunk := ws[start:min(len(ws), start+expChunk)]
		if workers == 1 || len(chunk) == 1 {
			for j, w := range chunk {
				m.scores(w, buf[j*n:(j+1)*n])
			}
		} else {
			var wg sync.WaitGroup
			sem := make(chan struct{}, workers)
			for j, w := range chunk {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					m.scores(w, buf[j*n:(j+1)*n])
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
