package wva

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func goodPresets() *Presets {
	return &Presets{
		Method:    "bisection on log ε",
		Targets:   map[string]float64{"strong": 0.1, "light": 0.6},
		Epsilon:   map[string]map[string]float64{"brr": {"strong": 0.39, "light": 0.6}, "1dg": {"strong": 0.19}},
		Weighting: WeightTyped,
		Objective: ObjectiveTop1,
		Prior:     "word counts",
		HeldOut:   "some text",
		Measured: map[string]map[string]LevelFacts{"brr": {"strong": {
			Kept: 0.1, WorstWord: "you", WorstKept: 0.4, Top1: 0.11,
			HeldOut: &HeldOutFacts{Tokens: 100, Kept: Rate{0.1, 0.05, 0.2}, Top1: Rate{0.2, 0.1, 0.3}, Top5: Rate{0.3, 0.2, 0.4},
				Baseline1: Rate{0.04, 0.01, 0.1}, Baseline5: Rate{0.1, 0.05, 0.2}, Bound: "lower"},
		}}},
	}
}

func heldOut(p *Presets) *HeldOutFacts { return p.Measured["brr"]["strong"].HeldOut }

// TestPresetsRoundTrip: presets survive Marshal/Decode exactly, and an
// asset without presets decodes with none.
func TestPresetsRoundTrip(t *testing.T) {
	a := tinyAsset(t)
	a.Header.Presets = goodPresets()
	b, err := Decode(mustMarshal(t, a))
	if err != nil {
		t.Fatal(err)
	}
	p := b.Header.Presets
	if p == nil || p.Method != "bisection on log ε" || p.Targets["light"] != 0.6 || p.Epsilon["brr"]["strong"] != 0.39 || len(p.Epsilon["1dg"]) != 1 {
		t.Fatalf("presets after round trip: %+v", p)
	}
	if p.Weighting != WeightTyped || p.Objective != ObjectiveTop1 || p.Measured["brr"]["strong"].Top1 != 0.11 || p.Measured["brr"]["strong"].WorstWord != "you" || *heldOut(p) != *heldOut(goodPresets()) {
		t.Fatalf("measurements after round trip: %+v", p.Measured)
	}
	a.Header.Presets = nil
	if b, err = Decode(mustMarshal(t, a)); err != nil || b.Header.Presets != nil {
		t.Fatalf("no presets: %+v, %v", b.Header.Presets, err)
	}
}

