package levelfacts

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// TestBoundsMeasured: BRR's top-1 on the embedded asset is the measured
// two-sided interval at each preset, never a one-sided "≥"; the same row
// at another ε, or on another asset, keeps "≥" (a bound measured
// elsewhere says nothing there).
func TestBoundsMeasured(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Rows(a, []string{mechanism.NameBRR}, Levels, 0, Sample{Words: 2, Draws: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(Levels) {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		b, ok := boundFor(a, r)
		if !ok {
			t.Fatalf("%s %s (ε %v): no measured bound for the embedded asset: rerun eval brrbound and eval brrbound-go", r.Mechanism, r.Level, r.Epsilon)
		}
		if !(0 <= b.lo && b.lo <= b.hi && b.hi <= 1) || b.hi-b.lo > 0.06 {
			t.Errorf("%s: bound [%v, %v] is not an interval of width ≤ 0.06", r.Level, b.lo, b.hi)
		}
		_, _, _, top1, _ := cells(a, r, mdRate, mdBound)
		if !strings.HasPrefix(top1, "between ") {
			t.Errorf("%s: top-1 %q, want the interval", r.Level, top1)
		}
		r.Epsilon *= 1.0001 // control: another ε
		if _, _, _, top1, _ := cells(a, r, mdRate, mdBound); !strings.HasPrefix(top1, "≥ ") {
			t.Errorf("%s at another ε: top-1 %q, want the lower bound", r.Level, top1)
		}
	}
	var buf bytes.Buffer
	if err := WriteMarkdown(&buf, a, rows, Sample{Words: 2, Draws: 2}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "two-sided bound") {
		t.Error("the legend does not say what the interval is")
	}
	// Control: an asset with different bytes has no bound.
	small := smallAsset(t)
	for _, r := range rows {
		if _, ok := boundFor(small, r); ok {
			t.Errorf("%s: a bound for an asset it was not measured on", r.Level)
		}
	}
}
