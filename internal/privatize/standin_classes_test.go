package privatize

import (
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/tokenize"
)

// TestStandInClassIsItsWords: under every class setting, a stand-in is
// privatized exactly as the word it stands in for: with the same random
// stream, every mechanism gives the same output for both (the same law,
// coupled draw by draw) and bills both at the class ε the test computes
// for the WORD (its id against RareRank, its case). Settings: no classes;
// rare with the word just below RareRank (not rare) and at it (rare);
// capitalized, in lower and Title case; all three. Before the fix a
// stand-in was always rare ("yeahs" followed 1-DG at the rare ε while
// "yeah" followed the main ε). Controls: the bill check is exact (a
// stand-in billed at the rare ε while its word is not fails it), and a
// neighbouring word with the same stream gives other outputs.
func TestStandInClassIsItsWords(t *testing.T) {
	a := defaultAsset(t)
	if a.StandIns.Len() == 0 {
		t.Skip("the default asset has no stand-ins")
	}
	n := a.Len()
	for _, nm := range fullAssetMechanisms(t) {
		base := nm.m.Epsilon()
		low := base * 0.95 // smaller than base, so a matching class wins; TEM stays above its floor
		differ, checked := 0, 0
		samples := 8
		if testing.Short() {
			samples = 3
		}
		for i := 0; i < a.StandIns.Len(); i += a.StandIns.Len() / samples {
			st, id := a.StandIns.At(i)
			if id == 0 || id >= n-1 {
				continue // RareRank must be in [1, N−1] on both sides of id
			}
			word := a.Word(id)
			other := a.Word((id + 1) % n)
			for _, c := range []Classes{
				{},
				{RareRank: id + 1, Rare: low}, // the word is not rare
				{RareRank: id, Rare: low},     // the word is rare
				{Capitalized: low},
				{RareRank: id, Rare: low, Capitalized: low, Number: low},
			} {
				m := nm.m
				p, err := NewWithClasses(m, a, c, mechanism.Options{}, Options{})
				if err != nil {
					t.Fatalf("%s %+v: %v", nm.name, c, err)
				}
				for _, cs := range []tokenize.Case{tokenize.Lower, tokenize.Title} {
					stc, wc, oc := tokenize.Apply(cs, st), tokenize.Apply(cs, word), tokenize.Apply(cs, other)
					seed := stattest.Seed("standin-class/" + nm.name + "/" + st)
					run := func(w string) *Result {
						res, err := p.Privatize(strings.Repeat(w+" ", 3), seeded.Key(seed))
						if err != nil {
							t.Fatal(err)
						}
						return res
					}
					got, want, ctl := run(stc), run(wc), run(oc)
					_, eps := refClass(a, c, base, tokenize.Token{Kind: tokenize.Word, Text: wc, Whole: wc})
					if got.Text != want.Text || got.Accounting.Words != 3 || got.Accounting.TotalEpsilon != want.Accounting.TotalEpsilon || got.Accounting.TotalEpsilon != 3*eps {
						t.Fatalf("%s %+v: stand-in %q gave %q billed %v, its word %q gave %q billed %v; want the word's class ε %v",
							nm.name, c, stc, got.Text, got.Accounting.TotalEpsilon, wc, want.Text, want.Accounting.TotalEpsilon, eps)
					}
					checked++
					if ctl.Text != want.Text {
						differ++
					}
				}
			}
		}
		if checked == 0 || differ == 0 {
			t.Fatalf("%s: control: %d checks, a neighbouring word gave the same outputs every time", nm.name, checked)
		}
	}
}
