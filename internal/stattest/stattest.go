// Package stattest holds the statistical checks WordVeil's tests share: a
// chi-square goodness-of-fit test with pooling of small cells, its p-value,
// the per-test false-failure rate the suites are tuned to, and fixed test
// seeds. It is imported by tests only.
package stattest

import (
	"math"
	"math/rand/v2"
)

// ChiSquare tests counts of draws against probabilities p, pooling every
// cell whose expected count is below 5 into one cell (and that cell into
// the smallest other cell if it stays below 5). A draw in a cell of
// probability 0 gives p-value 0. It returns the statistic, the degrees of
// freedom and the p-value.
func ChiSquare(counts []int, p []float64) (stat float64, df int, pvalue float64) {
	total := 0
	for _, c := range counts {
		total += c
	}
	type cell struct{ obs, exp float64 }
	var cells []cell
	pool := cell{}
	for i, c := range counts {
		e := p[i] * float64(total)
		if p[i] == 0 {
			if c > 0 {
				return math.Inf(1), 0, 0
			}
			continue
		}
		if e < 5 {
			pool.obs += float64(c)
			pool.exp += e
			continue
		}
		cells = append(cells, cell{float64(c), e})
	}
	if pool.exp > 0 {
		if pool.exp < 5 && len(cells) > 0 {
			k := 0
			for i := range cells {
				if cells[i].exp < cells[k].exp {
					k = i
				}
			}
			cells[k].obs += pool.obs
			cells[k].exp += pool.exp
		} else {
			cells = append(cells, pool)
		}
	}
	for _, c := range cells {
		stat += (c.obs - c.exp) * (c.obs - c.exp) / c.exp
	}
	df = len(cells) - 1
	if df < 1 {
		return stat, df, 1
	}
	return stat, df, GammaQ(float64(df)/2, stat/2)
}

// GammaQ is the regularized upper incomplete gamma function Q(a, x)
// (series for x < a+1, Lentz continued fraction otherwise), so that the
// chi-square survival function is GammaQ(df/2, stat/2).
func GammaQ(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, del, ap := 1/a, 1/a, a
		for range 10000 {
			ap++
			del *= x / ap
			sum += del
			if math.Abs(del) < math.Abs(sum)*1e-15 {
				break
			}
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 10000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-15 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// FalseFailureRate is the chance that a correct sampler fails one
// chi-square test. The suites run several hundred such tests with fixed
// seeds, so the per-test rate is small enough that a correct sampler
// fails none of them with probability about 0.9997 (each negative
// control's p-value is far below it: they are checked to fail).
const FalseFailureRate = 1e-6

// SampleCounts draws m.Privatize(w) draws times.
func SampleCounts(m Sampler, w, draws int, src rand.Source) ([]int, error) {
	counts := make([]int, m.Len())
	for range draws {
		y, err := m.Privatize(w, src)
		if err != nil {
			return nil, err
		}
		counts[y]++
	}
	return counts, nil
}

// Seed returns a fixed 32-byte seed spelled by label, for tests.
func Seed(label string) [32]byte {
	var s [32]byte
	copy(s[:], label)
	return s
}

// Sampler is what SampleCounts draws from: a mechanism's Privatize over
// word ids [0, Len()).
type Sampler interface {
	// Privatize releases an output word id for input w.
	Privatize(w int, src rand.Source) (int, error)
	// Len is the vocabulary size: inputs and outputs are in [0, Len()).
	Len() int
}
