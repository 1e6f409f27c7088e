package mia

import (
	"errors"
	"math"
	"math/rand/v2"
)

// MLPConfig is the attack model and its training: a multilayer perceptron
// with ReLU hidden layers and one logistic output, trained with Adam on
// the mean binary log loss in shuffled minibatches.
type MLPConfig struct {
	Hidden []int   // hidden layer widths; the papers' attack: {64, 64}
	Epochs int     // passes over the training examples
	Batch  int     // minibatch size
	LR     float64 // Adam's step size
	Seed   uint64  // initialization and shuffling
}

// DefaultMLP is the papers' attack model and its training (the TEM
// paper's §5.3): two hidden layers of 64 ReLU units, 20 epochs,
// minibatches of 64, Adam with PyTorch's default step 10⁻³.
func DefaultMLP() MLPConfig {
	return MLPConfig{Hidden: []int{64, 64}, Epochs: 20, Batch: 64, LR: 1e-3, Seed: 1}
}

// MLP is a trained (or initialized) network. Its parameters live in one
// slice, layer by layer: the weights (out × in, row-major) then the
// biases.
type MLP struct {
	dims []int // input, hidden..., 1
	p    []float64
}

// newMLP initializes the weights with He's normal scale (ReLU) and the
// biases with zero.
func newMLP(in int, hidden []int, rng *rand.Rand) *MLP {
	dims := append(append([]int{in}, hidden...), 1)
	n := 0
	for l := 1; l < len(dims); l++ {
		n += dims[l]*dims[l-1] + dims[l]
	}
	m := &MLP{dims: dims, p: make([]float64, n)}
	at := 0
	for l := 1; l < len(dims); l++ {
		scale := math.Sqrt(2 / float64(dims[l-1]))
		for i := range dims[l] * dims[l-1] {
			m.p[at+i] = rng.NormFloat64() * scale
		}
		at += dims[l]*dims[l-1] + dims[l]
	}
	return m
}

// layer returns layer l's (1-based) weights and biases as views of p.
func (m *MLP) layer(p []float64, l int) (w, b []float64) {
	at := 0
	for k := 1; k < l; k++ {
		at += m.dims[k]*m.dims[k-1] + m.dims[k]
	}
	nw := m.dims[l] * m.dims[l-1]
	return p[at : at+nw], p[at+nw : at+nw+m.dims[l]]
}

// forward fills acts[l] with layer l's activations (acts[0] = x; ReLU on
// the hidden layers, the last one the output logit) and returns the logit.
func (m *MLP) forward(x []float64, acts [][]float64) float64 {
	copy(acts[0], x)
	last := len(m.dims) - 1
	for l := 1; l <= last; l++ {
		w, b := m.layer(m.p, l)
		in, out := acts[l-1], acts[l]
		for i := range out {
			s := b[i]
			row := w[i*len(in) : (i+1)*len(in)]
			for j, v := range in {
				s += row[j] * v
			}
			if l < last && s < 0 {
				s = 0
			}
			out[i] = s
		}
	}
	return acts[last][0]
}

func (m *MLP) scratch() [][]float64 {
	acts := make([][]float64, len(m.dims))
	for l, d := range m.dims {
		acts[l] = make([]float64, d)
	}
	return acts
}

// Score returns the attack's membership probability for features x.
func (m *MLP) Score(x []float64) float64 {
	return sigmoid(m.forward(x, m.scratch()))
}

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// logLoss is the binary log loss of logit z for label y ∈ {0, 1}, stable
// for large |z|: log(1 + e^z) − y·z.
func logLoss(z, y float64) float64 {
	return max(z, 0) + math.Log1p(math.Exp(-math.Abs(z))) - y*z
}

// lossGrad returns the mean log loss over the examples and adds its
// gradient with respect to p into grad (len(grad) == len(m.p)).
func (m *MLP) lossGrad(xs [][]float64, ys []float64, grad []float64) float64 {
	acts := m.scratch()
	deltas := m.scratch()
	last := len(m.dims) - 1
	total := 0.0
	inv := 1 / float64(len(xs))
	for k, x := range xs {
		z := m.forward(x, acts)
		total += logLoss(z, ys[k])
		deltas[last][0] = (sigmoid(z) - ys[k]) * inv
		for l := last; l >= 1; l-- {
			w, _ := m.layer(m.p, l)
			gw, gb := m.layer(grad, l)
			in, d := acts[l-1], deltas[l]
			for i, di := range d {
				if di == 0 {
					continue
				}
				gb[i] += di
				row := gw[i*len(in) : (i+1)*len(in)]
				for j, v := range in {
					row[j] += di * v
				}
			}
			if l == 1 {
				break
			}
			prev := deltas[l-1]
			for j := range prev {
				if in[j] <= 0 { // ReLU: no gradient where the unit is off
					prev[j] = 0
					continue
				}
				s := 0.0
				for i, di := range d {
					s += w[i*len(in)+j] * di
				}
				prev[j] = s
			}
		}
	}
	return total * inv
}

// TrainMLP trains an attack model on features xs with labels ys (1:
// member, 0: non-member). Deterministic for a configuration and inputs.
func TrainMLP(xs [][]float64, ys []float64, cfg MLPConfig) (*MLP, error) {
	if len(xs) == 0 || len(xs) != len(ys) {
		return nil, errors.New("mia: want as many labels as examples, at least one")
	}
	if cfg.Epochs < 1 || cfg.Batch < 1 || !(cfg.LR > 0) {
		return nil, errors.New("mia: MLP needs Epochs ≥ 1, Batch ≥ 1 and LR > 0")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6d6961))
	m := newMLP(len(xs[0]), cfg.Hidden, rng)
	const b1, b2, eps = 0.9, 0.999, 1e-8
	grad := make([]float64, len(m.p))
	mom, vel := make([]float64, len(m.p)), make([]float64, len(m.p))
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	bx, by := make([][]float64, 0, cfg.Batch), make([]float64, 0, cfg.Batch)
	step := 0
	for range cfg.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for at := 0; at < len(order); at += cfg.Batch {
			bx, by = bx[:0], by[:0]
			for _, k := range order[at:min(at+cfg.Batch, len(order))] {
				bx, by = append(bx, xs[k]), append(by, ys[k])
			}
			clear(grad)
			m.lossGrad(bx, by, grad)
			step++
			c1 := 1 - math.Pow(b1, float64(step))
			c2 := 1 - math.Pow(b2, float64(step))
			for i, g := range grad {
				mom[i] = b1*mom[i] + (1-b1)*g
				vel[i] = b2*vel[i] + (1-b2)*g*g
				m.p[i] -= cfg.LR * (mom[i] / c1) / (math.Sqrt(vel[i]/c2) + eps)
			}
		}
	}
	return m, nil
}
