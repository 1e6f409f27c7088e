package main

import (
	"math"

	"github.com/wordveil/wordveil/research/internal/binarize"
)

// ablationResult scores an orthogonalised SRP: the same Gaussian matrix
// with each block of Dim consecutive rows made orthonormal (Gram–Schmidt),
// as in "super-bit" LSH. It is data-independent like SRP but its
// hyperplanes are spread out like those of a tight frame, so the gap
// between it and NLB is what NLB gains by adapting to the data, and the gap
// between SRP and it is what decorrelating the hyperplanes alone gives.
type ablationResult struct {
	report *binarize.QualityReport
}

func orthogonalSRP(e *binarize.Embeddings, srp *binarize.Projection, truth *binarize.Neighbours) (*ablationResult, error) {
	p := *srp
	p.Method = "srp-orthogonal"
	p.W = append([]float64(nil), srp.W...)
	d := p.Dim
	for k := 0; k < binarize.Bits; k++ {
		row := p.W[k*d : (k+1)*d]
		for j := (k / d) * d; j < k; j++ { // earlier rows of the same block
			prev := p.W[j*d : (j+1)*d]
			var s float64
			for i := range row {
				s += float64(row[i] * prev[i])
			}
			for i := range row {
				row[i] -= float64(s * prev[i])
			}
		}
		var n float64
		for _, v := range row {
			n += float64(v * v)
		}
		n = math.Sqrt(n)
		for i := range row {
			row[i] /= n
		}
	}
	codes, err := p.EncodeAll(e)
	if err != nil {
		return nil, err
	}
	r, err := truth.Evaluate(codes)
	if err != nil {
		return nil, err
	}
	return &ablationResult{report: r}, nil
}
