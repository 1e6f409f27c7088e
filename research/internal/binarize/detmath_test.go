package binarize

import (
	"math"
	"testing"
)

func TestExpNonPos(t *testing.T) {
	for x := 0.0; x > -760; x -= 0.0137 {
		got, want := expNonPos(x), math.Exp(x)
		if want > 1e-300 && math.Abs(got-want) > 4e-16*want {
			t.Fatalf("exp(%g) = %g, want %g (rel err %g)", x, got, want, math.Abs(got-want)/want)
		}
		if want == 0 && got != 0 {
			t.Fatalf("exp(%g) = %g, want 0", x, got)
		}
	}
	if expNonPos(0) != 1 || expNonPos(-1000) != 0 {
		t.Fatal("exp edge cases")
	}
}

func TestTanhDet(t *testing.T) {
	for x := -25.0; x <= 25; x += 0.00731 {
		if got, want := tanhDet(x), math.Tanh(x); math.Abs(got-want) > 3e-16 {
			t.Fatalf("tanh(%g) = %g, want %g", x, got, want)
		}
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 1000, -1000} {
		if got, want := tanhDet(x), math.Tanh(x); math.Abs(got-want) > 1e-300 {
			t.Errorf("tanh(%g) = %g, want %g", x, got, want)
		}
	}
}

func TestDotAxpy(t *testing.T) {
	a, b := []float64{1, 2, 3}, []float64{4, 5, 6, 99}
	if got := dot(a, b); got != 32 {
		t.Fatalf("dot = %g", got)
	}
	y := []float64{1, 1, 1, 1}
	axpy(2, a, y)
	if y[0] != 3 || y[1] != 5 || y[2] != 7 || y[3] != 1 {
		t.Fatalf("axpy = %v", y)
	}
}
