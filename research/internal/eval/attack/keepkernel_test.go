package attack

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/internal/dpexact"
	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// TestKeepKernelBRR: on a small vocabulary where dpexact gives BRR's
// exact law, the trained model's keep rates match the law's diagonal
// within binomial error (negative control: the diagonal at 1.5ε is
// rejected), its rows are distributions over the allowed outputs, and
// the attacker built on it reaches at most the exact attacker's rates
// but clearly more than the prior-only baseline.
func TestKeepKernelBRR(t *testing.T) {
	const n, L, eps = 16, 8, 1.5
	draws := 20000
	if testing.Short() {
		draws = 8000
	}
	low, codes, x, allowed, outs, train := brrFixture(t, n, L, "attack/keepkernel codes")
	for _, restricted := range []bool{false, true} {
		name, al := "BRR", []bool(nil)
		m, err := mechanism.NewBRR(x, eps)
		if err != nil {
			t.Fatal(err)
		}
		P, err1 := dpexact.BRR(low, L, eps)
		wrong, err2 := dpexact.BRR(low, L, 1.5*eps)
		if restricted {
			name, al = "BRR over A", allowed
			if m, err = mechanism.Restrict(m, outs); err != nil {
				t.Fatal(err)
			}
			P, err1 = dpexact.RestrictedBRR(low, L, eps, allowed)
			wrong, err2 = dpexact.RestrictedBRR(low, L, 1.5*eps, allowed)
		}
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		h, err := NewHammingHist(codes, al, 2)
		if err != nil {
			t.Fatal(err)
		}
		k, err := h.TrainKeepKernel(m, seeded.Key(stattest.Seed("attack/keepkernel/"+name)), train, draws, 0)
		if err != nil {
			t.Fatal(err)
		}
		worst, worstWrong := 0.0, 0.0
		for w := range n {
			tol := func(p float64) float64 { return zWide*math.Sqrt(p*(1-p)/float64(draws)) + 1e-9 }
			worst = math.Max(worst, math.Abs(k.kappa[w]-P[w][w])/tol(P[w][w]))
			worstWrong = math.Max(worstWrong, math.Abs(k.kappa[w]-wrong[w][w])/tol(wrong[w][w]))
		}
		if worst > 1 {
			t.Errorf("%s: keep rates off the law's diagonal (%.2f tolerances)", name, worst)
		}
		if worstWrong <= 1 {
			t.Errorf("%s: control (1.5ε) not rejected (%.2f tolerances)", name, worstWrong)
		}
		rows := make([]float64, n)
		col := make([]float64, n)
		for y := range n {
			if err := k.Column(y, col); err != nil {
				t.Fatal(err)
			}
			for w, p := range col {
				if p < 0 || al != nil && !al[y] && p != 0 {
					t.Fatalf("%s: P̂[%d][%d] = %v", name, w, y, p)
				}
				rows[w] += p
			}
		}
		for w, s := range rows {
			if math.Abs(s-1) > 1e-12 {
				t.Errorf("%s: row %d sums to %v", name, w, s)
			}
		}

		prior := zipfPrior(n)
		ex, err := Exact(P, prior, 5)
		if err != nil {
			t.Fatal(err)
		}
		tokens := tokenCount()
		label := "keepkernel " + name
		got, err := Attack(tokensFrom(prior, tokens, label), m, seeded.Key(stattest.Seed("attack/mech/"+label)), k, prior, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, kk := range []int{1, 5} {
			wide := wilson(got.Recovery[kk-1].Rate*float64(tokens), tokens, zWide)
			if wide.Lo > ex.Recovery[kk-1] {
				t.Errorf("%s R_%d: model attacker %.4f above the Bayes-optimal %.4f", name, kk, got.Recovery[kk-1].Rate, ex.Recovery[kk-1])
			}
		}
		if got.Recovery[0].Rate < ex.Baseline[0]+0.05 {
			t.Errorf("%s: model attacker %.4f barely above the baseline %.4f", name, got.Recovery[0].Rate, ex.Baseline[0])
		}
		t.Logf("%s: λ=%.3f κ̄=%.3f; R_1 exact %.4f model %.4f; R_5 exact %.4f model %.4f; baseline_1 %.4f",
			name, k.Lambda(), k.KeepRate, ex.Recovery[0], got.Recovery[0].Rate, ex.Recovery[4], got.Recovery[4].Rate, ex.Baseline[0])
	}
}

// kernelSampler samples the model itself: w kept with probability keep,
// else a uniform draw from e^(−λ·d(w,y)) over the other words.
type kernelSampler struct {
	codes        []hamming.Code
	keep, lambda float64
}

func (s kernelSampler) Len() int { return len(s.codes) }

func (s kernelSampler) Privatize(w int, src rand.Source) (int, error) {
	if float64(src.Uint64()>>11)/(1<<53) < s.keep {
		return w, nil
	}
	best, bestScore := -1, math.Inf(-1)
	for y := range s.codes {
		if y == w {
			continue
		}
		sc := -s.lambda*float64(hamming.Distance(s.codes[w], s.codes[y])) + sample.Gumbel(src, 1)
		if sc > bestScore {
			best, bestScore = y, sc
		}
	}
	return best, nil
}

// TestKeepKernelFitsItsModel: trained on a sampler that follows the model
// exactly, the fit recovers its keep rate and λ; negative control: a
// sampler with another λ gives a fit outside the first one's tolerance.
func TestKeepKernelFitsItsModel(t *testing.T) {
	const n = 60
	codes := make([]hamming.Code, n)
	for i, c := range dpexact.SyntheticCodes(4*n, 64, "attack/keepkernel full") {
		codes[i/4][i%4] = c
	}
	h, err := NewHammingHist(codes, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	train := make([]int, n)
	for w := range train {
		train[w] = w
	}
	fit := func(lambda float64) *KeepKernel {
		k, err := h.TrainKeepKernel(kernelSampler{codes, 0.3, lambda}, seeded.Key(stattest.Seed("attack/keepkernel/fit")), train, 300, 5)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	k := fit(0.08)
	if math.Abs(k.Lambda()-0.08) > 0.01 || math.Abs(k.KeepRate-0.3) > 0.02 {
		t.Errorf("fit λ=%.4f κ̄=%.4f, want 0.08 and 0.3", k.Lambda(), k.KeepRate)
	}
	if other := fit(0.04); math.Abs(other.Lambda()-0.08) <= 0.01 {
		t.Errorf("control: λ=0.04 fitted as %.4f", other.Lambda())
	}
}

func TestGoldenMax(t *testing.T) {
	for _, c := range []struct{ at, lo, hi float64 }{{0.123, 0, 2}, {1.7, 0, 2}, {0, 0, 2}, {2, 0, 2}} {
		got := goldenMax(func(x float64) float64 { return -math.Abs(x - c.at) }, c.lo, c.hi, 60)
		if math.Abs(got-c.at) > 1e-9 {
			t.Errorf("max at %v found at %v", c.at, got)
		}
	}
}

func TestKeepKernelRejectsBadInput(t *testing.T) {
	const n = 6
	_, codes, _ := lowCodes(n, 8, "attack/keepkernel bad")
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mechanism.NewBRR(x, 1)
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHammingHist(codes, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	allowed := []bool{true, true, false, true, true, true}
	hA, err := NewHammingHist(codes, allowed, 1)
	if err != nil {
		t.Fatal(err)
	}
	src := seeded.Key(stattest.Seed("attack/keepkernel bad"))
	_, small, _ := lowCodes(2, 8, "attack/keepkernel small")
	hSmall, err := NewHammingHist(small, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []struct {
		name  string
		h     *HammingHist
		m     Sampler
		train []int
		draws int
		alpha float64
	}{
		{"nil sampler", h, nil, []int{0}, 10, 0},
		{"sampler of another size", hSmall, m, []int{0}, 10, 0},
		{"word out of range", h, m, []int{n}, 10, 0},
		{"negative word", h, m, []int{-1}, 10, 0},
		{"no draws", h, m, []int{0}, 0, 0},
		{"too many draws", h, m, []int{0}, MaxPlugInDraws + 1, 0},
		{"α < 0", h, m, []int{0}, 10, -1},
		{"α NaN", h, m, []int{0}, 10, math.NaN()},
		{"unrestricted sampler, restricted histograms", hA, m, []int{2, 1, 0, 3, 4, 5}, 200, 0},
		{"nil histograms", nil, m, []int{0}, 10, 0},
	} {
		if _, err := b.h.TrainKeepKernel(b.m, src, b.train, b.draws, b.alpha); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	if _, err := h.TrainKeepKernel(m, nil, []int{0}, 10, 0); err == nil {
		t.Error("nil source accepted")
	}
	var zero *KeepKernel
	if zero.Len() != 0 || zero.Lambda() != 0 {
		t.Error("nil KeepKernel not empty")
	}
	if err := zero.Column(0, nil); err == nil {
		t.Error("nil KeepKernel column accepted")
	}
}
