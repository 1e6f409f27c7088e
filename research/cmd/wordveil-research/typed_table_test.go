package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Fixture results: the typed study (brr at three levels: strong with
// two runs, balanced with its N_w only, light with one run; a baseline),
// the levels measurement (brr strong and light, and santext, which the
// study did not run) and the previous presets (brr strong only).
const (
	typedFixture = `{"kind":"ratio","metric":"euclidean","avg":7,"eps_index":0,"run":0,"fingerprint":"f"}
{"kind":"baseline","eps_index":0,"run":0,"accuracy":0.8,"fingerprint":"f"}
{"kind":"baseline","eps_index":0,"run":1,"accuracy":0.82,"fingerprint":"f"}
{"kind":"accuracy","mechanism":"preset:brr","eps_index":0,"epsilon":0.3,"run":0,"accuracy":0.6,"fingerprint":"f"}
{"kind":"accuracy","mechanism":"preset:brr","eps_index":0,"epsilon":0.3,"run":1,"accuracy":0.62,"fingerprint":"f"}
{"kind":"deniability","mechanism":"preset:brr","eps_index":0,"epsilon":0.3,"run":0,"n_w":0.11,"fingerprint":"f"}
{"kind":"accuracy","mechanism":"preset:brr","eps_index":2,"epsilon":0.5,"run":0,"accuracy":0.7,"fingerprint":"f"}
{"kind":"deniability","mechanism":"preset:brr","eps_index":1,"epsilon":0.4,"run":0,"n_w":0.3,"fingerprint":"f"}
{"kind":"accuracy","mechanism":"brr-avg","eps_index":0,"epsilon":0.3,"run":0,"accuracy":0.5,"fingerprint":"f"}
`
	prevFixture = `{"kind":"baseline","eps_index":0,"run":0,"accuracy":0.81,"fingerprint":"g"}
{"kind":"accuracy","mechanism":"preset:brr","eps_index":0,"epsilon":0.25,"run":0,"accuracy":0.65,"fingerprint":"g"}
`
	levelsText    = `"text":{"asset":"en","asset_sha256":"0123456789abcdef0123","reviews":2,"words":50,"in_vocab":40,"sample":20,"seed":1}`
	levelsFixture = `{"kind":"levels","mechanism":"brr","level":"strong","epsilon":0.3,"tokens":20,"kept":{"rate":0.1,"lo":0.05,"hi":0.3},"top1":{"rate":0.2,"lo":0.1,"hi":0.4},"top5":{"rate":0.3,"lo":0.15,"hi":0.5},"baseline1":{"rate":0.05,"lo":0.01,"hi":0.2},"baseline5":{"rate":0.1,"lo":0.03,"hi":0.3},"lower_bound":true,` + levelsText + `}
{"kind":"levels","mechanism":"brr","level":"light","epsilon":0.5,"tokens":20,"kept":{"rate":0.6,"lo":0.4,"hi":0.8},"top1":{"rate":0.65,"lo":0.45,"hi":0.8},"top5":{"rate":0.7,"lo":0.5,"hi":0.85},"baseline1":{"rate":0.05,"lo":0.01,"hi":0.2},"baseline5":{"rate":0.1,"lo":0.03,"hi":0.3},"lower_bound":true,` + levelsText + `}
{"kind":"levels","mechanism":"santext","level":"balanced","epsilon":0.2,"tokens":20,"kept":{"rate":0.3,"lo":0.15,"hi":0.5},"top1":{"rate":0.35,"lo":0.2,"hi":0.55},"top5":{"rate":0.5,"lo":0.3,"hi":0.7},"baseline1":{"rate":0.05,"lo":0.01,"hi":0.2},"baseline5":{"rate":0.1,"lo":0.03,"hi":0.3},` + levelsText + `}
`
)

const typedTableWant = `| mechanism | level | ε | accuracy | N_w | kept | attacker top-1 | attacker top-5 | prior-only top-1 | ε uniform | accuracy uniform |
|---|---|---|---|---|---|---|---|---|---|---|
| brr | strong | 0.3 | 61.0% [48.3, 73.7] (2 runs) | 0.110 | 0.100 [0.050, 0.300] | ≥ 0.200 [0.100, 0.400] | ≥ 0.300 [0.150, 0.500] | 0.050 [0.010, 0.200] | 0.25 | 65.0% [65.0, 65.0] (1 runs) |
| brr | balanced | 0.4 | — | 0.300 | — | — | — | — | — | — |
| brr | light | 0.5 | 70.0% [70.0, 70.0] (1 runs) | — | 0.600 [0.400, 0.800] | ≥ 0.650 [0.450, 0.800] | ≥ 0.700 [0.500, 0.850] | 0.050 [0.010, 0.200] | — | — |
| santext | balanced | 0.2 | — | — | 0.300 [0.150, 0.500] | 0.350 [0.200, 0.550] | 0.500 [0.300, 0.700] | 0.050 [0.010, 0.200] | — | — |

Baseline (trained on the original text): accuracy 81.0% [68.3, 93.7] (2 runs); at the uniform presets' asset 81.0% [81.0, 81.0] (1 runs).

Kept share and attacker: 20 of the 40 in-vocabulary word pieces (80.0% of 50) of the first 2 TR1 reviews, seed 1; asset en (SHA-256 0123456789abcdef…).

≥: BRR's law has no closed form; its attacker is the better of a model trained on sampled draws and one that guesses the released word, so its rates are lower bounds on the best attacker's.
`

func writeFixture(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTypedPresetsTable: 'eval presets -typed' joins the study's cells,
// the levels measurement and the previous presets by mechanism and
// level, byte for byte as committed docs expect; files that disagree or
// are missing are errors, not a table.
func TestTypedPresetsTable(t *testing.T) {
	dir := t.TempDir()
	typed := writeFixture(t, dir, "typed.jsonl", typedFixture)
	prev := writeFixture(t, dir, "prev.jsonl", prevFixture)
	lv := writeFixture(t, dir, "levels.jsonl", levelsFixture)
	var out, errb bytes.Buffer
	if err := run([]string{"eval", "presets", "-typed", typed, "-levels", lv, "-after", prev}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if got := out.String(); got != typedTableWant {
		t.Fatalf("table:\n%s\nwant:\n%s", got, typedTableWant)
	}

	for _, tc := range []struct {
		name, typed, levels, want string
	}{
		{"ε differs between the files", typedFixture, strings.Replace(levelsFixture, `"epsilon":0.3`, `"epsilon":0.31`, 1), "not the same asset"},
		{"no levels records", typedFixture, "", "eval levels"},
		{"levels of two texts", typedFixture, strings.Replace(levelsFixture, `"seed":1}}`+"\n"+`{"kind":"levels","mechanism":"brr","level":"light"`, `"seed":2}}`+"\n"+`{"kind":"levels","mechanism":"brr","level":"light"`, 1), "different texts"},
		{"a cell measured twice", typedFixture, levelsFixture + strings.SplitAfter(levelsFixture, "\n")[0], "twice"},
		{"a bad levels record", typedFixture, strings.Replace(levelsFixture, `"level":"light"`, `"level":"medium"`, 1), "record 2"},
		{"no study records", "", levelsFixture, "no records"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := t.TempDir()
			ty, l := writeFixture(t, d, "typed.jsonl", tc.typed), writeFixture(t, d, "levels.jsonl", tc.levels)
			var out, errb bytes.Buffer
			err := run([]string{"eval", "presets", "-typed", ty, "-levels", l, "-after", prev}, &out, &errb)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one saying %q", err, tc.want)
			}
			if out.Len() != 0 {
				t.Fatalf("printed a table on error:\n%s", out.String())
			}
		})
	}
}

// TestEvalLevelsErrors: bad sizes are usage errors; missing data is a
// clear error that says how to get it, and writes nothing.
func TestEvalLevelsErrors(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "levels.jsonl")
	for _, args := range [][]string{{"-tokens", "0"}, {"-train", "-1"}} {
		var out, errb bytes.Buffer
		if err := run(append([]string{"eval", "levels", "-results", results}, args...), &out, &errb); !errors.Is(err, errUsage) {
			t.Errorf("eval levels %v: %v, want a usage error", args, err)
		}
	}
	var out, errb bytes.Buffer
	err := run([]string{"eval", "levels", "-floats", filepath.Join(dir, "none.wva"), "-results", results}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "make eval-data") {
		t.Errorf("eval levels without data: %v", err)
	}
	if _, err := os.Stat(results); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("results written without data: %v", err)
	}
}
