package binarize

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/wordveil/wordveil/internal/hamming"
)

// Bits is the length of every code produced here.
const Bits = hamming.Bits

// Preprocess is how a raw vector x is prepared before projection:
// u = x − Mean; if Normalize, u /= ‖u‖ (a zero u stays zero); u *= Gain;
// if Clip, each component is clipped to [−1, 1].
type Preprocess struct {
	Mean      []float32 // the centring vector, len Dim
	Normalize bool
	Gain      float64 // > 0
	Clip      bool
}

// Projection is a linear binary encoder: bit k of the code of x is 1 if and
// only if W[k]·prep(x) > 0 (a Heaviside step; exactly zero gives 0). Both
// binarizers (sign random projection and near-lossless binarization) are of
// this form and differ only in how W is chosen. A Projection keeps
// everything needed to encode new vectors the same way.
type Projection struct {
	Method string // "srp" or "nlb"
	Seed   uint64 // the seed it was built from
	Dim    int
	Prep   Preprocess
	W      []float64 // Bits×Dim, row-major: row k is the normal of bit k's hyperplane
}

// Validate checks the shapes and values of p.
func (p *Projection) Validate() error {
	switch {
	case p == nil:
		return errorf("nil projection")
	case p.Dim < 1 || p.Dim > MaxDim:
		return errorf("projection dimension %d out of range [1, %d]", p.Dim, MaxDim)
	case len(p.W) != Bits*p.Dim:
		return errorf("projection has %d weights, want %d×%d", len(p.W), Bits, p.Dim)
	case len(p.Prep.Mean) != p.Dim:
		return errorf("mean has length %d, want %d", len(p.Prep.Mean), p.Dim)
	case !(p.Prep.Gain > 0) || math.IsInf(p.Prep.Gain, 0):
		return errorf("gain %v is not a positive finite number", p.Prep.Gain)
	}
	for _, w := range p.W {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return errorf("projection has a non-finite weight")
		}
	}
	for _, m := range p.Prep.Mean {
		if math.IsNaN(float64(m)) || math.IsInf(float64(m), 0) {
			return errorf("mean has a non-finite component")
		}
	}
	return nil
}

// prepare writes prep(x) into u (len Dim).
func (pp *Preprocess) prepare(x []float32, u []float64) {
	for j, v := range x {
		u[j] = float64(v) - float64(pp.Mean[j])
	}
	scale := pp.Gain
	if pp.Normalize {
		if n := math.Sqrt(dot(u, u)); n > 0 {
			scale /= n
		}
	}
	for j := range u {
		v := float64(u[j] * scale)
		if pp.Clip {
			v = max(-1, min(1, v))
		}
		u[j] = v
	}
}

// encodePrepared returns the code of an already prepared vector.
func encodePrepared(w []float64, dim int, u []float64) hamming.Code {
	var c hamming.Code
	for k := 0; k < Bits; k++ {
		if dot(u, w[k*dim:(k+1)*dim]) > 0 {
			c[k>>6] |= 1 << (uint(k) & 63)
		}
	}
	return c
}

// Encode returns the code of one raw (uncentred) vector x.
func (p *Projection) Encode(x []float32) (hamming.Code, error) {
	if err := p.Validate(); err != nil {
		return hamming.Code{}, err
	}
	if len(x) != p.Dim {
		return hamming.Code{}, errorf("vector has dimension %d, projection %d", len(x), p.Dim)
	}
	u := make([]float64, p.Dim)
	p.Prep.prepare(x, u)
	return encodePrepared(p.W, p.Dim, u), nil
}

// EncodeAll returns the codes of every row of e (raw, uncentred vectors),
// in row order. Rows are encoded in parallel; each code depends on its row
// only, so the result does not depend on scheduling.
func (p *Projection) EncodeAll(e *Embeddings) ([]hamming.Code, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := e.Validate(); err != nil {
		return nil, err
	}
	if e.Dim != p.Dim {
		return nil, errorf("embeddings have dimension %d, projection %d", e.Dim, p.Dim)
	}
	codes := make([]hamming.Code, e.Len())
	parallelRanges(e.Len(), 256, func(lo, hi int) {
		u := make([]float64, p.Dim)
		for i := lo; i < hi; i++ {
			p.Prep.prepare(e.Vector(i), u)
			codes[i] = encodePrepared(p.W, p.Dim, u)
		}
	})
	return codes, nil
}

// String summarises p for reports.
func (p *Projection) String() string {
	return fmt.Sprintf("%s(dim=%d, bits=%d, seed=%d, normalize=%t, gain=%g, clip=%t)",
		p.Method, p.Dim, Bits, p.Seed, p.Prep.Normalize, p.Prep.Gain, p.Prep.Clip)
}

// parallelRanges splits [0, n) into contiguous ranges, one per available
// core but none shorter than minChunk, and runs f on each concurrently. Callers use it only where every
// index's result is independent of the others, so the split never shows
// in the output.
func parallelRanges(n, minChunk int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/max(1, minChunk)))
	if workers <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}
