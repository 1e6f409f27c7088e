package privatize

import (
	"strings"
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// TestDefaultExclusionNeverReleased: with the default asset's exclusion
// list as the output vocabulary, no excluded word appears in any output,
// for every preset mechanism at every level, whether the input typed an
// excluded word, a vocabulary word or an out-of-vocabulary token. Without
// the restriction (negative control) excluded words do appear.
func TestDefaultExclusionNeverReleased(t *testing.T) {
	if testing.Short() {
		t.Skip("12 mechanisms × 400 texts on the full asset")
	}
	a := defaultAsset(t)
	outs, err := mechanism.DefaultOutputs(a)
	if err != nil || outs == nil {
		t.Fatalf("default outputs: %v", err)
	}
	var excluded []string
	for _, id := range a.Header.Excluded.IDs {
		excluded = append(excluded, a.Word(int(id)))
	}
	// Excluded words typed by the user, ordinary words, clitics, stand-ins,
	// hyphenated words, OOV tokens.
	text := strings.Join(excluded[:40], " ") + " the cat can't I'm heisenberg well-known mother-in-law's xqzzv 4217 " + strings.Join(excluded[40:80], " ")
	bad := map[string]bool{}
	for _, w := range excluded {
		bad[w] = true
	}
	count := func(m mechanism.Mechanism, draws int) int {
		p, err := New(m, a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		src := seeded.Key(stattest.Seed("exclusion/" + m.(mechanism.Facts).Params()))
		n := 0
		for range draws {
			r, err := p.Privatize(text, src)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range strings.FieldsFunc(strings.ToLower(r.Text), func(c rune) bool { return c == ' ' || c == '-' }) {
				if bad[w] {
					n++
				}
			}
		}
		return n
	}
	for _, name := range []string{mechanism.NameBRR, mechanism.NameTEMHamming, mechanism.Name1DG, mechanism.Name1DT} {
		for _, level := range []string{mechanism.LevelStrong, mechanism.LevelBalanced, mechanism.LevelLight} {
			eps, err := mechanism.Preset(a, name, level)
			if err != nil {
				t.Fatal(err)
			}
			m, err := mechanism.New(name, a, eps, mechanism.Options{Outputs: outs})
			if err != nil {
				t.Fatal(err)
			}
			draws := 30
			if name == mechanism.NameBRR || name == mechanism.NameTEMHamming {
				draws = 4 // ~90 words each; the scans dominate
			}
			if n := count(m, draws); n != 0 {
				t.Errorf("%s %s: %d excluded words released", name, level, n)
			}
		}
	}
	// Negative control: 1-DG at the light preset without the restriction
	// releases the excluded inputs themselves (N_w ≈ 0.6).
	eps, _ := mechanism.Preset(a, mechanism.Name1DG, mechanism.LevelLight)
	m, _ := mechanism.New(mechanism.Name1DG, a, eps, mechanism.Options{})
	if n := count(m, 5); n == 0 {
		t.Fatal("negative control: the unrestricted mechanism released no excluded word; the test cannot fail")
	}
}
