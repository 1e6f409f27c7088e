package ctxattack

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/research/internal/eval/levels"
)

func TestCandidates(t *testing.T) {
	col := []float64{0.1, 0.4, 0.2, 0, 0.2, 0.1}
	prior := []float64{1, 1, 1, 1, 1, 2}
	cases := []struct {
		k      int
		words  []int
		pruned float64
	}{
		// Scores 0.1 0.4 0.2 0 0.2 0.2 (total 1.1): ties to the lower id.
		{1, []int{1}, 0.7 / 1.1},
		{2, []int{1, 2}, 0.5 / 1.1},
		{4, []int{1, 2, 4, 5}, 0.1 / 1.1},
		{9, []int{1, 2, 4, 5, 0}, 0}, // a word of score 0 never
	}
	for _, c := range cases {
		p, pruned, best, nBest := Candidates(col, prior, c.k)
		if !slices.Equal(p.Words, c.words) || math.Abs(pruned-c.pruned) > 1e-12 || best != 0.4 || nBest != 1 {
			t.Errorf("k = %d: %v pruned %v best %v ×%d, want %v pruned %v", c.k, p.Words, pruned, best, nBest, c.words, c.pruned)
		}
		for i, w := range p.Words {
			if p.LogLaw[i] != math.Log(col[w]) {
				t.Errorf("k = %d: log law of %d = %v", c.k, w, p.LogLaw[i])
			}
		}
	}
	if _, _, best, n := Candidates([]float64{0.5, 0.5}, []float64{1, 1}, 1); best != 0.5 || n != 2 {
		t.Errorf("a tie at the top: best %v ×%d", best, n)
	}
}

func TestClusterRate(t *testing.T) {
	// Equal clusters with the same rate: no spread, a zero-width interval.
	r := clusterRate([]float64{1, 1, 1}, []float64{2, 2, 2}, true)
	if r.Rate != 0.5 || math.Abs(r.Lo-0.5) > 1e-12 || math.Abs(r.Hi-0.5) > 1e-12 {
		t.Errorf("no spread: %+v", r)
	}
	// Two clusters 0/1 and 2/2: r = 2/3, residuals −2/3 and 2/3, variance
	// 2·(8/9)/9 = 16/81, half-width 1.96·4/9: a share is clamped into
	// [0, 1], a difference into [−1, 1].
	r = clusterRate([]float64{0, 2}, []float64{1, 2}, true)
	half := z95 * 4 / 9
	if math.Abs(r.Rate-2.0/3) > 1e-12 || r.Lo != 0 || r.Hi != 1 {
		t.Errorf("two clusters: %+v", r)
	}
	r = clusterRate([]float64{0, 2}, []float64{1, 2}, false)
	if math.Abs(r.Lo-(2.0/3-half)) > 1e-12 || r.Hi != 1 {
		t.Errorf("two clusters, a difference: %+v", r)
	}
	if g := clusterRate([]float64{-1}, []float64{1}, false); g.Rate != -1 || g.Lo != -1 || g.Hi != 1 {
		t.Errorf("one cluster, a difference: %+v", g)
	}
}

func TestSample(t *testing.T) {
	segs := []Segment{{IDs: []int{1}}, {IDs: []int{2, 3}}, {IDs: []int{4, 5, 6}}, {IDs: []int{7}}}
	for _, tokens := range []int{1, 3, 5, 100} {
		got, err := Sample(segs, tokens, 9)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range got {
			n += len(s.IDs)
		}
		if n < min(tokens, 7) || n-maxLen(got) >= tokens {
			t.Errorf("%d tokens: got %d", tokens, n)
		}
		again, _ := Sample(segs, tokens, 9)
		if len(again) != len(got) {
			t.Errorf("%d tokens: not reproducible", tokens)
		}
	}
	if _, err := Sample(segs, 0, 1); err == nil {
		t.Error("a sample of 0 tokens")
	}
}

func TestRecordsRoundTrip(t *testing.T) {
	c := Cell{Mechanism: "brr", Level: levels.Levels[0], Epsilon: 0.3, Segments: 2, Tokens: 5, K: 3,
		Kept: Rate{0.2, 0.1, 0.3}, OneWord: Rate{0.2, 0.1, 0.3}, Context: Rate{0.4, 0.2, 0.6},
		Gain: Rate{0.2, -0.1, 0.5}, PerWord: Rate{0.5, 0.3, 0.7}, PerWordGain: Rate{0.3, 0, 0.6}, InCandidates: Rate{0.8, 0.6, 1}, PrunedMass: 0.1, PrunedMassMax: 0.5, LowerBound: true}
	run := Run{Asset: "en", Seed: 1, Command: "x"}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := Write(path, []Cell{c}, run); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(path)
	if err != nil || len(recs) != 1 || recs[0].Cell != c || recs[0].Run != run {
		t.Fatalf("round trip: %+v %v", recs, err)
	}
	if err := Write(path, []Cell{c, c}, run); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil {
		t.Error("a cell twice is read")
	}
	bad := c
	bad.Context = Rate{1.2, 0, 1}
	if err := Write(path, []Cell{bad}, run); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(path); err == nil {
		t.Error("a rate above 1 is read")
	}
}

// maxLen is the longest segment's length: a sample stops as soon as it
// holds enough tokens, so it is short of them without its last pick.
func maxLen(segs []Segment) int {
	m := 0
	for _, s := range segs {
		m = max(m, len(s.IDs))
	}
	return m
}
