package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Tolerance is the slack allowed for floating-point rounding: a Report
// passes if its Excess is at most Tolerance.
const Tolerance = 1e-9

// Report is the worst breach of the metric-DP inequality found by Check.
type Report struct {
	// Excess is max over w, w', y with P(y|w) > 0 of
	// ln P(y|w) − ln P(y|w') − ε·d(w,w'): +Inf if some output of w is
	// impossible from w' at a finite distance. It is ≥ 0 for a valid
	// distribution (w' = w gives 0) and −Inf only for an empty one.
	Excess float64
	// W, W2 and Y attain Excess (−1 if none).
	W, W2, Y int
	// LnRatio is ln P(Y|W) − ln P(Y|W2) and Bound is ε·d(W,W2).
	LnRatio, Bound float64
	// Tightness is max of (ln P(y|w) − ln P(y|w')) / (ε·d(w,w')) over
	// pairs at a finite positive bound: how much of the guarantee the
	// distribution uses (1 = tight, > 1 = violated, 0 if no such pair).
	Tightness float64
	// Invalid, if not empty, says why dist is not a conditional
	// distribution (wrong shape, a negative or NaN entry, a row not summing
	// to 1 within 1e-9). Check does not audit an invalid distribution.
	Invalid string
}

// Pass reports whether dist is a valid distribution satisfying the
// inequality within Tolerance.
func (r Report) Pass() bool { return r.Invalid == "" && r.Excess <= Tolerance }

func (r Report) String() string {
	if r.Invalid != "" {
		return "invalid distribution: " + r.Invalid
	}
	if r.W < 0 {
		return "no outputs"
	}
	return fmt.Sprintf("worst excess %s: ln P(%d|%d) − ln P(%d|%d) = %s, ε·d = %s",
		FormatFloat(r.Excess), r.Y, r.W, r.Y, r.W2, FormatFloat(r.LnRatio), FormatFloat(r.Bound))
}

// MarshalJSON writes infinities as the strings "+Inf" and "-Inf".
func (r Report) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Excess    jsonFloat `json:"excess"`
		W         int       `json:"w"`
		W2        int       `json:"w2"`
		Y         int       `json:"y"`
		LnRatio   jsonFloat `json:"lnRatio"`
		Bound     jsonFloat `json:"bound"`
		Tightness jsonFloat `json:"tightness"`
		Invalid   string    `json:"invalid,omitempty"`
		Pass      bool      `json:"pass"`
	}{jsonFloat(r.Excess), r.W, r.W2, r.Y, jsonFloat(r.LnRatio), jsonFloat(r.Bound), jsonFloat(r.Tightness), r.Invalid, r.Pass()})
}

type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return json.Marshal(FormatFloat(x))
	}
	return json.Marshal(x)
}

// FormatFloat formats x compactly, with "+Inf"/"-Inf" for infinities.
func FormatFloat(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// Check audits dist[w][y] = Pr[M(w) = y] against ε·d-metric DP for every
// ordered pair (w, w') and every output y, and returns the worst violation
// (the maximum excess). d must be defined on [0, N)²; d = +Inf means the
// pair is unconstrained.
func Check(dist [][]float64, d func(w, w2 int) float64, eps float64) Report {
	r := Report{Excess: math.Inf(-1), W: -1, W2: -1, Y: -1}
	n := len(dist)
	for w, row := range dist {
		if len(row) != n {
			r.Invalid = fmt.Sprintf("P(.|%d) has %d outputs, want %d", w, len(row), n)
			return r
		}
		s := 0.0
		for y, p := range row {
			if p < 0 || math.IsNaN(p) || math.IsInf(p, 0) {
				r.Invalid = fmt.Sprintf("P(%d|%d) = %v", y, w, p)
				return r
			}
			s += p
		}
		if math.Abs(s-1) > 1e-9 {
			r.Invalid = fmt.Sprintf("P(.|%d) sums to %v", w, s)
			return r
		}
	}
	if math.IsNaN(eps) || eps < 0 {
		r.Invalid = fmt.Sprintf("ε = %v", eps)
		return r
	}
	lns := make([][]float64, n)
	for w, row := range dist {
		lns[w] = make([]float64, n)
		for y, p := range row {
			lns[w][y] = math.Log(p) // −Inf for 0
		}
	}
	for w := range n {
		for w2 := range n {
			bound := eps * d(w, w2)
			if math.IsNaN(bound) {
				r.Invalid = fmt.Sprintf("ε·d(%d,%d) is NaN", w, w2)
				return r
			}
			if math.IsInf(bound, 1) {
				continue
			}
			tight := bound > 0
			for y := range n {
				a := lns[w][y]
				if math.IsInf(a, -1) {
					continue
				}
				lr := a - lns[w2][y] // +Inf if P(y|w') = 0
				if tight && lr/bound > r.Tightness {
					r.Tightness = lr / bound
				}
				if ex := lr - bound; ex > r.Excess {
					r.Excess, r.W, r.W2, r.Y, r.LnRatio, r.Bound = ex, w, w2, y, lr, bound
				}
			}
		}
	}
	return r
}

// Matrix returns d as a metric function for Check.
func Matrix(d [][]float64) func(w, w2 int) float64 {
	return func(w, w2 int) float64 { return d[w][w2] }
}
