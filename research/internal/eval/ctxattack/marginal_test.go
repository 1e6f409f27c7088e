package ctxattack

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/ngram"
)

// enumMarginals are the exact per-position posteriors over every word,
// by enumerating every sentence.
func enumMarginals(lm LM, law [][]float64, ys []int, start int) [][]float64 {
	n := len(law)
	out := make([][]float64, len(ys))
	for i := range out {
		out[i] = make([]float64, n)
	}
	cur := make([]int, len(ys))
	z := 0.0
	var rec func(i, prev int, p float64)
	rec = func(i, prev int, p float64) {
		if i == len(ys) {
			z += p
			for k, w := range cur {
				out[k][w] += p
			}
			return
		}
		for w := range n {
			cur[i] = w
			rec(i+1, w, p*math.Exp(lm.LogProb(prev, w))*law[w][ys[i]])
		}
	}
	rec(0, start, 1)
	for i := range out {
		for w := range out[i] {
			out[i][w] /= z
		}
	}
	return out
}

// The forward–backward marginals equal the enumerated ones, and a
// marginal computed without the backward pass (the filter, not the
// smoother) is caught by the same comparison.
func TestMarginalsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 4))
	worstOK, worstFilter := 0.0, 0.0
	for rep := range 60 {
		n, length := 4+rep%3, 3+rep%2
		lm := randomLM(r, n, 1+float64(rep%4)*3)
		law := randomLaw(r, n, 0.1+0.1*float64(rep%5))
		ys := make([]int, length)
		for i := range ys {
			ys[i] = r.IntN(n)
		}
		start := ngram.Start
		if rep%2 == 1 {
			start = ngram.Unknown
		}
		want := enumMarginals(lm, law, ys, start)
		pos := positions(law, ys, nil)
		got, err := Marginals(pos, lm, start)
		if err != nil {
			t.Fatal(err)
		}
		filter, err := Marginals(pos[:1], lm, start) // the first word seen alone
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			for w := range want[i] {
				worstOK = max(worstOK, math.Abs(got[i][w]-want[i][w]))
			}
		}
		for w := range want[0] {
			worstFilter = max(worstFilter, math.Abs(filter[0][w]-want[0][w]))
		}
	}
	if worstOK > 1e-12 {
		t.Errorf("forward–backward differs from enumeration by %v", worstOK)
	}
	if worstFilter < 1e-3 {
		t.Errorf("the control (ignoring the later words) is not caught: %v", worstFilter)
	}
}
