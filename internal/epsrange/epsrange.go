// Package epsrange is the one definition of the ε every WordVeil
// mechanism accepts, shared by package mechanism (which enforces it when
// a mechanism is built, for the main ε and every class ε alike) and by the
// asset reader (which refuses presets outside it).
//
// The range of a mechanism whose metric has diameter D (the largest
// distance between two words, in the units its ε multiplies: 256 bits for
// the Hamming mechanisms, N−1 positions for the list mechanisms, 1 for
// CusText's utility) is [MinLoss/D, Max], further capped by the
// mechanism's saturation bound (package mechanism). The floor is where
// the largest possible loss between two words, ε·D, is MinLoss nats: below
// it every input's output law is already within a factor e^0.001 of every
// other's, so a smaller ε buys no measurable privacy, while the samplers'
// float arithmetic would creep toward the point where a per-unit weight
// rounds to 1 (1-DG and 1-DT at ε below about 2^-52 per position gave
// noise exactly 0 and released the input). What it does not do: judge
// whether an ε in the range is a sensible privacy level.
package epsrange

import (
	"fmt"
	"math"
	"strconv"
)

// MinLoss is the largest loss ε·D, in nats, at the floor of every range.
const MinLoss = 1e-3

// Max bounds ε for every mechanism, even when saturation is allowed:
// beyond it the per-text loss ε·words·P_avg could overflow.
const Max = 1e6

// HammingDiameter is the diameter of the Hamming metric on 256-bit codes.
const HammingDiameter = 256

// Floor returns the smallest ε accepted for a metric of diameter d:
// MinLoss/d. A diameter of 0 (a vocabulary of one word, where every ε
// releases that word) gives 0: no floor beyond ε > 0.
func Floor(d float64) float64 {
	if !(d > 0) {
		return 0
	}
	return MinLoss / d
}

// ListDiameter is the diameter of the list-position metric on n words.
func ListDiameter(n int) float64 { return float64(max(n-1, 0)) }

// Problem returns "" when eps is a finite number > 0 in [floor, Max],
// else what is wrong with it.
func Problem(eps, floor float64) string {
	switch {
	case math.IsNaN(eps) || math.IsInf(eps, 0) || eps <= 0:
		return fmt.Sprintf("ε = %v is not a finite number > 0", eps)
	case eps < floor:
		return fmt.Sprintf("ε = %g is below this mechanism's floor %s, where the largest loss between two words is %g nats (a smaller ε adds no privacy, and its samplers would not be exact)", eps, floorAbove(floor, eps), float64(MinLoss))
	case eps > Max:
		return fmt.Sprintf("ε = %g exceeds %g", eps, float64(Max))
	}
	return ""
}

// floorAbove formats floor (> eps) with the fewest significant digits, at
// least 4, whose value still exceeds eps, so that a refusal never reads
// "ε = 2e-08 is below this mechanism's floor 2e-08" (the floor
// 0.001/49999 = 2.00004e-08 shown to 4 digits).
func floorAbove(floor, eps float64) string {
	for digits := 4; digits < 17; digits++ {
		s := strconv.FormatFloat(floor, 'g', digits, 64)
		if v, err := strconv.ParseFloat(s, 64); err == nil && v > eps {
			return s
		}
	}
	return strconv.FormatFloat(floor, 'g', -1, 64)
}

// PresetFloor returns the floor of the mechanism called name (as package
// mechanism names it) on an asset of words words whose TEM lists reach
// temGammaMax (0 without them), and whether the name is a mechanism with
// a range. The asset reader checks presets with it; package mechanism's
// tests check that it equals what every mechanism reports as its floor.
func PresetFloor(name string, words int, temGammaMax float64) (float64, bool) {
	switch name {
	case "brr", "tem-hamming", "santext", "santext+":
		return Floor(HammingDiameter), true
	case "1dg", "1dt":
		return Floor(ListDiameter(words)), true
	case "custext", "custext+":
		// The utility 1 − d/256 spans [0, 1]: the loss within a set is at
		// most ε.
		return Floor(1), true
	case "tem":
		// The largest distance the device's lists can show.
		return Floor(temGammaMax), true
	}
	return 0, false
}
