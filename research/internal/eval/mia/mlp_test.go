package mia

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMLPGradient checks lossGrad against central differences of the
// loss for every parameter.
func TestMLPGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := newMLP(4, []int{6, 5}, rng)
	for i := range m.p { // non-zero biases too
		m.p[i] += 0.1 * rng.NormFloat64()
	}
	xs := make([][]float64, 7)
	ys := make([]float64, len(xs))
	for i := range xs {
		xs[i] = []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		ys[i] = float64(i % 2)
	}
	grad := make([]float64, len(m.p))
	m.lossGrad(xs, ys, grad)
	loss := func() float64 { return m.lossGrad(xs, ys, make([]float64, len(m.p))) }
	const h = 1e-6
	for i := range m.p {
		old := m.p[i]
		m.p[i] = old + h
		up := loss()
		m.p[i] = old - h
		down := loss()
		m.p[i] = old
		num := (up - down) / (2 * h)
		if math.Abs(num-grad[i]) > 1e-6*max(1, math.Abs(num)) {
			t.Errorf("parameter %d: gradient %v, numerical %v", i, grad[i], num)
		}
	}
}

// TestTrainMLPLearns: the attack model separates a problem a linear
// model cannot (XOR of two signs), and training is deterministic.
func TestTrainMLPLearns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var xs [][]float64
	var ys []float64
	for range 400 {
		a, b := rng.Float64()*2-1, rng.Float64()*2-1
		xs = append(xs, []float64{a, b})
		if (a > 0) != (b > 0) {
			ys = append(ys, 1)
		} else {
			ys = append(ys, 0)
		}
	}
	cfg := DefaultMLP()
	cfg.Epochs = 300 // XOR needs more steps than the attack's 20 epochs over thousands of examples
	m, err := TrainMLP(xs, ys, cfg)
	if err != nil {
		t.Fatal(err)
	}
	right := 0
	for i, x := range xs {
		if (m.Score(x) > 0.5) == (ys[i] == 1) {
			right++
		}
	}
	if acc := float64(right) / float64(len(xs)); acc < 0.9 {
		t.Errorf("XOR training accuracy %.3f, want ≥ 0.9", acc)
	}
	m2, _ := TrainMLP(xs, ys, cfg)
	for i := range m.p {
		if m.p[i] != m2.p[i] {
			t.Fatal("training is not deterministic")
		}
	}
}

func TestTrainMLPRejects(t *testing.T) {
	if _, err := TrainMLP(nil, nil, DefaultMLP()); err == nil {
		t.Error("no examples: want an error")
	}
	if _, err := TrainMLP([][]float64{{1}}, []float64{1}, MLPConfig{Hidden: []int{2}}); err == nil {
		t.Error("zero epochs: want an error")
	}
}
