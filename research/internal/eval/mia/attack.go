package mia

import (
	"errors"
	"math"
)

// logFloor bounds log p below, so a model certain of the wrong class
// gives a finite feature.
const logFloor = -30

// Features is the attack's input for one query: what the black-box model
// outputs (its class probabilities) and the review's true label, as
// Shokri et al.'s attack sees them: the probability of the true label,
// its logarithm (which separates 0.999 from 0.99999, where an overfit
// model's members sit), and the label one-hot (standing for their
// per-class attack models).
func Features(probs []float64, label int) []float64 {
	x := make([]float64, 2+len(probs))
	p := probs[label]
	x[0] = p
	x[1] = logFloor
	if p > 0 {
		x[1] = max(math.Log(p), logFloor)
	}
	x[2+label] = 1
	return x
}

// Outcome is the attack's result.
type Outcome struct {
	Target AUC // members against non-members of the target
	Shadow AUC // on the shadow's own members and non-members (its training data)
}

// Attack trains the attack model on the shadow's outputs for its members
// (label 1) and non-members (label 0), standardizing each feature by the
// shadow's mean and deviation, and scores the target's members against
// its non-members.
func Attack(shadowIn, shadowOut, targetIn, targetOut [][]float64, cfg MLPConfig) (Outcome, error) {
	if len(shadowIn) == 0 || len(shadowOut) == 0 {
		return Outcome{}, errors.New("mia: the shadow needs members and non-members")
	}
	xs := append(append([][]float64{}, shadowIn...), shadowOut...)
	ys := make([]float64, len(xs))
	for i := range shadowIn {
		ys[i] = 1
	}
	st := fitStandardizer(xs)
	xs = st.apply(xs)
	m, err := TrainMLP(xs, ys, cfg)
	if err != nil {
		return Outcome{}, err
	}
	score := func(set [][]float64) []float64 {
		out := make([]float64, len(set))
		for i, x := range st.apply(set) {
			out[i] = m.Score(x)
		}
		return out
	}
	return Outcome{
		Target: ROCAUC(score(targetIn), score(targetOut)),
		Shadow: ROCAUC(score(shadowIn), score(shadowOut)),
	}, nil
}

// standardizer maps each feature to zero mean and unit deviation (a
// constant feature is only centred).
type standardizer struct{ mean, scale []float64 }

func fitStandardizer(xs [][]float64) standardizer {
	d := len(xs[0])
	s := standardizer{make([]float64, d), make([]float64, d)}
	for _, x := range xs {
		for j, v := range x {
			s.mean[j] += v
		}
	}
	for j := range s.mean {
		s.mean[j] /= float64(len(xs))
	}
	for _, x := range xs {
		for j, v := range x {
			s.scale[j] += (v - s.mean[j]) * (v - s.mean[j])
		}
	}
	for j := range s.scale {
		sd := math.Sqrt(s.scale[j] / float64(len(xs)))
		s.scale[j] = 1
		if sd > 0 {
			s.scale[j] = 1 / sd
		}
	}
	return s
}

func (s standardizer) apply(xs [][]float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		y := make([]float64, len(x))
		for j, v := range x {
			y[j] = (v - s.mean[j]) * s.scale[j]
		}
		out[i] = y
	}
	return out
}
