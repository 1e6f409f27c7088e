package levelfacts

import (
	"bytes"
	"encoding/hex"
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
		_, _, _, top1, top5 := cells(a, r, mdRate, mdBound)
		if !strings.HasPrefix(top1, "between ") {
			t.Errorf("%s: top-1 %q, want the interval", r.Level, top1)
		}
		// Top-5 is an interval wherever its bound was measured; lines of
		// eval brrbound written before it was recorded have none.
		if b.hi5 > 0 {
			if !(0 <= b.lo5 && b.lo5 <= b.hi5 && b.hi5 <= 1) || b.lo5 < b.lo || b.hi5 < b.hi {
				t.Errorf("%s: top-5 bound [%v, %v] is not an interval above top-1's [%v, %v]", r.Level, b.lo5, b.hi5, b.lo, b.hi)
			}
			if !strings.HasPrefix(top5, "between ") {
				t.Errorf("%s: top-5 %q, want the interval", r.Level, top5)
			}
		} else {
			t.Errorf("%s: no top-5 bound measured: rerun eval brrbound and eval brrbound-go", r.Level)
		}
		r.Epsilon *= 1.0001 // control: another ε
		if _, _, _, top1, top5 := cells(a, r, mdRate, mdBound); !strings.HasPrefix(top1, "≥ ") || !strings.HasPrefix(top5, "≥ ") {
			t.Errorf("%s at another ε: top-1 %q, top-5 %q, want the lower bounds", r.Level, top1, top5)
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

// TestTop5Bound: where a row's measured bound has a top-5 interval, top-5
// is "between" with its lower end the larger of the two lower bounds;
// where it has none (hi5 = 0), top-5 stays "≥" while top-1 is the
// interval.
func TestTop5Bound(t *testing.T) {
	a, err := wva.Default()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Rows(a, []string{mechanism.NameBRR}, Levels[:1], 0, Sample{Words: 2, Draws: 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rows[0]
	h := r.Facts.HeldOut
	if h == nil || h.Bound != "lower" {
		t.Fatalf("%s: held-out facts %+v, want a lower bound", r.Level, h)
	}
	sum := a.SHA256()
	saved := measuredBounds
	defer func() { measuredBounds = saved }()
	for _, tc := range []struct {
		name     string
		lo5, hi5 float64
		want     string
	}{
		{"measured, above the facts' lower end", h.Top5.Lo + 0.01, 0.99, mdBound(h.Top5.Lo+0.01, 0.99)},
		{"measured, below the facts' lower end", h.Top5.Lo / 2, 0.99, mdBound(h.Top5.Lo, 0.99)},
		{"not measured", 0, 0, "≥ " + mdRate(h.Top5)},
	} {
		measuredBounds = []attackBound{{asset: hex.EncodeToString(sum[:]), mechanism: r.Mechanism, level: r.Level,
			epsilon: r.Epsilon, lo: 0, hi: 0.9, lo5: tc.lo5, hi5: tc.hi5, draws: 2, delta: 0.025}}
		_, _, _, top1, top5 := cells(a, r, mdRate, mdBound)
		if !strings.HasPrefix(top1, "between ") || top5 != tc.want {
			t.Errorf("%s: top-1 %q, top-5 %q, want the interval and %q", tc.name, top1, top5, tc.want)
		}
	}
}
