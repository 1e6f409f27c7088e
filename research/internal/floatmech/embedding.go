package floatmech

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/wordveil/wordveil/internal/wva"
	"github.com/wordveil/wordveil/research/internal/euclid"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrNoFloats: the asset carries no float vectors (only research
	// builds do: `wordveil-research assets build -floats`).
	ErrNoFloats = errors.New("floatmech: asset has no float vectors (build it with `wordveil-research assets build -floats`)")
	// ErrInvalidParameter: a mechanism parameter other than ε is out of
	// range (λ, t, C, δ, k).
	ErrInvalidParameter = errors.New("floatmech: invalid parameter")
)

// Embedding is the vocabulary's float vectors with an exact
// nearest-neighbour index. It is read-only after construction and safe for
// concurrent use.
type Embedding struct {
	idx *euclid.Index
	dim int

	normsOnce sync.Once
	norms     []float64 // ‖φ(w)‖₂, for clipping
}

// NewEmbedding indexes n·dim float32 values, row-major (row i is word i).
// The slice is used in place and must not be modified afterwards.
func NewEmbedding(vectors []float32, dim int) (*Embedding, error) {
	idx, err := euclid.New(vectors, dim)
	if err != nil {
		return nil, fmt.Errorf("floatmech: index vectors: %w", err)
	}
	if idx.Len() == 0 {
		return nil, fmt.Errorf("floatmech: %w", euclid.ErrEmpty)
	}
	return &Embedding{idx: idx, dim: dim}, nil
}

// FromAsset indexes a research asset's float vectors.
func FromAsset(a *wva.Asset) (*Embedding, error) {
	if a == nil || a.Floats == nil {
		return nil, ErrNoFloats
	}
	return NewEmbedding(a.Floats, int(a.Header.Dim))
}

// Len is the vocabulary size N.
func (e *Embedding) Len() int { return e.idx.Len() }

// Dim is the vectors' dimension d.
func (e *Embedding) Dim() int { return e.dim }

// Vector returns word w's vector (not a copy).
func (e *Embedding) Vector(w int) []float32 { return e.idx.Row(w) }

// Index is the exact nearest-neighbour index over the vectors.
func (e *Embedding) Index() *euclid.Index { return e.idx }

// Norms returns ‖φ(w)‖₂ for every word (computed once).
func (e *Embedding) Norms() []float64 {
	e.normsOnce.Do(func() {
		e.norms = make([]float64, e.Len())
		for w := range e.norms {
			var s float64
			for _, v := range e.Vector(w) {
				s += float64(v) * float64(v)
			}
			e.norms[w] = math.Sqrt(s)
		}
	})
	return e.norms
}

// MedianNorm is the median of the vectors' norms: the default clipping
// threshold C of TrLaplace and the clipped baselines (the papers leave C
// open; the median clips half the vocabulary, mostly rare words, whose
// vectors are the longest in GloVe).
func (e *Embedding) MedianNorm() float64 {
	n := append([]float64(nil), e.Norms()...)
	sort.Float64s(n)
	if len(n)%2 == 1 {
		return n[len(n)/2]
	}
	return (n[len(n)/2-1] + n[len(n)/2]) / 2
}
