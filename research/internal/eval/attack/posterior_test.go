package attack

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/audit"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// mechCases is the audit's case table on its synthetic vocabularies (16
// to 30 words; no asset): every on-device mechanism with an exact law,
// plain and restricted to allowed outputs, each with its real sampler.
// The table is built once (it audits every law) and only read after.
func mechCases(t *testing.T) []audit.Case {
	t.Helper()
	all, err := auditTable()
	if err != nil {
		t.Fatal(err)
	}
	var cs []audit.Case
	for _, c := range all {
		if c.Mech != nil {
			cs = append(cs, c)
		}
	}
	if len(cs) < 20 {
		t.Fatalf("%d mechanism cases in the audit table, want every family", len(cs))
	}
	return cs
}

var auditTable = sync.OnceValues(func() ([]audit.Case, error) { return audit.Cases(nil, audit.Options{}) })

// zipfPrior is a skewed prior over n words, prior(w) ∝ 1/(w+1), with
// word 1 given zero mass (a prior with zeros).
func zipfPrior(n int) []float64 {
	p := make([]float64, n)
	for w := range p {
		p[w] = 1 / float64(w+1)
	}
	if n > 1 {
		p[1] = 0
	}
	return p
}

func uniformPrior(n int) []float64 {
	p := make([]float64, n)
	for w := range p {
		p[w] = 1
	}
	return p
}

// drawer draws words from a prior by inversion.
type drawer struct {
	cum []float64
	rng *rand.Rand
}

func newDrawer(prior []float64, src rand.Source) drawer {
	cum := make([]float64, len(prior))
	s := 0.0
	for w, p := range prior {
		s += p
		cum[w] = s
	}
	return drawer{cum: cum, rng: rand.New(src)}
}

func (d drawer) draw() int {
	u := d.rng.Float64() * d.cum[len(d.cum)-1]
	for w, c := range d.cum {
		if u < c && (w == 0 || c > d.cum[w-1]) {
			return w
		}
	}
	for w := len(d.cum) - 1; ; w-- { // u rounded onto the total
		if w == 0 || d.cum[w] > d.cum[w-1] {
			return w
		}
	}
}

// joint draws w ~ prior and y = the sampler's output, draws times, and
// tallies counts[y][w].
func joint(t *testing.T, c audit.Case, prior []float64, draws int, label string) [][]int {
	t.Helper()
	n := len(c.P)
	counts := make([][]int, n)
	for y := range counts {
		counts[y] = make([]int, n)
	}
	words := newDrawer(prior, seeded.Key(stattest.Seed("attack/words/"+label)))
	src := seeded.Key(stattest.Seed("attack/mech/" + label))
	for range draws {
		w := words.draw()
		y, err := c.Mech.Privatize(w, src)
		if err != nil {
			t.Fatal(err)
		}
		counts[y][w]++
	}
	return counts
}

// posteriorFit compares, for every observed output y, the empirical
// distribution of the inputs that produced y with the posterior of
// attacker law P and prior: one chi-square per y (stattest.ChiSquare,
// small cells pooled), which given the outputs' counts are independent,
// summed into one statistic and its p-value.
func posteriorFit(counts [][]int, P [][]float64, prior []float64) (stat float64, df int, p float64, err error) {
	for y, row := range counts {
		n := 0
		for _, c := range row {
			n += c
		}
		if n == 0 {
			continue
		}
		post, err := Posterior(P, prior, y)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("output %d observed %d times: %w", y, n, err)
		}
		s, d, py := stattest.ChiSquare(row, post)
		if py == 0 && math.IsInf(s, 1) {
			return s, 0, 0, nil // an input the posterior says is impossible
		}
		if d >= 1 {
			stat += s
			df += d
		}
	}
	if df < 1 {
		return stat, df, 1, nil
	}
	return stat, df, stattest.GammaQ(float64(df)/2, stat/2), nil
}

// otherEps pairs each case with the law of the same mechanism on the
// same vocabulary at another ε in the table (nil when there is none):
// the "wrong law" control.
func otherEps(cs []audit.Case) map[int][][]float64 {
	m := map[int][][]float64{}
	for i, a := range cs {
		for _, b := range cs {
			if a.Name == b.Name && a.Vocabulary == b.Vocabulary && a.Eps != b.Eps {
				m[i] = b.P
				break
			}
		}
	}
	return m
}

