package attack

import (
	"fmt"
	"math"
	"sync"
)

// Column is what the attacker needs of a mechanism's law: for an
// observed output y, the column P[w][y] = Pr[M(w) = y] over every input
// w. Implementations compute one column without the N×N matrix where the
// law has a closed form per entry; they are safe for concurrent use.
type Column interface {
	// Len is the vocabulary size N.
	Len() int
	// Column writes P[w][y] for every w into dst (len(dst) = Len()).
	Column(y int, dst []float64) error
}

// Matrix is the Column of a law given as a full matrix (package
// dpexact's laws, for small vocabularies).
type Matrix struct{ p [][]float64 }

// NewMatrix checks that P is a square matrix of probabilities whose rows
// sum to 1 (within 1e-9) and wraps it.
func NewMatrix(P [][]float64) (*Matrix, error) {
	n := len(P)
	if n == 0 {
		return nil, fmt.Errorf("%w: empty law", ErrInvalid)
	}
	for w, row := range P {
		if len(row) != n {
			return nil, fmt.Errorf("%w: law row %d has %d entries, want %d", ErrInvalid, w, len(row), n)
		}
		s := 0.0
		for y, p := range row {
			if !(p >= 0) || p > 1 {
				return nil, fmt.Errorf("%w: P(%d|%d) = %v", ErrInvalid, y, w, p)
			}
			s += p
		}
		if math.Abs(s-1) > 1e-9 {
			return nil, fmt.Errorf("%w: law row %d sums to %v", ErrInvalid, w, s)
		}
	}
	return &Matrix{p: P}, nil
}

// Len is N.
func (m *Matrix) Len() int {
	if m == nil {
		return 0
	}
	return len(m.p)
}

// Column copies column y.
func (m *Matrix) Column(y int, dst []float64) error {
	if err := checkColumn(y, dst, m.Len()); err != nil {
		return err
	}
	for w, row := range m.p {
		dst[w] = row[y]
	}
	return nil
}

func checkColumn(y int, dst []float64, n int) error {
	if n == 0 {
		return fmt.Errorf("%w: empty law (a zero or nil Column)", ErrInvalid)
	}
	if y < 0 || y >= n {
		return fmt.Errorf("%w: output %d outside [0, %d)", ErrInvalid, y, n)
	}
	if len(dst) != n {
		return fmt.Errorf("%w: column buffer of %d entries, want %d", ErrInvalid, len(dst), n)
	}
	return nil
}

// Mixture is the Column of a uniform mixture of laws (a list chosen
// uniformly, as 1-DG and 1-DT over several lists): the mean of the parts'
// columns.
type Mixture struct {
	parts []Column
	tmp   sync.Pool // *[]float64: a part's column, reused across calls
}

// NewMixture checks that the parts are non-nil and share one N.
func NewMixture(parts ...Column) (*Mixture, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("%w: empty mixture", ErrInvalid)
	}
	for i, p := range parts {
		if p == nil || p.Len() != parts[0].Len() {
			return nil, fmt.Errorf("%w: mixture part %d is nil or of another size", ErrInvalid, i)
		}
	}
	return &Mixture{parts: parts}, nil
}

// Len is N.
func (m *Mixture) Len() int {
	if m == nil || len(m.parts) == 0 {
		return 0
	}
	return m.parts[0].Len()
}

// Column is the parts' mean column.
func (m *Mixture) Column(y int, dst []float64) error {
	if m.Len() > 0 && len(m.parts) == 1 {
		return m.parts[0].Column(y, dst)
	}
	if err := checkColumn(y, dst, m.Len()); err != nil {
		return err
	}
	clear(dst)
	buf, _ := m.tmp.Get().(*[]float64)
	if buf == nil || len(*buf) != len(dst) {
		b := make([]float64, len(dst))
		buf = &b
	}
	defer m.tmp.Put(buf)
	tmp := *buf
	for _, p := range m.parts {
		if err := p.Column(y, tmp); err != nil {
			return err
		}
		for w, v := range tmp {
			dst[w] += v / float64(len(m.parts))
		}
	}
	return nil
}
