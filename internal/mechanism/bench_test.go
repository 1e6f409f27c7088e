package mechanism

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/wordveil/wordveil/internal/hamming"
	"github.com/wordveil/wordveil/internal/seeded"
	"github.com/wordveil/wordveil/internal/stattest"
)

// Mechanisms on the full default asset (N = 50k), built once.
var (
	fullOnce  sync.Once
	fullMechs []namedMech
	fullErr   error
)

type namedMech struct {
	name string
	m    Mechanism
}

func fullAssetMechanisms(tb testing.TB) []namedMech {
	tb.Helper()
	a := defaultAsset(tb)
	fullOnce.Do(func() {
		x, err := hamming.NewIndex(a.Codes)
		if err != nil {
			fullErr = err
			return
		}
		add := func(name string, m Mechanism, err error) {
			if err != nil && fullErr == nil {
				fullErr = err
			}
			fullMechs = append(fullMechs, namedMech{name, m})
		}
		brr, err := newBRR(x, 0.7)
		add("BRR/eps=0.7", brr, err)
		dg, err := newDG(a.Lists, 0.05)
		add("1-DG/eps=0.05", dg, err)
		dt, err := newDT(a.Lists, 0.05, TEMOptions{})
		add("1-DT/eps=0.05", dt, err)
		tem, err := newTEM(a.TEM, 10, TEMOptions{})
		add("TEM-lists/eps=10", tem, err)
		th, err := newTEMHamming(x, 1, TEMOptions{})
		add("TEM-hamming/eps=1", th, err)
		// The same mechanisms restricted to an output vocabulary without
		// 500 words (1%, the 50 most frequent among them).
		o, err := NewOutputs(a.Len(), assetExclusions(tb, a.Len()))
		if err != nil {
			fullErr = err
			return
		}
		for _, nm := range fullMechs[:5] {
			r, err := Restrict(nm.m, o)
			add(nm.name+"/outputs-1%", r, err)
		}
	})
	if fullErr != nil {
		tb.Fatal(fullErr)
	}
	return fullMechs
}

// BenchmarkPrivatize reports ns per word on the default asset, for each
// mechanism unrestricted and restricted to 99% of the words
// ("/outputs-1%"); the words cycle through the vocabulary with a stride so
// caches see varied inputs.
func BenchmarkPrivatize(b *testing.B) {
	for _, nm := range fullAssetMechanisms(b) {
		b.Run(nm.name, func(b *testing.B) {
			benchPrivatize(b, nm.m, seeded.Key(stattest.Seed("bench")))
		})
	}
}

// benchPrivatize privatizes one word per iteration, cycling through the
// vocabulary with a stride so caches see varied inputs.
func benchPrivatize(b *testing.B, m Mechanism, src rand.Source) {
	b.ReportAllocs()
	w := 0
	for b.Loop() {
		if _, err := m.Privatize(w, src); err != nil {
			b.Fatal(err)
		}
		w = (w + 7919) % m.Len()
	}
}

// TestZeroAllocs: no heap allocation per word on any mechanism's path
// (buffers come from sync.Pools in steady state, so the first call warms
// them up).
func TestZeroAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds mechanisms over the full asset")
	}
	for _, nm := range fullAssetMechanisms(t) {
		src := seeded.Key(stattest.Seed("allocs"))
		n := nm.m.Len()
		w := 0
		run := func() {
			if _, err := nm.m.Privatize(w, src); err != nil {
				t.Fatal(err)
			}
			w = (w + 7919) % n
		}
		for range 50 { // warm the pools (buffers grow to the largest ball)
			run()
		}
		if allocs := testing.AllocsPerRun(200, run); allocs != 0 {
			t.Errorf("%s: %v allocations per word, want 0", nm.name, allocs)
		}
	}
}

// BenchmarkBaselines puts the costs the targets refer to beside the
// mechanisms, in the same run: the exact 1-NN scan BRR pays for (a far
// query, random tie-breaking), TEM with lists on the word whose γ_max ball
// is the largest not above 500, and every mechanism at its "balanced"
// preset.
func BenchmarkBaselines(b *testing.B) {
	a := defaultAsset(b)
	x, _ := hamming.NewIndex(a.Codes)
	src := seeded.Key(stattest.Seed("baselines"))
	b.Run("scan-1NN-far-query", func(b *testing.B) {
		b.ReportAllocs()
		q := a.Codes[0]
		for i := range q {
			q[i] ^= 0x5555555555555555 // 128 bits away from word 0
		}
		for b.Loop() {
			if _, err := x.Nearest(q, hamming.Options{Ties: hamming.TiesRandom, Rand: src, ExpectedRadius: 100}); err != nil {
				b.Fatal(err)
			}
		}
	})
	big, size := 0, 0
	for w := 0; w < a.Len(); w++ {
		if c := a.TEM.Count(w) + 1; c <= 500 && c > size {
			big, size = w, c
		}
	}
	tem, err := newTEM(a.TEM, 10, TEMOptions{Gamma: a.TEM.GammaMax()})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("TEM-lists/gamma=max/ball=largest<=500", func(b *testing.B) {
		b.ReportAllocs()
		b.ReportMetric(float64(size), "ball-size")
		for b.Loop() {
			if _, err := tem.Privatize(big, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, name := range []string{NameBRR, NameTEMHamming, Name1DG, Name1DT} {
		eps, _ := Preset(a, name, LevelBalanced)
		var m Mechanism
		switch name {
		case NameBRR:
			m, err = newBRR(x, eps)
		case NameTEMHamming:
			m, err = newTEMHamming(x, eps, TEMOptions{})
		case Name1DG:
			m, err = newDG(a.Lists, eps)
		case Name1DT:
			m, err = newDT(a.Lists, eps, TEMOptions{})
		}
		if err != nil {
			b.Fatal(err)
		}
		b.Run("balanced/"+name, func(b *testing.B) { benchPrivatize(b, m, src) })
	}
}

// BenchmarkBRRBatch is BRR per word on the default asset, one word at a
// time (a keyboard) and in runs (PrivatizeBatch: a text), at the balanced
// ε of the CLI's default (0.5333 per bit).
func BenchmarkBRRBatch(b *testing.B) {
	a := defaultAsset(b)
	m, err := newBRR(newIndex(b, a.Codes), 0.5333)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(39, 1))
	ws := make([]int32, 256)
	for i := range ws {
		ws[i] = int32(r.IntN(5000))
	}
	src := rand.NewChaCha8(stattest.Seed("bench-brr-batch"))
	b.Run("one-by-one", func(b *testing.B) {
		for b.Loop() {
			for _, w := range ws {
				if _, err := m.Privatize(int(w), src); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ws)), "ns/word")
	})
	run := make([]int32, len(ws))
	b.Run("batch", func(b *testing.B) {
		for b.Loop() {
			copy(run, ws)
			if err := m.PrivatizeBatch(run, src); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ws)), "ns/word")
	})
}
