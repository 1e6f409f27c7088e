package mechanism

import (
	"errors"
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

func TestNew(t *testing.T) {
	a := defaultAsset(t)
	for name, eps := range map[string]float64{NameBRR: 0.5, NameTEMHamming: 0.2, NameTEM: 10, Name1DG: 0.5, Name1DT: 1} {
		m, err := New(name, a, eps, Options{})
		if err != nil || m.Epsilon() != eps || m.Len() != a.Len() {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := New("vickrey", a, 1, Options{}); !errors.Is(err, ErrUnknownMechanism) {
		t.Errorf("unknown name: %v", err)
	}
	noTEM := (&wva.Asset{Codes: a.Codes, Lists: a.Lists}).SetWords(a.WordList())
	if _, err := New(NameTEM, noTEM, 9, Options{}); !errors.Is(err, ErrNoLists) {
		t.Errorf("asset without TEM lists: %v", err)
	}
	if _, err := New(NameBRR, nil, 1, Options{}); !errors.Is(err, ErrEmptyVocabulary) {
		t.Errorf("nil asset: %v", err)
	}
	for _, eps := range []float64{-1, 0, math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := New(NameBRR, a, eps, Options{}); !errors.Is(err, ErrInvalidEpsilon) {
			t.Errorf("ε = %v: %v", eps, err)
		}
	}
}

// TestSaturation: ε above a mechanism's SaturationEpsilon is refused unless
// allowed, and above MaxEpsilon always; at the bound the output really is
// the input almost surely (checked by sampling), and a little below the
// presets nothing is refused.
func TestSaturation(t *testing.T) {
	a := defaultAsset(t)
	src := seeded.Key(stattest.Seed("saturation"))
	for _, name := range []string{NameBRR, NameTEMHamming, NameTEM, Name1DG, Name1DT} {
		m, err := New(name, a, 10, Options{AllowSaturated: true})
		if err != nil {
			t.Fatal(err)
		}
		s := m.(Facts).SaturationEpsilon()
		if !(s > 0) || math.IsInf(s, 0) {
			t.Fatalf("%s: saturation ε %v", name, s)
		}
		if _, err := New(name, a, s*1.01, Options{}); !errors.Is(err, ErrEpsilonSaturated) {
			t.Errorf("%s: ε above saturation %v accepted: %v", name, s, err)
		}
		if _, err := New(name, a, s*1.01, Options{AllowSaturated: true}); err != nil {
			t.Errorf("%s: allowed saturated ε refused: %v", name, err)
		}
		if _, err := New(name, a, 2*MaxEpsilon, Options{AllowSaturated: true}); !errors.Is(err, ErrInvalidEpsilon) {
			t.Errorf("%s: ε above MaxEpsilon accepted: %v", name, err)
		}
		for _, level := range []string{LevelStrong, LevelBalanced, LevelLight} {
			if eps, err := Preset(a, name, level); err == nil && eps >= s {
				t.Errorf("%s %s: preset %v is above the saturation bound %v", name, level, eps, s)
			}
		}
		// At the bound, the output is the input with probability ≥ 1 − η:
		// 2,000 draws over 200 words see at most a handful of changes.
		m, _ = New(name, a, s, Options{})
		changed := 0
		const words, draws = 200, 10
		for w := 0; w < words; w++ {
			for d := 0; d < draws; d++ {
				if y, _ := m.Privatize(w*97%a.Len(), src); y != w*97%a.Len() {
					changed++
				}
			}
		}
		// Expected ≤ 20 at η = 0.01; 45 is > 5 standard deviations above.
		if changed > 45 {
			t.Errorf("%s at its saturation ε %v: %d of %d outputs differ from the input", name, s, changed, words*draws)
		}
	}
}