// TestPresetsValidated: Validate refuses malformed presets (ErrInvalid) and
// Decode refuses them in a file (ErrCorrupt), so a device never reads an ε
// that is not a finite positive number.
func TestPresetsValidated(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(p *Presets)
	}{
		{"no levels", func(p *Presets) { p.Targets = nil }},
		{"target 0", func(p *Presets) { p.Targets["strong"] = 0 }},
		{"target 1", func(p *Presets) { p.Targets["light"] = 1 }},
		{"target NaN", func(p *Presets) { p.Targets["light"] = math.NaN() }},
		{"empty level name", func(p *Presets) { p.Targets[""] = 0.5 }},
		{"unknown level", func(p *Presets) { p.Epsilon["brr"]["balanced"] = 0.5 }},
		{"ε zero", func(p *Presets) { p.Epsilon["brr"]["strong"] = 0 }},
		{"ε negative", func(p *Presets) { p.Epsilon["brr"]["strong"] = -1 }},
		{"ε infinite", func(p *Presets) { p.Epsilon["brr"]["strong"] = math.Inf(1) }},
		{"ε huge", func(p *Presets) { p.Epsilon["brr"]["strong"] = 2e6 }},
		// Below the mechanism's floor (0.001 nats over its metric's
		// diameter): 0.001/256 per bit for BRR, 0.001/(N−1) for 1-DG.
		{"ε below brr's floor", func(p *Presets) { p.Epsilon["brr"]["strong"] = 0.9e-3 / 256 }},
		{"ε 1e-17 for 1dg", func(p *Presets) { p.Epsilon["1dg"]["strong"] = 1e-17 }},
		{"ε 5e-324 for 1dg", func(p *Presets) { p.Epsilon["1dg"]["strong"] = 5e-324 }},
		{"ε below an unknown mechanism's floor 0", func(p *Presets) { p.Epsilon["other"] = map[string]float64{"strong": 0} }},
		{"long mechanism name", func(p *Presets) { p.Epsilon[strings.Repeat("m", 65)] = nil }},
		{"long method", func(p *Presets) { p.Method = strings.Repeat("x", 5000) }},
		{"unknown weighting", func(p *Presets) { p.Weighting = "zipf" }},
		{"unknown objective", func(p *Presets) { p.Objective = "top2" }},
		{"top-1 objective, uniform weighting", func(p *Presets) { p.Weighting = WeightUniform }},
		{"top-1 above 1", func(p *Presets) { p.Measured["brr"]["light"] = LevelFacts{Kept: 0.5, Top1: 1.01} }},
		{"long prior", func(p *Presets) { p.Prior = strings.Repeat("x", 5000) }},
		{"measured without a preset", func(p *Presets) { p.Measured["1dg"] = map[string]LevelFacts{"light": {Kept: 0.5}} }},
		{"kept above 1", func(p *Presets) { p.Measured["brr"]["light"] = LevelFacts{Kept: 1.5} }},
		{"worst kept negative", func(p *Presets) { p.Measured["brr"]["light"] = LevelFacts{Kept: 0.5, WorstKept: -0.1} }},
		{"kept NaN", func(p *Presets) { p.Measured["brr"]["light"] = LevelFacts{Kept: math.NaN()} }},
		{"long worst word", func(p *Presets) {
			p.Measured["brr"]["light"] = LevelFacts{WorstWord: strings.Repeat("w", MaxWordLen+1)}
		}},
		{"held-out no tokens", func(p *Presets) { heldOut(p).Tokens = 0 }},
		{"held-out unknown bound", func(p *Presets) { heldOut(p).Bound = "upper" }},
		{"held-out lo above rate", func(p *Presets) { heldOut(p).Top1 = Rate{0.2, 0.25, 0.3} }},
		{"held-out hi above 1", func(p *Presets) { heldOut(p).Baseline5 = Rate{0.2, 0.1, 1.5} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tinyAsset(t)
			a.Header.Presets = goodPresets()
			if err := a.Validate(); err != nil {
				t.Fatalf("control: good presets refused: %v", err)
			}
			h, secs := fileParts(t, a)
			tc.mutate(a.Header.Presets)
			if err := a.Validate(); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate: %v", err)
			}
			// NaN and Inf cannot be written as JSON; the others can.
			if strings.Contains(tc.name, "NaN") || strings.Contains(tc.name, "infinite") {
				return
			}
			h.Presets = a.Header.Presets
			hj, err := json.Marshal(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Decode(buildFile(hj, secs)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Decode: %v", err)
			}
		})
	}
}

// TestExcludedValidated: the exclusion list round-trips, and malformed
// lists are refused by Validate (ErrInvalid) and Decode (ErrCorrupt).
func TestExcludedValidated(t *testing.T) {
	good := func() *Excluded { return &Excluded{Source: "npm:list@1.0.0", Licence: "MIT", IDs: []uint32{1, 3}} }
	a := tinyAsset(t)
	a.Header.Excluded = good()
	b, err := Decode(mustMarshal(t, a))
	if err != nil || b.Header.Excluded == nil || b.Header.Excluded.Licence != "MIT" || len(b.Header.Excluded.IDs) != 2 || b.Header.Excluded.IDs[1] != 3 {
		t.Fatalf("round trip: %+v, %v", b, err)
	}
	for _, tc := range []struct {
		name string
		ids  []uint32
	}{
		{"out of range", []uint32{1, 4}},
		{"not ascending", []uint32{3, 1}},
		{"duplicate", []uint32{1, 1}},
		{"every word", []uint32{0, 1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tinyAsset(t)
			a.Header.Excluded = good()
			h, secs := fileParts(t, a)
			a.Header.Excluded.IDs = tc.ids
			if err := a.Validate(); !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate: %v", err)
			}
			h.Excluded = a.Header.Excluded
			hj, err := json.Marshal(h)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Decode(buildFile(hj, secs)); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Decode: %v", err)
			}
		})
	}
}

// TestPresetsAtTheFloor: a preset exactly at its mechanism's floor is
// accepted (the control of the "below the floor" cases above): 0.001/256
// per bit for brr, 0.001/(N−1) for 1dg on the 4-word asset.
func TestPresetsAtTheFloor(t *testing.T) {
	a := tinyAsset(t)
	a.Header.Presets = goodPresets()
	a.Header.Presets.Epsilon["brr"]["strong"] = 1e-3 / 256
	a.Header.Presets.Epsilon["1dg"]["strong"] = 1e-3 / 3
	if _, err := Decode(mustMarshal(t, a)); err != nil {
		t.Fatalf("presets at the floor refused: %v", err)
	}
}
