package attack

import (
	"testing"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
	"github.com/wordveil/wordveil/internal/wva"
)

// The cost of the sampled attacker on the 50,000-word asset with 1-DG
// over all of the asset's lists. Measured with
//
//	cd research && go test -run '^$' -bench . -benchtime 200x ./eval/attack
//
// on this project's 2-core machine, other work running (see the package
// doc for the figures).

func assetGeometric(b *testing.B) (mechanism.Mechanism, *Mixture, []float64) {
	b.Helper()
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	if len(a.Lists) == 0 {
		b.Skip("the embedded asset has no 1-Diffractor lists")
	}
	const eps = 1
	m, err := mechanism.NewDiffractorGeometric(a.Lists, eps)
	if err != nil {
		b.Fatal(err)
	}
	var parts []Column
	for _, l := range a.Lists {
		pos := make([]int, len(l.Pos))
		for w, p := range l.Pos {
			pos[w] = int(p)
		}
		g, err := NewGeometric(pos, eps)
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, g)
	}
	col, err := NewMixture(parts...)
	if err != nil {
		b.Fatal(err)
	}
	prior := make([]float64, a.Len())
	for w := range prior {
		prior[w] = 1 / float64(w+1) // Zipf over the frequency ranks
	}
	return m, col, prior
}

// BenchmarkGeometricColumn: one column P[·][y] of 1-DG at N = 50,000.
func BenchmarkGeometricColumn(b *testing.B) {
	_, col, _ := assetGeometric(b)
	dst := make([]float64, col.Len())
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := col.Column(i%col.Len(), dst); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(col.parts)), "lists")
}

// BenchmarkAttackToken: one sampled token end to end (privatize, column,
// posterior scores, top-5 ranking and credit) at N = 50,000.
func BenchmarkAttackToken(b *testing.B) {
	m, col, prior := assetGeometric(b)
	src := seeded.Key(stattest.Seed("attack/bench"))
	tokens := []int{0, 17, 512, 4000, 30000}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Attack(tokens, m, src, col, prior, 5); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(tokens)), "ns/token")
}
