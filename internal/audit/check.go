package audit

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/wordveil/wordveil/internal/dpexact"
)

// Tolerance is the slack allowed for floating-point rounding: a Report
// passes if its Excess is at most Tolerance.
const Tolerance = 1e-9

// Report is the worst breach of the metric-DP inequality in one audited
// distribution (dpexact.Check's report, with its verdict at Tolerance).
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
	// Invalid, if not empty, is why the case could not be audited: the
	// distribution is not a conditional distribution (wrong shape, a
	// negative or NaN entry, a row not summing to 1 within 1e-9) or the
	// metric or ε is unusable. An invalid case does not pass.
	Invalid string
}

// Pass reports whether the case was audited and satisfies the
// inequality within Tolerance.
func (r Report) Pass() bool { return r.Invalid == "" && r.Excess <= Tolerance }

// String is a one-line summary: the Invalid reason, "no outputs", or the
// worst excess with the words and output that attain it.
func (r Report) String() string {
	if r.Invalid != "" {
		return r.Invalid
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

// check audits P against ε·d metric DP with dpexact.Check at Tolerance.
// An argument Check rejects (P not a distribution, a bad metric or ε)
// makes an invalid Report, which does not pass.
func check(P, d [][]float64, eps float64) Report {
	c, err := dpexact.Check(P, d, eps, Tolerance)
	r := Report{Excess: c.Excess, W: c.W, W2: c.W2, Y: c.Y, LnRatio: c.LnRatio, Bound: c.Bound, Tightness: c.Tightness}
	if err != nil {
		r.Invalid = err.Error()
	}
	return r
}
