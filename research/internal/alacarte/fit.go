package alacarte

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Weighting is the weight c_w a training word gets in the least squares
// as a function of its number n of usable occurrences.
type Weighting int

const (
	// WeightLog is c = ln(1 + n), the default. The context average of a
	// word seen n times has noise variance about 1/n, so better-measured
	// words deserve more weight; but the inverse-variance weight c = n
	// would hand the fit to the few hundred function words that fill most
	// of any corpus and whose contexts are all close to the corpus average,
	// and those are the words least like the rare words being induced. The
	// logarithm keeps the order and drops that dominance.
	WeightLog Weighting = iota
	// WeightClipped is c = min(n, 100): inverse-variance weighting, capped.
	WeightClipped
	// WeightUniform is c = 1.
	WeightUniform
)

func (w Weighting) String() string {
	switch w {
	case WeightLog:
		return "log"
	case WeightClipped:
		return "clipped"
	case WeightUniform:
		return "uniform"
	}
	return fmt.Sprintf("Weighting(%d)", int(w))
}

func (w Weighting) weight(n int64) float64 {
	switch w {
	case WeightClipped:
		return float64(min(n, 100))
	case WeightUniform:
		return 1
	}
	return math.Log1p(float64(n))
}

// FitConfig holds the settings of Fit.
type FitConfig struct {
	// MinCount: training words with fewer usable occurrences are left out
	// of the fit, ≥ 1.
	MinCount int
	Weight   Weighting
	// Ridge is the relative Tikhonov term: λ = Ridge × trace(Σ c·u·uᵀ)/dim
	// is added to the diagonal of the normal equations, ≥ 0. Context
	// averages all share the corpus-average direction, so the system can be
	// badly conditioned; a light ridge keeps the solve stable and the map
	// bounded. Relative to the trace, it does not depend on the vectors'
	// scale.
	Ridge float64
}

// DefaultFitConfig: training words seen at least 10 times, log weights, a
// ridge of 1e-6 (small next to the spectrum's bulk, so it changes the fit
// only in directions the data do not determine).
func DefaultFitConfig() FitConfig {
	return FitConfig{MinCount: 10, Weight: WeightLog, Ridge: 1e-6}
}

func (c *FitConfig) validate() error {
	switch {
	case c.MinCount < 1:
		return fmt.Errorf("%w: training minimum count %d, want ≥ 1", ErrConfig, c.MinCount)
	case c.Weight < WeightLog || c.Weight > WeightUniform:
		return fmt.Errorf("%w: unknown weighting %d", ErrConfig, int(c.Weight))
	case !(c.Ridge >= 0) || math.IsInf(c.Ridge, 0):
		return fmt.Errorf("%w: ridge %v, want a finite number ≥ 0", ErrConfig, c.Ridge)
	}
	return nil
}

// FitReport describes a fit.
type FitReport struct {
	Words    int     // training words used
	Rare     int     // training words left out for having fewer than MinCount occurrences
	Lambda   float64 // the absolute ridge added to the diagonal
	Residual float64 // Σ c‖v − A·u‖² / Σ c‖v‖² over the words used: 0 is a perfect fit
}

// Map is the fitted linear map A (dim × dim): an induced vector is A·u.
type Map struct {
	dim int
	a   []float64 // row-major: a[i*dim+j] = A[i][j]
}

// Dim returns the dimension of the map.
func (m *Map) Dim() int {
	if m == nil {
		return 0
	}
	return m.dim
}

// Apply returns A·u rounded to float32. It fails if u has the wrong length
// or the result is not finite.
func (m *Map) Apply(u []float64) ([]float32, error) {
	if m == nil || m.dim == 0 {
		return nil, ErrNil
	}
	if len(u) != m.dim {
		return nil, fmt.Errorf("%w: vector of length %d, map of dimension %d", ErrDim, len(u), m.dim)
	}
	out := make([]float32, m.dim)
	for i := range out {
		var s float64
		for j, x := range m.a[i*m.dim : (i+1)*m.dim] {
			s += float64(x * u[j])
		}
		out[i] = float32(s)
		if math.IsNaN(float64(out[i])) || math.IsInf(float64(out[i]), 0) {
			return nil, fmt.Errorf("%w: component %d of A·u", ErrNotFinite, i)
		}
	}
	return out, nil
}

