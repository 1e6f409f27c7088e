package study

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/attack"
	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

func levelsCell(name, level string, eps float64, lower bool) levels.Cell {
	i := attack.Interval{Rate: 0.5, Lo: 0.4, Hi: 0.6}
	return levels.Cell{Mechanism: name, Level: level, Epsilon: eps, Tokens: 100, Kept: i, Top1: i, Top5: i, Baseline1: i, Baseline5: i, LowerBound: lower}
}

// TestLevelsRecordsRoundTrip: the records come in mechanism and level
// order whatever the map's order, bounds straying past [0, 1] by an ulp
// are clamped, and a written file reads back equal.
func TestLevelsRecordsRoundTrip(t *testing.T) {
	brr := levelsCell("brr", "light", 0.5, true)
	brr.Kept = attack.Interval{Rate: 1, Lo: 0.99, Hi: 1 + 1e-16}
	brr.Top1 = attack.Interval{Rate: 0, Lo: -1e-17, Hi: 0.01}
	cells := map[string]map[string]levels.Cell{
		"tem-hamming": {"balanced": levelsCell("tem-hamming", "balanced", 0.2, false), "strong": levelsCell("tem-hamming", "strong", 0.1, false)},
		"brr":         {"light": brr},
	}
	text := LevelsText{Asset: "a", AssetSHA256: "00", Reviews: 3, Words: 40, InVocab: 30, Sample: 20, Seed: 7}
	recs := LevelsRecords(cells, text)
	var order []string
	for _, r := range recs {
		order = append(order, r.Mechanism+"/"+r.Level)
	}
	if got := strings.Join(order, " "); got != "brr/light tem-hamming/strong tem-hamming/balanced" {
		t.Fatalf("order %s", got)
	}
	if r := recs[0]; r.Kept != (Rate{1, 0.99, 1}) || r.Top1 != (Rate{0, 0, 0.01}) || !r.LowerBound || r.Text != text || r.Kind != LevelsKind {
		t.Fatalf("record %+v", r)
	}
	path := filepath.Join(t.TempDir(), "levels.jsonl")
	if err := WriteLevels(path, recs); err != nil {
		t.Fatal(err)
	}
	back, err := ReadLevels(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, recs) {
		t.Fatalf("read back %+v, wrote %+v", back, recs)
	}
	// Rewriting replaces the file.
	if err := WriteLevels(path, recs[:1]); err != nil {
		t.Fatal(err)
	}
	if back, err := ReadLevels(path); err != nil || len(back) != 1 {
		t.Fatalf("after rewrite: %d records, %v", len(back), err)
	}
	if back, err := ReadLevels(filepath.Join(t.TempDir(), "none.jsonl")); err != nil || back != nil {
		t.Fatalf("missing file: %v, %v", back, err)
	}
}

// TestReadLevelsRefusesBadRecords: a record of another kind, an unknown
// level, a non-positive ε, no tokens or a rate outside [0, 1] or out of
// order is an error naming the record, never a silently wrong table.
func TestReadLevelsRefusesBadRecords(t *testing.T) {
	good := `{"kind":"levels","mechanism":"brr","level":"strong","epsilon":0.4,"tokens":10,` +
		`"kept":{"rate":0.1,"lo":0.05,"hi":0.2},"top1":{"rate":0.1,"lo":0.05,"hi":0.2},"top5":{"rate":0.1,"lo":0.05,"hi":0.2},` +
		`"baseline1":{"rate":0.1,"lo":0.05,"hi":0.2},"baseline5":{"rate":0.1,"lo":0.05,"hi":0.2},"text":{"asset":"a","asset_sha256":"00","reviews":1,"words":1,"in_vocab":1,"sample":1,"seed":1}}`
	for _, tc := range []struct {
		name, old, new string
		ok             bool
	}{
		{"good", "", "", true},
		{"accuracy record", `"kind":"levels"`, `"kind":"accuracy"`, false},
		{"unknown level", `"level":"strong"`, `"level":"medium"`, false},
		{"no mechanism", `"mechanism":"brr"`, `"mechanism":""`, false},
		{"zero ε", `"epsilon":0.4`, `"epsilon":0`, false},
		{"no tokens", `"tokens":10`, `"tokens":0`, false},
		{"rate above its bound", `"kept":{"rate":0.1,"lo":0.05,"hi":0.2}`, `"kept":{"rate":0.3,"lo":0.05,"hi":0.2}`, false},
		{"bound above 1", `"top5":{"rate":0.1,"lo":0.05,"hi":0.2}`, `"top5":{"rate":0.1,"lo":0.05,"hi":1.2}`, false},
		{"negative bound", `"baseline1":{"rate":0.1,"lo":0.05,"hi":0.2}`, `"baseline1":{"rate":0.1,"lo":-0.05,"hi":0.2}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := strings.Replace(good, tc.old, tc.new, 1)
			if tc.old != "" && line == good {
				t.Fatalf("fixture: %q not in the good record", tc.old)
			}
			path := filepath.Join(t.TempDir(), "levels.jsonl")
			if err := os.WriteFile(path, []byte(line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			recs, err := ReadLevels(path)
			if (err == nil) != tc.ok {
				t.Fatalf("ReadLevels: %v, want ok %v", err, tc.ok)
			}
			if tc.ok && (len(recs) != 1 || recs[0].Epsilon != 0.4 || recs[0].Text.Seed != 1) {
				t.Fatalf("records %+v", recs)
			}
			if !tc.ok && !strings.Contains(err.Error(), "record 1") {
				t.Fatalf("error %v does not name the record", err)
			}
		})
	}
}
