package privatize

// The golden outputs of Euclidean TEM (mechanism.NameTEM) at the ends of
// its accepted ε range, pinned here at the engine level since the
// product's front doors no longer offer it (package core refuses "tem";
// the research module and the audit still build it). The records,
// testdata/golden_tem.json, are the two "tem/eps=..." cases package
// core's golden outputs recorded while it offered TEM, moved unchanged
// with core's input beside them: the same case names (hence seeds),
// input, output vocabulary (the asset's exclusion list applied), text
// policies and bill format, so the law's bytes stay what they were. Regenerate only for a change meant to
// alter TEM's outputs, and say so in the commit:
//
//	go test -run TestGoldenTEM -update-golden-tem .

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
)

var updateGoldenTEM = flag.Bool("update-golden-tem", false, "rewrite testdata/golden_tem.json from the current code (TestGoldenTEM)")

const goldenTEMPath = "testdata/golden_tem.json"

// goldenTEMFile is the testdata file: the input (package core's golden
// input, one text per element) and what each case released for it.
type goldenTEMFile struct {
	Input []string          `json:"input"`
	Cases []goldenTEMRecord `json:"cases"`
}

type goldenTEMRecord struct {
	Case    string          `json:"case"`
	Seed    uint64          `json:"seed"`
	Epsilon string          `json:"epsilon"`
	Metric  string          `json:"metric"`
	Lines   []goldenTEMLine `json:"lines"`
	Block   []goldenTEMLine `json:"block"`
}

type goldenTEMLine struct {
	Text string `json:"text"`
	Bill string `json:"bill"`
}

func TestGoldenTEM(t *testing.T) {
	a := defaultAsset(t)
	lo, hi := temRange(t)
	b, err := os.ReadFile(goldenTEMPath)
	if err != nil {
		t.Fatal(err)
	}
	var file goldenTEMFile
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Input) == 0 {
		t.Fatalf("%s: no input", goldenTEMPath)
	}
	var got []goldenTEMRecord
	for _, c := range []struct {
		name string
		eps  float64
	}{{"tem/eps=floor", lo}, {"tem/eps=ceiling", hi}} {
		outputs, err := mechanism.DefaultOutputs(a)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mechanism.New(mechanism.NameTEM, a, c.eps, mechanism.Options{Outputs: outputs})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p, err := New(m, a, Options{OOV: OOVRandomWord, Numbers: NumbersPrivatize})
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		h.Write([]byte(c.name))
		rec := goldenTEMRecord{Case: c.name, Seed: h.Sum64(), Epsilon: strconv.FormatFloat(m.Epsilon(), 'g', 10, 64), Metric: m.Metric()}
		src := seeded.Source(rec.Seed)
		for _, line := range file.Input {
			r, err := p.Privatize(line, src)
			if err != nil {
				t.Fatal(err)
			}
			rec.Lines = append(rec.Lines, goldenTEMOf(&r.Accounting, r.Text))
		}
		rs, err := p.PrivatizeBlock(context.Background(), file.Input, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rs {
			rec.Block = append(rec.Block, goldenTEMOf(&rs[i].Accounting, rs[i].Text))
		}
		p.Close()
		got = append(got, rec)
	}
	if *updateGoldenTEM {
		b, err := json.MarshalIndent(goldenTEMFile{Input: file.Input, Cases: got}, "", "\t")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenTEMPath, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := file.Cases
	if len(got) != len(want) {
		t.Fatalf("%d cases, %s has %d", len(got), goldenTEMPath, len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.Case != w.Case || g.Seed != w.Seed || g.Epsilon != w.Epsilon || g.Metric != w.Metric {
			t.Errorf("case %s seed %d ε %s metric %s, want %s %d %s %s", g.Case, g.Seed, g.Epsilon, g.Metric, w.Case, w.Seed, w.Epsilon, w.Metric)
			continue
		}
		for _, part := range []struct {
			what      string
			got, want []goldenTEMLine
		}{{"Privatize", g.Lines, w.Lines}, {"PrivatizeBlock", g.Block, w.Block}} {
			if len(part.got) != len(part.want) {
				t.Errorf("%s %s: %d lines, want %d", g.Case, part.what, len(part.got), len(part.want))
				continue
			}
			for j := range part.got {
				if part.got[j] != part.want[j] {
					t.Errorf("%s %s line %d:\n got %+v\nwant %+v", g.Case, part.what, j+1, part.got[j], part.want[j])
				}
			}
		}
	}
}

// temRange is Euclidean TEM's accepted ε range on the embedded asset (over
// every output, as package core measured it), checked at its edges.
func temRange(t *testing.T) (lo, hi float64) {
	t.Helper()
	a := defaultAsset(t)
	m, err := mechanism.New(mechanism.NameTEM, a, mechanism.MaxEpsilon, mechanism.Options{AllowSaturated: true})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, ok := mechanism.EpsilonRange(m)
	if !ok {
		t.Fatal("tem: no ε range")
	}
	for _, eps := range []float64{math.Nextafter(lo, 0), math.Nextafter(hi, math.Inf(1))} {
		if _, err := mechanism.New(mechanism.NameTEM, a, eps, mechanism.Options{}); !errors.Is(err, mechanism.ErrInvalidEpsilon) && !errors.Is(err, mechanism.ErrEpsilonSaturated) {
			t.Fatalf("tem at ε %v, just outside [%v, %v]: %v", eps, lo, hi, err)
		}
	}
	return lo, hi
}

// goldenTEMOf is a text and its bill, in package core's golden format.
func goldenTEMOf(a *Accounting, text string) goldenTEMLine {
	f := func(x float64, digits int) string {
		if math.IsNaN(x) {
			return "NaN"
		}
		return strconv.FormatFloat(x, 'g', digits, 64)
	}
	bill := fmt.Sprintf("mech=%s words=%d oov=%d memo=%d total=%s pavg=%s", a.Mechanism, a.Words, a.OOV, a.Memoized, f(a.TotalEpsilon, 10), f(a.PAvg, 6))
	if a.LossUnknown != "" {
		bill += " unknown=" + strconv.Quote(a.LossUnknown)
	}
	for _, c := range a.Classes {
		bill += fmt.Sprintf(" %s:eps=%s,words=%d,memo=%d", c.Class, f(c.Epsilon, 10), c.Words, c.Memoized)
	}
	return goldenTEMLine{Text: text, Bill: bill}
}
