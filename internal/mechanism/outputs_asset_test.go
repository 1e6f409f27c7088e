package mechanism

import (
	"slices"
	"testing"

	"github.com/wordveil/wordveil/internal/sample"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// assetExclusions is a seeded choice of about 500 excluded words of the
// default asset: the 50 most frequent (ids 0..49) and 450 others.
func assetExclusions(t testing.TB, n int) []int {
	t.Helper()
	src := seeded.Key(stattest.Seed("exclusions"))
	ex := make([]int, 0, 500)
	for id := range 50 {
		ex = append(ex, id)
	}
	for len(ex) < 500 {
		if id := sample.UniformInt(src, n); !slices.Contains(ex, id) {
			ex = append(ex, id)
		}
	}
	return ex
}

// On the default asset, at every preset of the four preset mechanisms and
// TEM at ε = 10, restricted mechanisms never release an excluded word,
// whether the input is excluded (frequent words included) or not. The
// negative control: the same inputs through the unrestricted mechanisms
// do release excluded words, so the count can see them.
func TestOutputsNeverReleaseExcluded(t *testing.T) {
	a := defaultAsset(t)
	n := a.Len()
	excluded := assetExclusions(t, n)
	o, err := NewOutputs(n, excluded)
	if err != nil {
		t.Fatal(err)
	}
	inputs := append(slices.Clone(excluded[:10]), excluded[60:70]...) // frequent and rare excluded words
	for _, id := range []int{50, 51, 100, 1000, 20000, n - 1} {       // and allowed ones
		if o.Allowed(id) {
			inputs = append(inputs, id)
		}
	}
	perInput := 100
	if testing.Short() {
		perInput = 20
	}
	type config struct {
		name string
		eps  float64
	}
	var configs []config
	for _, name := range []string{NameBRR, NameTEMHamming, Name1DG, Name1DT} {
		for _, level := range []string{LevelStrong, LevelBalanced, LevelLight} {
			eps, err := Preset(a, name, level)
			if err != nil {
				t.Fatal(err)
			}
			configs = append(configs, config{name, eps})
		}
	}
	configs = append(configs, config{NameTEM, 10})
	for _, c := range configs {
		r, err := New(c.name, a, c.eps, Options{Outputs: o})
		if err != nil {
			t.Fatal(err)
		}
		u, err := New(c.name, a, c.eps, Options{})
		if err != nil {
			t.Fatal(err)
		}
		src := seeded.Key(stattest.Seed("never/" + c.name + ftoa(c.eps)))
		count := func(m Mechanism) (bad int) {
			for _, w := range inputs {
				for range perInput {
					y, err := m.Privatize(w, src)
					if err != nil {
						t.Fatal(err)
					}
					if !o.Allowed(y) {
						bad++
					}
				}
			}
			return bad
		}
		bad, control := count(r), count(u)
		t.Logf("%s ε=%s: %d draws, excluded released: restricted %d, unrestricted %d", c.name, ftoa(c.eps), len(inputs)*perInput, bad, control)
		if bad != 0 {
			t.Errorf("%s ε=%v: %d excluded words released", c.name, c.eps, bad)
		}
		if control == 0 {
			t.Errorf("%s ε=%v: the unrestricted mechanism never released an excluded word: the count cannot fail", c.name, c.eps)
		}
	}
}
