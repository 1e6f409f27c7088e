package binarize

import (
	"math"
	"testing"
)

// naiveLoss computes the NLB batch loss directly from its definition:
// mean over the batch of ‖tanh(Wᵀb + c) − x‖²/dim + λ·½‖WᵀW − I‖²_F,
// with the codes b given (they are piecewise constant in W).
func naiveLoss(t *nlbTrainer, batch []int, codes [][]bool) float64 {
	dim := t.dim
	var rec float64
	for bi, i := range batch {
		x := t.x[i*dim : (i+1)*dim]
		for j := 0; j < dim; j++ {
			s := t.c[j]
			for k := 0; k < Bits; k++ {
				if codes[bi][k] {
					s += t.w[k*dim+j]
				}
			}
			d := math.Tanh(s) - x[j]
			rec += d * d
		}
	}
	rec /= float64(len(batch) * dim)
	var reg float64
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			var g float64
			for k := 0; k < Bits; k++ {
				g += t.w[k*dim+i] * t.w[k*dim+j]
			}
			if i == j {
				g--
			}
			reg += g * g
		}
	}
	return rec + t.cfg.Lambda*reg/2
}

// TestNLBGradient checks the analytic gradient against central finite
// differences of the loss written out naively.
func TestNLBGradient(t *testing.T) {
	e := clustered(6, 3, 4, 5, 0.5)
	cfg := testNLBConfig(3)
	cfg.Lambda = 0.3
	mean, err := Mean(e)
	if err != nil {
		t.Fatal(err)
	}
	tr := newNLBTrainer(e, cfg, mean)
	for i := range tr.c {
		tr.c[i] = 0.1 * float64(i) // away from the symmetric start
	}
	batch := []int{0, 3, 5, 6, 7, 11}
	codes := make([][]bool, len(batch))
	for bi, i := range batch {
		codes[bi] = make([]bool, Bits)
		c := encodePrepared(tr.w, tr.dim, tr.x[i*tr.dim:(i+1)*tr.dim])
		for k := range codes[bi] {
			codes[bi][k] = c.Bit(k)
		}
	}
	gW, gC, _ := tr.gradient(batch)
	gW, gC = append([]float64(nil), gW...), append([]float64(nil), gC...)
	const h = 1e-6
	check := func(name string, p *float64, analytic float64) {
		orig := *p
		*p = orig + h
		up := naiveLoss(tr, batch, codes)
		*p = orig - h
		down := naiveLoss(tr, batch, codes)
		*p = orig
		numeric := (up - down) / (2 * h)
		if math.Abs(numeric-analytic) > 1e-6*max(1, math.Abs(numeric)) {
			t.Errorf("%s: analytic %.9g, numeric %.9g", name, analytic, numeric)
		}
	}
	for j := range tr.c {
		check("c", &tr.c[j], gC[j])
	}
	for _, i := range []int{0, 1, 7, 99, 640, len(tr.w) - 1} {
		check("W", &tr.w[i], gW[i])
	}
	if got, want := tr.regularizer(nil), naiveLoss(tr, batch, codes)-naiveLoss(&nlbTrainer{cfg: NLBConfig{}, dim: tr.dim, x: tr.x, w: tr.w, c: tr.c}, batch, codes); math.Abs(got-want) > 1e-9 {
		t.Errorf("regularizer value %g, want %g", got, want)
	}
}
