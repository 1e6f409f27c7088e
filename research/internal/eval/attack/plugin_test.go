package attack

import (
	"math"
	"strconv"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// plugInGap is the largest |P̂[w][y] − P[w][y]| over the trained words in
// units of its tolerance: zWide binomial standard errors of a D-draw
// frequency plus the fallback's share α/(D+α).
func plugInGap(t *testing.T, c Column, P [][]float64, draws int, alpha float64) float64 {
	t.Helper()
	col := make([]float64, len(P))
	worst := 0.0
	for y := range P {
		if err := c.Column(y, col); err != nil {
			t.Fatal(err)
		}
		for w := range P {
			p := P[w][y]
			tol := zWide*math.Sqrt(p*(1-p)/float64(draws)) + alpha/(float64(draws)+alpha) + 1e-9
			worst = math.Max(worst, math.Abs(col[w]-p)/tol)
		}
	}
	return worst
}

// TestPlugInConvergesToBRR: on a small vocabulary where dpexact gives
// BRR's exact law (codes of 8 bits), the plug-in column trained on the
// real sampler matches the law entry by entry within binomial error, with
// and without allowed outputs; negative controls: the law at another ε
// and the lowest-index tie-break law are rejected. The attacker built on
// it reaches the exact attacker's rate and not more (a valid attacker),
// and untrained it is the prior-only baseline.
func TestPlugInConvergesToBRR(t *testing.T) {
	const n, L, eps, alpha = 16, 8, 1.5, 1.0
	draws := 20000
	if testing.Short() {
		draws = 8000
	}
	low, _, x, allowed, outs, train := brrFixture(t, n, L, "attack/plugin codes")
	uniform, err := NewMatrix(uniformRows(n))
	if err != nil {
		t.Fatal(err)
	}
	for _, restricted := range []bool{false, true} {
		name := "BRR"
		m, err := mechanism.NewBRR(x, eps)
		if err != nil {
			t.Fatal(err)
		}
		P, err := dpexact.BRR(low, L, eps)
		wrongEps, err2 := dpexact.BRR(low, L, 1.5*eps)
		lowest, err3 := dpexact.BRRLowestIndexTies(low, L, eps)
		if restricted {
			name = "BRR over A"
			if m, err = mechanism.Restrict(m, outs); err != nil {
				t.Fatal(err)
			}
			P, err = dpexact.RestrictedBRR(low, L, eps, allowed)
			wrongEps, err2 = dpexact.RestrictedBRR(low, L, 1.5*eps, allowed)
			lowest, err3 = nil, nil
		}
		for _, e := range []error{err, err2, err3} {
			if e != nil {
				t.Fatal(e)
			}
		}
		src := seeded.Key(stattest.Seed("attack/plugin/" + name))
		p, err := NewPlugIn(m, src, train, draws, uniform, alpha)
		if err != nil {
			t.Fatal(err)
		}
		if g := plugInGap(t, p, P, draws, alpha); g > 1 {
			t.Errorf("%s: plug-in column off the exact law (%.2f tolerances)", name, g)
		}
		if g := plugInGap(t, p, wrongEps, draws, alpha); g <= 1 {
			t.Errorf("%s: control (ε×1.5) not rejected (%.2f tolerances)", name, g)
		}
		if lowest != nil {
			if g := plugInGap(t, p, lowest, draws, alpha); g <= 1 {
				t.Errorf("%s: control (lowest-index ties) not rejected (%.2f tolerances)", name, g)
			}
		}

		prior := zipfPrior(n)
		ex, err := Exact(P, prior, 5)
		if err != nil {
			t.Fatal(err)
		}
		rc := &rateCheck{t: t, tokens: tokenCount()}
		label := "plugin " + strconv.FormatBool(restricted)
		tokens := tokensFrom(prior, rc.tokens, label)
		got, err := Attack(tokens, m, seeded.Key(stattest.Seed("attack/mech/"+label)), p, prior, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 5} {
			wide := wilson(got.Recovery[k-1].Rate*float64(rc.tokens), rc.tokens, zWide)
			if wide.Lo > ex.Recovery[k-1] {
				t.Errorf("%s R_%d: plug-in attacker %.4f above the Bayes-optimal %.4f", name, k, got.Recovery[k-1].Rate, ex.Recovery[k-1])
			}
			if got.Recovery[k-1].Rate < ex.Recovery[k-1]-0.02 {
				t.Errorf("%s R_%d: plug-in attacker %.4f far below the Bayes-optimal %.4f", name, k, got.Recovery[k-1].Rate, ex.Recovery[k-1])
			}
		}
		untrained, err := NewPlugIn(m, src, nil, draws, uniform, alpha)
		if err != nil {
			t.Fatal(err)
		}
		base, err := Attack(tokens, m, seeded.Key(stattest.Seed("attack/mech/"+label)), untrained, prior, 1)
		if err != nil {
			t.Fatal(err)
		}
		if base.Recovery[0] != base.Baseline[0] {
			t.Errorf("%s: untrained attacker %v, want the baseline %v", name, base.Recovery[0], base.Baseline[0])
		}
		if ex.Recovery[0]-ex.Baseline[0] < 0.05 {
			t.Errorf("%s: the output tells too little for the untrained control (R_1 %.4f, baseline %.4f)", name, ex.Recovery[0], ex.Baseline[0])
		}
		t.Logf("%s: R_1 exact %.4f plug-in %.4f; R_5 exact %.4f plug-in %.4f; baseline_1 %.4f",
			name, ex.Recovery[0], got.Recovery[0].Rate, ex.Recovery[4], got.Recovery[4].Rate, ex.Baseline[0])
	}
}

func TestPlugInRejectsBadInput(t *testing.T) {
	const n = 6
	_, codes, _ := lowCodes(n, 8, "attack/plugin bad")
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mechanism.NewBRR(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	uniform, err := NewMatrix(uniformRows(n))
	if err != nil {
		t.Fatal(err)
	}
	small, err := NewMatrix(uniformRows(2))
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("attack/plugin bad"))
	for _, b := range []struct {
		name  string
		m     Sampler
		train []int
		draws int
		fb    Column
		alpha float64
	}{
		{"nil sampler", nil, []int{0}, 10, uniform, 1},
		{"nil fallback", m, []int{0}, 10, nil, 1},
		{"fallback of another size", m, []int{0}, 10, small, 1},
		{"word out of range", m, []int{n}, 10, uniform, 1},
		{"negative word", m, []int{-1}, 10, uniform, 1},
		{"no draws", m, []int{0}, 0, uniform, 1},
		{"too many draws", m, []int{0}, MaxPlugInDraws + 1, uniform, 1},
		{"α = 0", m, []int{0}, 10, uniform, 0},
		{"α NaN", m, []int{0}, 10, uniform, math.NaN()},
		{"α +Inf", m, []int{0}, 10, uniform, math.Inf(1)},
	} {
		if _, err := NewPlugIn(b.m, src, b.train, b.draws, b.fb, b.alpha); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	if _, err := NewPlugIn(m, nil, []int{0}, 10, uniform, 1); err == nil {
		t.Error("nil source accepted")
	}
	if _, err := NewPlugIn(badSampler{n}, src, []int{0}, 10, uniform, 1); err == nil {
		t.Error("an output outside the vocabulary accepted")
	}
	var zero *PlugIn
	if zero.Len() != 0 || zero.Trained() != 0 {
		t.Error("nil PlugIn not empty")
	}
	if err := zero.Column(0, nil); err == nil {
		t.Error("nil PlugIn column accepted")
	}
	// Duplicates are trained once.
	p, err := NewPlugIn(m, src, []int{2, 2, 4}, 10, uniform, 1)
	if err != nil || p.Trained() != 2 {
		t.Errorf("duplicates: %d trained, %v", p.Trained(), err)
	}
}

// brrFixture is the small BRR setting of the plug-in and keep-kernel
// tests: n synthetic L-bit codes (dpexact enumerates BRR's law on them)
// as integers and as codes, their index, every fifth word from the fourth excluded from the
// outputs (allowed and the mechanism's Outputs), and every word as a
// training word.
func brrFixture(t *testing.T, n, L int, label string) (low []uint64, codes []hamming.Code, x *hamming.Index, allowed []bool, outs *mechanism.Outputs, train []int) {
	t.Helper()
	low, codes, _ = lowCodes(n, L, label)
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	allowed = make([]bool, n)
	var excluded []int
	for w := range allowed {
		allowed[w] = w%5 != 3
		if !allowed[w] {
			excluded = append(excluded, w)
		}
	}
	if outs, err = mechanism.NewOutputs(n, excluded); err != nil {
		t.Fatal(err)
	}
	train = make([]int, n)
	for w := range train {
		train[w] = w
	}
	return low, codes, x, allowed, outs, train
}
