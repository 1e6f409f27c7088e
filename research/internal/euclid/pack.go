package euclid

import "math"

// packed is the rows' layout for the filter kernels: groups of 64 rows
// (zero-padded at the end), each stored k-major, so that
//
//	data[g*Dim*64 + k*64 + j] = Row(g*64 + j)[k]
//
// and one kernel step over k reads 64 consecutive floats (four 16-lane
// vectors). norms holds the rows' float32 ‖y‖² padded with zeros.
type packed struct {
	data    []float32
	norms   []float32
	groups  int
	maxNorm float64 // an upper bound on every row's ‖y‖ (rounded up)
}

// packedRows builds the kernels' copy once; safe for concurrent use.
func (x *Index) packedRows() *packed {
	x.packOnce.Do(func() {
		n, dim := x.Len(), x.Dim
		groups := (n + groupRows - 1) / groupRows
		p := &packed{
			data:   make([]float32, groups*dim*groupRows),
			norms:  make([]float32, groups*groupRows),
			groups: groups,
		}
		var m float64
		for i := 0; i < n; i++ {
			g, j := i/groupRows, i%groupRows
			base := g * dim * groupRows
			var s float64
			for k, v := range x.Row(i) {
				p.data[base+k*groupRows+j] = v
				s += float64(v) * float64(v)
			}
			m = max(m, s)
			p.norms[i] = x.norms[i]
		}
		// Rounded up past the float64 sum's relative error (≤ (dim+2)·2^-53).
		p.maxNorm = math.Sqrt(m) * (1 + float64(dim+2)*0x1p-52)
		x.pk = p
	})
	return x.pk
}
