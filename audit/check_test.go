package audit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestCheckRandomizedResponse(t *testing.T) {
	// Binary randomized response at ε is exactly tight for d = 1.
	eps := 0.7
	p := math.Exp(eps) / (1 + math.Exp(eps))
	P := [][]float64{{p, 1 - p}, {1 - p, p}}
	one := func(w, w2 int) float64 {
		if w == w2 {
			return 0
		}
		return 1
	}
	if r := Check(P, one, eps); !r.Pass() || math.Abs(r.Excess) > 1e-12 {
		t.Fatalf("tight RR: %v", r)
	}
	r := Check(P, one, 0.9*eps)
	if r.Pass() || math.Abs(r.Excess-0.1*eps) > 1e-12 || r.W == r.W2 {
		t.Fatalf("RR at 0.9ε: %v", r)
	}
	// An impossible output from w' is an unbounded ratio.
	r = Check([][]float64{{1, 0}, {0.5, 0.5}}, one, 5)
	if !math.IsInf(r.Excess, 1) || r.W != 1 || r.W2 != 0 || r.Y != 1 {
		t.Fatalf("zero probability: %v", r)
	}
	b, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(b), `"excess":"+Inf"`) {
		t.Fatalf("json %s %v", b, err)
	}
	// +Inf distance leaves a pair unconstrained.
	inf := func(w, w2 int) float64 {
		if w == w2 {
			return 0
		}
		return math.Inf(1)
	}
	if r := Check([][]float64{{1, 0}, {0, 1}}, inf, 1); !r.Pass() {
		t.Fatalf("unconstrained pair: %v", r)
	}
}

func TestCheckInvalid(t *testing.T) {
	d := func(w, w2 int) float64 { return 1 }
	for _, P := range [][][]float64{
		{{0.5, 0.4}, {0.5, 0.5}},
		{{1.5, -0.5}, {0.5, 0.5}},
		{{math.NaN(), 1}, {0.5, 0.5}},
		{{1}, {0.5, 0.5}},
	} {
		if r := Check(P, d, 1); r.Pass() || r.Invalid == "" {
			t.Errorf("%v accepted: %v", P, r)
		}
	}
}

// The exact laws are distributions, and BRR rejects codes it cannot
// enumerate.
func TestExactLaws(t *testing.T) {
	low, codes := syntheticCodes(12, 8, "x")
	P, err := BRR(low, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r := Check(P, Matrix(HammingDistances(codes)), 1); !r.Pass() {
		t.Fatal(r)
	}
	if r := Check(P, Matrix(HammingDistances(codes)), 0.8); r.Pass() {
		t.Fatal("BRR passes at 0.8ε: the audit is not tight")
	}
	if _, err := BRR(low, MaxBRRBits+1, 1); err == nil {
		t.Error("BRR accepted L > MaxBRRBits")
	}
	if _, err := BRR([]uint64{1 << 9}, 8, 1); err == nil {
		t.Error("BRR accepted a code wider than L")
	}
	_, pos := syntheticList(15, "y")
	d := ListDistances(pos)
	if r := Check(DiffractorGeometric([][]int{pos}, 0.5), Matrix(d), 0.5); !r.Pass() {
		t.Fatal(r)
	}
	if r := Check(DiffractorGeometric([][]int{pos}, 0.5), Matrix(d), 0.4); r.Pass() {
		t.Fatal("1-DG passes at 0.8ε")
	}
	if r := Check(DiffractorTEM([][]int{pos}, 4, 0.5), Matrix(d), 0.5); !r.Pass() {
		t.Fatal(r)
	}
	if r := Check(ExcludeInput(TEM(d, 4, 0.5)), Matrix(d), 0.5); r.Pass() {
		t.Fatal("input exclusion passes")
	}
	if r := Check(TEMTopK(d, 2, 4, 0.5), Matrix(d), 0.5); r.Pass() {
		t.Fatal("top-k list passes")
	}
}
