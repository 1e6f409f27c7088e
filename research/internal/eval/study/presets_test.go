package study

import (
	"errors"
	"math"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// TestPresetSpecs: "preset:NAME" runs NAME at the asset's three presets,
// matched to Euclidean ε by P_avg; an asset without presets or a
// mechanism without them is an error.
func TestPresetSpecs(t *testing.T) {
	env, _, _ := fixture(t)
	if _, err := Specs(env, []string{"preset:brr"}, nil); !errors.Is(err, mechanism.ErrNoPreset) {
		t.Fatalf("asset without presets: %v", err)
	}
	if _, err := Specs(env, []string{"preset:vickrey"}, nil); err == nil {
		t.Fatal("preset:vickrey accepted")
	}
	env.Asset.Header.Presets = &wva.Presets{
		Targets: map[string]float64{"strong": 0.1, "balanced": 0.3, "light": 0.6},
		Epsilon: map[string]map[string]float64{
			"brr": {"strong": 0.3, "balanced": 0.4, "light": 0.5},
			"1dt": {"strong": 1, "balanced": 2, "light": 3},
		},
	}
	specs, err := Specs(env, []string{"preset:brr", "preset:1dt"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	brr, dt := specs[0], specs[1]
	if brr.Family != "hamming" || !brr.Pooled || len(brr.Eps) != 3 || brr.Eps[2] != 0.5 || dt.Family != "lists" || dt.Eps[1] != 2 {
		t.Fatalf("specs %+v %+v", brr, dt)
	}
	want := 0.4 * env.Ratios["hamming"].Avg / env.Ratios["euclidean"].Avg
	if got := brr.Matched[1]; got != want {
		t.Fatalf("matched ε %v, want %v", got, want)
	}
	if _, err := brr.Build(env, 1); err != nil {
		t.Fatal(err)
	}
}

// TestPresetSpecFamilies: every on-device mechanism with presets gets
// its family's ratio matching, CusText (word-level, its own units) none;
// a mechanism the asset has no presets for is an error.
func TestPresetSpecFamilies(t *testing.T) {
	env, _, _ := fixture(t)
	env.Asset.Header.Presets = &wva.Presets{
		Targets: map[string]float64{"strong": 0.1, "balanced": 0.3, "light": 0.6},
		Epsilon: map[string]map[string]float64{
			"tem-hamming": {"strong": 0.1, "balanced": 0.2, "light": 0.3},
			"santext":     {"strong": 0.1, "balanced": 0.2, "light": 0.3},
			"custext":     {"strong": 3, "balanced": 10, "light": 18},
		},
	}
	for _, tc := range []struct {
		name, family string
		pooled, nan  bool
	}{
		{"tem-hamming", "hamming", true, false},
		{"santext", "hamming", true, false},
		{"custext", "custext", false, true},
	} {
		specs, err := Specs(env, []string{PresetPrefix + tc.name}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		s := specs[0]
		if s.Name != PresetPrefix+tc.name || s.Family != tc.family || s.Pooled != tc.pooled || len(s.Eps) != 3 || len(s.Matched) != 3 {
			t.Fatalf("%s: spec %+v", tc.name, s)
		}
		if math.IsNaN(s.Matched[1]) != tc.nan {
			t.Errorf("%s: matched ε %v, NaN wanted %v", tc.name, s.Matched[1], tc.nan)
		}
		if !tc.nan {
			if want := s.Eps[1] * env.Ratios[tc.family].Avg / env.Ratios["euclidean"].Avg; s.Matched[1] != want {
				t.Errorf("%s: matched ε %v, want %v", tc.name, s.Matched[1], want)
			}
		}
	}
	if _, err := Specs(env, []string{"preset:1dg"}, nil); !errors.Is(err, mechanism.ErrNoPreset) {
		t.Fatalf("preset:1dg without its presets: %v", err)
	}
}
