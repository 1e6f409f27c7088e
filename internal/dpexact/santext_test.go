package dpexact

import (
	"errors"
	"math"
	"testing"
)

// sensitiveTop marks the last k of n words sensitive (the highest ids,
// as SanText+ on the device chooses them).
func sensitiveTop(n, k int) []bool {
	s := make([]bool, n)
	for i := n - k; i < n; i++ {
		s[i] = true
	}
	return s
}

// lawOf returns a helper that unwraps a law, failing t on error.
func lawOf(t *testing.T) func([][]float64, error) [][]float64 {
	return func(P [][]float64, err error) [][]float64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return P
	}
}

func mustCheck(t *testing.T, P, d [][]float64, eps float64) Report {
	t.Helper()
	r, err := Check(P, d, eps, 1e-9)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// SanText equals TEM with a radius covering every pair (no ⊥), entry by
// entry, and has the closed form of randomized response on two words.
func TestSanTextIsUntruncatedTEM(t *testing.T) {
	mustLaw := lawOf(t)
	d := HammingDistances(codes12)
	for _, eps := range []float64{0.1, 1, 7} {
		S := mustLaw(SanText(d, eps))
		T := mustLaw(TEM(d, 8, eps)) // 8-bit codes: every distance ≤ 8
		for x := range S {
			for y := range S[x] {
				if math.Abs(S[x][y]-T[x][y]) > 1e-12 {
					t.Fatalf("ε=%v: SanText P(%d|%d) = %v, TEM γ=8 %v", eps, y, x, S[x][y], T[x][y])
				}
			}
		}
	}
	P := mustLaw(SanText(two, 0.8))
	if want := 1 / (1 + math.Exp(-0.4)); math.Abs(P[0][0]-want) > 1e-15 {
		t.Errorf("two words: P(0|0) = %v, want %v", P[0][0], want)
	}
}

// The audits: SanText passes; SanText without the 1/2 fails; the
// wrong-sign scoring exp(+ε·d/2) is NOT a violation (the exponential
// mechanism is ε·d-DP for any utility of sensitivity d, useful or not),
// which shows the check flags privacy, not utility.
func TestSanTextAudit(t *testing.T) {
	mustLaw := lawOf(t)
	d := HammingDistances(codes12)
	const eps = 0.9
	if r := mustCheck(t, mustLaw(SanText(d, eps)), d, eps); !r.Holds() || r.Tightness < 0.5 {
		t.Errorf("SanText: %+v", r)
	}
	allowed := []bool{false, true, true, false, true, true, false, true, true, false, true, true}
	if r := mustCheck(t, mustLaw(RestrictedSanText(d, eps, allowed)), d, eps); !r.Holds() {
		t.Errorf("SanText over A: %+v", r)
	}
	r := mustCheck(t, mustLaw(SanTextNoHalf(d, eps)), d, eps)
	if r.Holds() {
		t.Fatalf("SanText without 1/2 passed: %+v", r)
	}
	t.Logf("no-1/2 control caught: excess %.4g at P(%d|%d) vs P(%d|%d)", r.Excess, r.Y, r.W, r.Y, r.W2)
	if r := mustCheck(t, mustLaw(sanText(d, eps, nil, -0.5)), d, eps); !r.Holds() {
		t.Errorf("wrong sign is still ε·d-DP, got %+v", r)
	}
}

// SanText+: ε·d-DP between sensitive words (and over an output
// vocabulary), a violation by design for pairs with a non-sensitive word
// (an unbounded ratio: the word released unchanged), and the control that
// keeps sensitive words too is caught on sensitive pairs. With p = 1
// nothing is kept and it is SanText over S, DP for every pair.
func TestSanTextPlusAudit(t *testing.T) {
	mustLaw := lawOf(t)
	d := HammingDistances(codes12)
	n := len(d)
	sens := sensitiveTop(n, 6)
	ds := mustLaw(SensitivePairs(d, sens))
	const eps = 0.7
	for _, p := range []float64{0, 0.2, 0.9} {
		P := mustLaw(SanTextPlus(d, eps, sens, p, nil))
		if r := mustCheck(t, P, ds, eps); !r.Holds() {
			t.Errorf("p=%v: sensitive pairs fail: %+v", p, r)
		}
		r := mustCheck(t, P, d, eps)
		if r.Holds() || !math.IsInf(r.LnRatio, 1) || sens[r.W] && sens[r.W2] {
			t.Errorf("p=%v: all pairs should fail with an unbounded ratio on a non-sensitive pair: %+v", p, r)
		}
		// Row x non-sensitive: 1 − p on itself, p spread over S.
		if x := 0; math.Abs(P[x][x]-(1-p)) > 1e-12 {
			t.Errorf("p=%v: P(0|0) = %v", p, P[x][x])
		}
		for y := range n {
			if !sens[y] && y != 0 && P[0][y] != 0 {
				t.Errorf("p=%v: non-sensitive %d released from 0", p, y)
			}
		}
	}
	allowed := []bool{false, true, true, false, true, true, false, true, true, false, true, true}
	P := mustLaw(SanTextPlus(d, eps, sens, 0.3, allowed))
	if r := mustCheck(t, P, ds, eps); !r.Holds() {
		t.Errorf("over A: %+v", r)
	}
	if P[0][0] != 0 || P[3][3] != 0 {
		t.Error("an excluded non-sensitive word was released unchanged")
	}
	if r := mustCheck(t, mustLaw(SanTextPlus(d, eps, sens, 1, nil)), d, eps); !r.Holds() {
		t.Errorf("p=1 is SanText over S, DP for all pairs: %+v", r)
	}
	r := mustCheck(t, mustLaw(SanTextPlusKeepsSensitive(d, eps, sens, 0.3)), ds, eps)
	if r.Holds() {
		t.Fatalf("keeping sensitive words passed: %+v", r)
	}
}

func TestSanTextInvalid(t *testing.T) {
	d := HammingDistances(codes12)
	inf := Distances(2, func(a, b int) float64 {
		if a == b {
			return 0
		}
		return math.Inf(1)
	})
	sens := sensitiveTop(len(d), 3)
	none := make([]bool, len(d))
	for _, c := range []struct {
		name string
		err  error
	}{
		{"no words", second(SanText(nil, 1))},
		{"ε=0", second(SanText(d, 0))},
		{"ε=NaN", second(SanText(d, math.NaN()))},
		{"infinite distance", second(SanText(inf, 1))},
		{"nil allowed", second(RestrictedSanText(d, 1, nil))},
		{"no allowed", second(RestrictedSanText(d, 1, none))},
		{"short sensitive", second(SanTextPlus(d, 1, sens[:3], 0.5, nil))},
		{"p<0", second(SanTextPlus(d, 1, sens, -0.1, nil))},
		{"p>1", second(SanTextPlus(d, 1, sens, 1.1, nil))},
		{"p=NaN", second(SanTextPlus(d, 1, sens, math.NaN(), nil))},
		{"no sensitive word", second(SanTextPlus(d, 1, none, 0.5, nil))},
		{"pairs: short sensitive", second(SensitivePairs(d, sens[:2]))},
	} {
		if !errors.Is(c.err, ErrInvalid) {
			t.Errorf("%s: %v", c.name, c.err)
		}
	}
}

func second(_ [][]float64, err error) error { return err }
