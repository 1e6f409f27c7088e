package levelfacts

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// smallAsset is the embedded asset's first 2000 words with presets for
// BRR only, at strong and light, and measurements for strong.
func smallAsset(t *testing.T) *wva.Asset {
	t.Helper()
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	s := (&wva.Asset{Header: a.Header, Codes: a.Codes[:2000]}).SetWords(a.WordList()[:2000])
	s.Header.Name, s.Header.Words, s.Header.Lists, s.Header.TEM = "small", 2000, nil, nil
	s.Header.Excluded, s.Header.CusText, s.Header.StandIns = nil, nil, nil
	s.Header.Presets = &wva.Presets{
		Method:    "by hand",
		Targets:   map[string]float64{mechanism.LevelStrong: 0.1, mechanism.LevelLight: 0.6},
		Epsilon:   map[string]map[string]float64{mechanism.NameBRR: {mechanism.LevelStrong: 0.4, mechanism.LevelLight: 0.6}},
		Weighting: wva.WeightTyped, Objective: wva.ObjectiveTop1, Prior: "counts", HeldOut: "a text",
		Measured: map[string]map[string]wva.LevelFacts{mechanism.NameBRR: {mechanism.LevelStrong: {
			Kept: 0.123, WorstWord: "you", WorstKept: 0.5, Top1: 0.111,
			HeldOut: &wva.HeldOutFacts{Tokens: 10, Kept: wva.Rate{Rate: 0.1, Lo: 0.05, Hi: 0.2}, Top1: wva.Rate{Rate: 0.3, Lo: 0.2, Hi: 0.4},
				Top5: wva.Rate{Rate: 0.4, Lo: 0.3, Hi: 0.5}, Bound: "lower"},
		}}},
	}
	b, err := wva.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	d, err := wva.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRows(t *testing.T) {
	a := smallAsset(t)
	s := Sample{Words: 20, Draws: 20}
	var steps []int
	rows, err := Rows(a, nil, nil, 0, s, func(done, total int) {
		if total != len(Levels) {
			t.Errorf("progress total %d, want one mechanism × %d levels", total, len(Levels))
		}
		steps = append(steps, done)
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(steps) != "[1 2 3]" {
		t.Errorf("progress %v, want [1 2 3] (a skipped level counts)", steps)
	}
	// BRR only, at its two levels (balanced skipped: not calibrated).
	if len(rows) != 2 || rows[0].Level != mechanism.LevelStrong || rows[1].Level != mechanism.LevelLight {
		t.Fatalf("rows %+v", rows)
	}
	if rows[0].Facts == nil || rows[0].Facts.WorstWord != "you" || rows[1].Facts != nil {
		t.Fatalf("facts %+v / %+v", rows[0].Facts, rows[1].Facts)
	}
	if !rows[0].CostKnown || !(rows[0].Cost > 0.4*100 && rows[0].Cost < 0.4*150) || !(rows[1].N >= rows[0].N) {
		t.Fatalf("cost %v (P_avg of 256-bit codes is near 128), N %v then %v", rows[0].Cost, rows[0].N, rows[1].N)
	}
	again, _ := Rows(a, []string{mechanism.NameBRR}, []string{mechanism.LevelLight}, 0, s, nil)
	if len(again) != 1 || again[0] != rows[1] {
		t.Fatalf("a row depends on which rows were asked for: %+v vs %+v", again, rows[1])
	}
	var out bytes.Buffer
	if err := WriteText(&out, a, rows, s); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"0.123", `"you" 0.50`, "≥ 0.300 [0.200,0.400]", "0.100 [0.050,0.200]", "0.111", "what an attacker recovers", "typed word tokens", "counts", "a text"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if err := WriteMarkdown(&out, a, rows, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "| brr (ε hamming) | strong | 0.4 | 0.111 | 0.123 |") || strings.Count(out.String(), "\n| brr") != 2 {
		t.Errorf("markdown:\n%s", out.String())
	}
	// At a given ε: no level, no facts.
	rows, err = Rows(a, []string{mechanism.NameBRR}, nil, 0.5, s, nil)
	if err != nil || len(rows) != 1 || rows[0].Level != "" || rows[0].Facts != nil {
		t.Fatalf("at ε: %+v, %v", rows, err)
	}
}

func TestRowsErrors(t *testing.T) {
	a := smallAsset(t)
	s := Sample{Words: 5, Draws: 5}
	for _, tc := range []struct {
		name        string
		a           *wva.Asset
		mechs, lvls []string
		s           Sample
		want        error
	}{
		{"nil asset", nil, nil, nil, s, mechanism.ErrEmptyVocabulary},
		{"unknown mechanism", a, []string{"nope"}, nil, s, ErrNoLevel},
		{"level asked but not calibrated", a, []string{mechanism.NameBRR}, []string{mechanism.LevelBalanced}, s, ErrNoLevel},
		{"unknown level", a, []string{mechanism.NameBRR}, []string{"max"}, s, ErrNoLevel},
		{"no lists", a, []string{mechanism.Name1DG}, []string{mechanism.LevelStrong}, s, ErrNoLevel},
		{"named, no level at all", a, []string{mechanism.NameTEMHamming}, nil, s, ErrNoLevel},
		{"zero sample", a, nil, nil, Sample{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Rows(tc.a, tc.mechs, tc.lvls, 0, tc.s, nil)
			if err == nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}
