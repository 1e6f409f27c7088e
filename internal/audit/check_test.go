package audit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// check turns dpexact's verdict into a Report: a pass, a breach with its
// counterexample (JSON with infinities as strings), or an invalid case.
func TestCheckReport(t *testing.T) {
	one := [][]float64{{0, 1}, {1, 0}}
	p := math.Exp(0.7) / (1 + math.Exp(0.7))
	rr := [][]float64{{p, 1 - p}, {1 - p, p}}
	for _, c := range []struct {
		name      string
		P, d      [][]float64
		eps       float64
		pass      bool
		json, str string // substrings expected in the JSON and in String()
	}{
		{"tight RR", rr, one, 0.7, true, `"pass":true`, "worst excess"},
		{"RR at 0.9ε", rr, one, 0.63, false, `"pass":false`, "ε·d = 0.63"},
		{"impossible output", [][]float64{{1, 0}, {0.5, 0.5}}, one, 5, false, `"excess":"+Inf"`, "ln P(1|1) − ln P(1|0) = +Inf"},
		{"not a distribution", [][]float64{{0.5, 0.4}, {0.5, 0.5}}, one, 1, false, `"invalid":"dpexact: not a conditional distribution: P(.|0) sums to 0.9`, "sums to 0.9"},
		{"bad ε", rr, one, math.NaN(), false, `"invalid":"dpexact: invalid input: ε = NaN`, "ε = NaN"},
	} {
		r := check(c.P, c.d, c.eps)
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Pass() != c.pass || !strings.Contains(string(b), c.json) || !strings.Contains(r.String(), c.str) {
			t.Errorf("%s: pass=%v json=%s string=%q", c.name, r.Pass(), b, r)
		}
	}
}