// Fit solves the weighted least squares A = argmin Σ c_w ‖v_w − A·u_w‖²
// over the training words seen at least cfg.MinCount times.
//
// The solve: with G = Σ c·u·uᵀ + λI and B = Σ c·u·vᵀ (both dim × dim,
// summed in float64 in slot order), the normal equations are G·Aᵀ = B. G is
// symmetric positive definite when the context averages span the space
// (or λ > 0), so it is factorized by Cholesky (gonum/mat) and Aᵀ = G⁻¹·B
// by two triangular solves. Forming G squares the condition number of the
// data matrix; at dimension ~100 in float64 that leaves ample precision,
// and the ridge guards the degenerate case. A factorization failure is
// ErrSingular.
func (a *Accumulator) Fit(cfg FitConfig) (*Map, FitReport, error) {
	var rep FitReport
	if a == nil || a.index == nil {
		return nil, rep, ErrNil
	}
	if err := cfg.validate(); err != nil {
		return nil, rep, err
	}
	d := a.dim
	g := make([]float64, d*d) // upper triangle used
	b := make([]float64, d*d)
	u := make([]float64, d)
	cu := make([]float64, d)
	var used []int
	for s := 0; s < a.train; s++ {
		n := a.counts[s]
		if n < int64(cfg.MinCount) {
			rep.Rare++
			continue
		}
		used = append(used, s)
		c := cfg.Weight.weight(n)
		a.context(s, u)
		v := a.src.Vector(s) // training slot s is source row s
		for i, x := range u {
			cu[i] = float64(c * x)
		}
		for i, ci := range cu {
			row := g[i*d : (i+1)*d]
			for j := i; j < d; j++ {
				row[j] += float64(ci * u[j])
			}
			brow := b[i*d : (i+1)*d]
			for j, y := range v {
				brow[j] += float64(ci * float64(y))
			}
		}
	}
	rep.Words = len(used)
	if len(used) < d {
		return nil, rep, fmt.Errorf("%w: %d training words seen at least %d times, need at least the dimension %d",
			ErrNoData, len(used), cfg.MinCount, d)
	}
	var trace float64
	for i := 0; i < d; i++ {
		trace += g[i*d+i]
	}
	rep.Lambda = float64(cfg.Ridge*trace) / float64(d)
	sym := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			x := g[i*d+j]
			if i == j {
				x += rep.Lambda
			}
			sym.SetSym(i, j, x)
		}
	}
	var chol mat.Cholesky
	if ok := chol.Factorize(sym); !ok {
		return nil, rep, fmt.Errorf("%w: the weighted context Gram matrix is not positive definite (try a ridge > 0)", ErrSingular)
	}
	var at mat.Dense
	if err := chol.SolveTo(&at, mat.NewDense(d, d, b)); err != nil {
		return nil, rep, fmt.Errorf("%w: %v", ErrSingular, err)
	}
	m := &Map{dim: d, a: make([]float64, d*d)}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			x := at.At(j, i) // Aᵀ[j][i] = A[i][j]
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, rep, fmt.Errorf("%w: in the fitted map", ErrNotFinite)
			}
			m.a[i*d+j] = x
		}
	}
	rep.Residual = a.residual(m, used, cfg.Weight)
	return m, rep, nil
}

// residual returns Σ c‖v − A·u‖² / Σ c‖v‖² over the used slots.
func (a *Accumulator) residual(m *Map, used []int, w Weighting) float64 {
	d := a.dim
	u := make([]float64, d)
	var num, den float64
	for _, s := range used {
		c := w.weight(a.counts[s])
		a.context(s, u)
		v := a.src.Vector(s)
		for i := 0; i < d; i++ {
			var p float64
			for j, x := range m.a[i*d : (i+1)*d] {
				p += float64(x * u[j])
			}
			e := float64(v[i]) - p
			num += float64(c * float64(e*e))
			den += float64(c * float64(float64(v[i])*float64(v[i])))
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}
