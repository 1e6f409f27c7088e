package epsrange

import (
	"math"
	"testing"
)

func TestFloorAndProblem(t *testing.T) {
	if got := Floor(HammingDiameter); got != 1e-3/256 {
		t.Errorf("Hamming floor %v", got)
	}
	if got := Floor(ListDiameter(50000)); got != 1e-3/49999 {
		t.Errorf("list floor %v", got)
	}
	for _, d := range []float64{0, -1, math.NaN()} {
		if got := Floor(d); got != 0 {
			t.Errorf("Floor(%v) = %v, want 0", d, got)
		}
	}
	if ListDiameter(1) != 0 || ListDiameter(0) != 0 {
		t.Error("a vocabulary of one word has diameter 0")
	}
	floor := Floor(HammingDiameter)
	for _, c := range []struct {
		eps float64
		ok  bool
	}{
		{floor, true}, {1, true}, {Max, true},
		{math.Nextafter(floor, 0), false}, {1e-17, false}, {5e-324, false}, {0, false}, {-1, false},
		{math.NaN(), false}, {math.Inf(1), false}, {math.Nextafter(Max, math.Inf(1)), false},
	} {
		if got := Problem(c.eps, floor) == ""; got != c.ok {
			t.Errorf("Problem(%v, %v) = %q, want ok %v", c.eps, floor, Problem(c.eps, floor), c.ok)
		}
	}
}

func TestPresetFloor(t *testing.T) {
	for _, c := range []struct {
		name string
		want float64
		ok   bool
	}{
		{"brr", 1e-3 / 256, true}, {"tem-hamming", 1e-3 / 256, true}, {"santext", 1e-3 / 256, true},
		{"1dg", 1e-3 / 99, true}, {"1dt", 1e-3 / 99, true}, {"custext", 1e-3, true},
		{"tem", 1e-3 / 4, true}, {"other", 0, false},
	} {
		if got, ok := PresetFloor(c.name, 100, 4); got != c.want || ok != c.ok {
			t.Errorf("PresetFloor(%s) = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
