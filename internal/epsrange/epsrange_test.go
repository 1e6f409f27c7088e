package epsrange

import (
	"math"
	"strings"
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

// TestProblemShowsAFloorAboveEpsilon: the refusal prints the floor with
// enough digits that it reads above the refused ε, however close they are.
func TestProblemShowsAFloorAboveEpsilon(t *testing.T) {
	lists := Floor(ListDiameter(50000)) // 2.00004e-08
	for _, c := range []struct {
		eps, floor float64
		want       string
	}{
		{2e-08, lists, "ε = 2e-08 is below this mechanism's floor 2.00004e-08,"},
		{1e-08, lists, "ε = 1e-08 is below this mechanism's floor 2e-08,"},
		{2.00003e-08, lists, "ε = 2.00003e-08 is below this mechanism's floor 2.00004e-08,"},
		{1e-17, Floor(HammingDiameter), "ε = 1e-17 is below this mechanism's floor 3.906e-06,"},
		{math.Nextafter(lists, 0), lists, "is below this mechanism's floor 2.000040001e-08,"}, // one ulp below: 10 digits tell them apart
	} {
		if got := Problem(c.eps, c.floor); !strings.Contains(got, c.want) {
			t.Errorf("Problem(%v, %v) = %q, want %q in it", c.eps, c.floor, got, c.want)
		}
	}
}
