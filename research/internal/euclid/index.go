package euclid

import (
	"errors"
	"fmt"
	"math"
	"sync"
)

// Sentinel errors.
var (
	ErrShape     = errors.New("euclid: data length is not rows × dim")
	ErrDimension = errors.New("euclid: query has the wrong dimension")
	ErrNotFinite = errors.New("euclid: vector holds NaN or Inf")
	ErrEmpty     = errors.New("euclid: no vectors")
	ErrK         = errors.New("euclid: k is out of range [1, Len()]")
)

// Index holds N vectors of dimension Dim, row-major, and their squared norms.
type Index struct {
	Dim   int
	data  []float32
	norms []float32 // ‖x‖² in float32, for the candidate filter only

	packOnce sync.Once
	pk       *packed // the k-NN kernels' copy of the rows, built on first use
}

// New indexes data (len = rows·dim, row-major). The slice is used in place.
func New(data []float32, dim int) (*Index, error) {
	if dim <= 0 || len(data)%dim != 0 {
		return nil, fmt.Errorf("%w: %d values, dim %d", ErrShape, len(data), dim)
	}
	x := &Index{Dim: dim, data: data, norms: make([]float32, len(data)/dim)}
	for i := range x.norms {
		var s float64
		for _, v := range x.Row(i) {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("%w: row %d", ErrNotFinite, i)
			}
			s += float64(v) * float64(v)
		}
		x.norms[i] = float32(s)
	}
	return x, nil
}

// Len returns the number of vectors.
func (x *Index) Len() int { return len(x.norms) }

// Row returns vector i (not a copy).
func (x *Index) Row(i int) []float32 { return x.data[i*x.Dim : (i+1)*x.Dim : (i+1)*x.Dim] }

// Dist is the exact distance the package's results are defined by.
func Dist(a, b []float32) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		d := float64(v) - float64(b[i])
		s += d * d
	}
	return math.Sqrt(s)
}

// Neighbor is a result: a row id and its exact distance.
type Neighbor struct {
	ID   int32
	Dist float64
}

// candidateSlack bounds the float32 filter's error on ‖a−b‖²: each term of
// ‖a‖² + ‖b‖² − 2a·b is rounded with relative error ~dim·2^-24, so an
// absolute slack proportional to the norms is ample.
func candidateSlack(na, nb float32, dim int) float32 {
	return (na + nb) * float32(dim+8) * 3e-7
}