// posteriorShift is Σ_y Pr[y]·TV(posterior of P, posterior of Q) under
// the prior: how far a wrong attacker's posterior is from the true one,
// averaged over outputs. Controls are required to fail only where it is
// at least minShift (below that the -short size has too little power).
func posteriorShift(P, Q [][]float64, prior, priorQ []float64) float64 {
	n := len(P)
	tot := 0.0
	for _, p := range prior {
		tot += p
	}
	shift := 0.0
	for y := range n {
		py := 0.0
		for w := range n {
			py += prior[w] / tot * P[w][y]
		}
		if py == 0 {
			continue
		}
		a, errA := Posterior(P, prior, y)
		b, errB := Posterior(Q, priorQ, y)
		if errA != nil || errB != nil {
			shift += py // the wrong attacker cannot even explain y
			continue
		}
		tv := 0.0
		for w := range n {
			tv += math.Abs(a[w]-b[w]) / 2
		}
		shift += py * tv
	}
	return shift
}

const minShift = 0.05

// TestPosteriorMatchesSampled: on every mechanism of the audit's table
// (BRR, TEMHamming, SanText, SanText+, CusText, CusText+, 1-DG, 1-DT,
// each plain and restricted to allowed outputs; 16 to 30 words), inputs
// drawn from a skewed prior with a zero and privatized by the real
// sampler (seeded) come back, per output, in the proportions of the
// exact posterior prior(w)·P[w][y]: the summed chi-square's p-value is
// above stattest.FalseFailureRate. Negative controls, each required to
// be rejected (p below FalseFailureRate) wherever the wrong posterior is
// at least minShift away in mean total variation: the prior ignored
// (uniform prior) and the same mechanism's law at another ε of the
// table. 10,000 draws a case under -short (≈ 500 per output; every
// control that runs is then rejected with p below 1e-30), 100,000 at
// full size.
func TestPosteriorMatchesSampled(t *testing.T) {
	draws := 100000
	if testing.Short() {
		draws = 10000
	}
	cs := mechCases(t)
	wrongEps := otherEps(cs)
	controls := map[string]int{}
	for i, c := range cs {
		t.Run(c.Name+" ε="+audit.FormatFloat(c.Eps)+"/"+c.Vocabulary, func(t *testing.T) {
			n := len(c.P)
			prior := zipfPrior(n)
			counts := joint(t, c, prior, draws, "post "+strconv.Itoa(i))
			stat, df, p, err := posteriorFit(counts, c.P, prior)
			if err != nil {
				t.Fatal(err)
			}
			p0 := p
			if p < stattest.FalseFailureRate {
				t.Errorf("exact posterior rejected: chi2=%.1f df=%d p=%.3g", stat, df, p)
			}
			for _, ctl := range []struct {
				name  string
				P     [][]float64
				prior []float64
			}{
				{"prior ignored", c.P, uniformPrior(n)},
				{"law at another ε", wrongEps[i], prior},
			} {
				if ctl.P == nil {
					continue
				}
				shift := posteriorShift(c.P, ctl.P, prior, ctl.prior)
				stat, df, p, err := posteriorFit(counts, ctl.P, ctl.prior)
				if err != nil {
					p = 0 // the wrong posterior cannot explain an observed output
				}
				t.Logf("exact p=%.3g; control %s: mean TV %.3f, p=%.3g", p0, ctl.name, shift, p)
				if shift >= minShift {
					controls[ctl.name]++
					if p >= stattest.FalseFailureRate {
						t.Errorf("control %s (mean TV %.3f) not rejected: chi2=%.1f df=%d p=%.3g", ctl.name, shift, stat, df, p)
					}
				}
			}
		})
	}
	// The controls must have been exercised, not skipped as too close.
	for _, name := range []string{"prior ignored", "law at another ε"} {
		if controls[name] < 8 {
			t.Errorf("control %q ran on %d cases, want ≥ 8", name, controls[name])
		}
	}
	t.Logf("controls run: %v of %d cases", controls, len(cs))
}
