package pipeline

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/core"
)

// Without a seed, privatizeFn privatizes a batch's granted texts as blocks
// of at most MaxRecordBytes (here 60 and more: the longest text's size, the
// engine's bound on a text too): every record still gets its own output and
// accounting, equal to its charge, whatever block it fell in; a withheld
// record gets its placeholder, an empty text a zero charge; a record whose
// charge differs from the one the decision saw fails closed.
func TestPrivatizeBlocks(t *testing.T) {
	texts := []string{
		"the quick brown fox", "", "jumps over the lazy dog and keeps running",
		"a", "hello there", strings.Repeat("word ", 12), "numbers 12 and 7",
	}
	// One results array for every case: doAll reuses it from block to
	// block, and a reused element must carry nothing of the last.
	var results []core.Result
	for _, tc := range []struct {
		name     string
		maxBytes int
		mech     string
		tamper   int // index of a granted record charged one word too few; -1: none
	}{
		{"one block", 1 << 10, "1dg", -1},
		{"several blocks", 64, "1dg", -1},
		{"the longest text alone", 60, "1dg", -1},
		{"brr, several blocks", 64, "brr", -1},
		{"a charge that differs", 64, "1dg", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fn := &privatizeFn{Engine: Engine{Mechanism: tc.mech}, Format: FormatJSONL, MaxRecordBytes: tc.maxBytes, OverCap: OverCapPlaceholder, Placeholder: "[withheld]", Parallelism: 2}
			if err := fn.Setup(); err != nil {
				t.Fatal(err)
			}
			defer fn.Teardown()
			var js []job
			for i, tx := range texts {
				j := job{r: record{User: "u", Source: "f", Line: int64(i + 1), Text: tx}, granted: i != 3}
				if j.granted && tx != "" {
					acc, err := fn.ps[0].Cost(tx)
					if err != nil {
						t.Fatal(err)
					}
					j.want = slot{Words: acc.Words, Cost: acc.UnitFree}
					if i == tc.tamper {
						j.want.Words--
					}
				}
				js = append(js, j)
			}
			fn.doAll(context.Background(), fn.ps[1], js, &results)
			for i, j := range js {
				if i == tc.tamper {
					if j.err == nil || !strings.Contains(j.err.Error(), "charged as") {
						t.Errorf("record %d charged one word too few: err %v, want the charge's mismatch", i, j.err)
					}
					continue
				}
				if j.err != nil {
					t.Fatalf("record %d: %v", i, j.err)
				}
				var out Output
				if err := json.Unmarshal(appendRecordJSON(nil, j.r.User, j.r.Source, j.r.Line, &j.out), &out); err != nil {
					t.Fatalf("record %d: %v", i, err)
				}
				switch {
				case out.Line != int64(i+1) || out.User != "u":
					t.Errorf("record %d: output of line %d of %q", i, out.Line, out.User)
				case !j.granted:
					if out.Status != StatusWithheld || out.Text != "[withheld]" {
						t.Errorf("record %d withheld: %+v", i, out)
					}
				case texts[i] == "":
					if out.Status != StatusReleased || out.Text != "" || *out.UnitFree != 0 {
						t.Errorf("record %d empty: %+v", i, out)
					}
				default:
					if out.Status != StatusReleased || out.Words != j.want.Words || *out.UnitFree != j.want.Cost || out.Text == "" || j.n != out.Words {
						t.Errorf("record %d: %+v, charged %d words (%v)", i, out, j.want.Words, j.want.Cost)
					}
				}
			}
		})
	}
}
