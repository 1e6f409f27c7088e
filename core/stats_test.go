package core

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// violation is one breach of the metric-DP inequality.
type violation struct {
	w, w2, y int
	lnRatio  float64 // ln P(y|w) − ln P(y|w'), +Inf if P(y|w') = 0
	bound    float64 // ε·d(w,w')
}

func (v violation) String() string {
	return fmt.Sprintf("ln P(%d|%d) − ln P(%d|%d) = %.6g > ε·d = %.6g", v.y, v.w, v.y, v.w2, v.lnRatio, v.bound)
}

// auditMetricDP checks ln P(y|w) − ln P(y|w') ≤ ε·d(w,w') + 1e-9 for every
// ordered pair and every output, and that every row is a distribution.
// It returns the violations (at most max of them) and a row error if any.
func auditMetricDP(P [][]float64, eps float64, d [][]float64, max int) ([]violation, error) {
	for w, row := range P {
		s := 0.0
		for _, p := range row {
			if p < 0 || math.IsNaN(p) {
				return nil, fmt.Errorf("P(.|%d) has entry %v", w, p)
			}
			s += p
		}
		if math.Abs(s-1) > 1e-9 {
			return nil, fmt.Errorf("P(.|%d) sums to %v", w, s)
		}
	}
	var out []violation
	for w := range P {
		for w2 := range P {
			bound := eps * d[w][w2]
			for y := range P {
				a, b := P[w][y], P[w2][y]
				if a == 0 {
					continue
				}
				lr := math.Inf(1)
				if b > 0 {
					lr = math.Log(a) - math.Log(b)
				}
				if lr > bound+1e-9 {
					out = append(out, violation{w, w2, y, lr, bound})
					if len(out) >= max {
						return out, nil
					}
				}
			}
		}
	}
	return out, nil
}

// chiSquare tests counts of draws against probabilities p, pooling every
// cell whose expected count is below 5 into one cell (and that cell into
// the smallest other cell if it stays below 5). A draw in a cell of
// probability 0 gives p-value 0. It returns the statistic, the degrees of
// freedom and the p-value.
func chiSquare(counts []int, p []float64) (stat float64, df int, pvalue float64) {
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
	return stat, df, gammaQ(float64(df)/2, stat/2)
}

// gammaQ is the regularized upper incomplete gamma function Q(a, x)
// (series for x < a+1, Lentz continued fraction otherwise), so that the
// chi-square survival function is gammaQ(df/2, stat/2).
func gammaQ(a, x float64) float64 {
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

// falseFailureRate is the chance that a correct sampler fails one
// chi-square test.
const falseFailureRate = 1e-4

// sampleCounts draws m.Privatize(w) draws times.
func sampleCounts(m Mechanism, w, draws int, src rand.Source) ([]int, error) {
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

func testSeed(label string) [32]byte {
	var s [32]byte
	copy(s[:], label)
	return s
}
