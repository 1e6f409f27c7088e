package core

import (
	"sync"
	"testing"

	"github.com/wordveil/wordveil/hamming"
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
		brr, err := NewBRR(x, 0.7)
		add("BRR/eps=0.7", brr, err)
		dg, err := NewDiffractorGeometric(a.Lists, 0.05)
		add("1-DG/eps=0.05", dg, err)
		dt, err := NewDiffractorTEM(a.Lists, 0.05, TEMOptions{})
		add("1-DT/eps=0.05", dt, err)
		tem, err := NewTEM(a.TEM, 10, TEMOptions{})
		add("TEM-lists/eps=10", tem, err)
		th, err := NewTEMHamming(x, 1, TEMOptions{})
		add("TEM-hamming/eps=1", th, err)
	})
	if fullErr != nil {
		tb.Fatal(fullErr)
	}
	return fullMechs
}

// BenchmarkPrivatize reports ns per word on the default asset; the words
// cycle through the vocabulary with a stride so caches see varied inputs.
func BenchmarkPrivatize(b *testing.B) {
	for _, nm := range fullAssetMechanisms(b) {
		b.Run(nm.name, func(b *testing.B) {
			src := NewSeededSourceForEvaluation(testSeed("bench"))
			n := nm.m.Len()
			b.ReportAllocs()
			w := 0
			for b.Loop() {
				if _, err := nm.m.Privatize(w, src); err != nil {
					b.Fatal(err)
				}
				w = (w + 7919) % n
			}
		})
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
		src := NewSeededSourceForEvaluation(testSeed("allocs"))
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
