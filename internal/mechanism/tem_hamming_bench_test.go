package mechanism_test

import (
	"testing"
	"time"

	"github.com/wordveil/wordveil/internal/mechanism"
	"github.com/wordveil/wordveil/internal/wva"
)

// BenchmarkTEMHammingPresets reports ns per word of TEM on Hamming codes at
// its three presets, side by side with BRR (one exact scan per word) and
// 1-DG at the balanced level, over the embedded default asset. Words cycle
// through the vocabulary with a stride so caches see varied inputs.
func BenchmarkTEMHammingPresets(b *testing.B) {
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, level string }{
		{mechanism.NameTEMHamming, mechanism.LevelStrong},
		{mechanism.NameTEMHamming, mechanism.LevelBalanced},
		{mechanism.NameTEMHamming, mechanism.LevelLight},
		{mechanism.NameBRR, mechanism.LevelBalanced},
		{mechanism.Name1DG, mechanism.LevelBalanced},
	}
	for _, c := range cases {
		eps, err := mechanism.Preset(a, c.name, c.level)
		if err != nil {
			b.Fatal(err)
		}
		m, err := mechanism.New(c.name, a, eps, mechanism.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/"+c.level, func(b *testing.B) { benchWords(b, m) })
	}
}

// BenchmarkFieldMechanisms reports ns per word, in one run, of every
// on-device mechanism at its balanced preset (TEM on Hamming codes at all
// three), the "+" variants at the balanced ε of their base mechanism (half
// the vocabulary sensitive, p = 0.3), and the default output vocabulary
// (the asset's exclusion list) applied to each.
func BenchmarkFieldMechanisms(b *testing.B) {
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	outs, err := mechanism.DefaultOutputs(a)
	if err != nil {
		b.Fatal(err)
	}
	type c struct{ name, level, preset string }
	cases := []c{
		{mechanism.NameBRR, mechanism.LevelBalanced, mechanism.NameBRR},
		{mechanism.Name1DG, mechanism.LevelBalanced, mechanism.Name1DG},
		{mechanism.Name1DT, mechanism.LevelBalanced, mechanism.Name1DT},
		{mechanism.NameTEMHamming, mechanism.LevelStrong, mechanism.NameTEMHamming},
		{mechanism.NameTEMHamming, mechanism.LevelBalanced, mechanism.NameTEMHamming},
		{mechanism.NameTEMHamming, mechanism.LevelLight, mechanism.NameTEMHamming},
		{mechanism.NameSanText, mechanism.LevelBalanced, mechanism.NameSanText},
		{mechanism.NameCusText, mechanism.LevelBalanced, mechanism.NameCusText},
	}
	for _, cs := range cases {
		eps, err := mechanism.Preset(a, cs.preset, cs.level)
		if err != nil {
			b.Fatal(err)
		}
		for _, restricted := range []bool{false, true} {
			opts := mechanism.Options{}
			label := cs.name + "/" + cs.level
			if restricted {
				opts.Outputs = outs
				label += "/outputs"
			}
			m, err := mechanism.New(cs.name, a, eps, opts)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(label, func(b *testing.B) { benchWords(b, m) })
		}
	}
}

// BenchmarkTEMHammingVsBRR measures the ratio the TEM-on-Hamming-codes
// budget is stated in: every iteration privatizes one word with BRR
// (balanced) and the same word with the mechanism under test, timing each,
// so both see the same machine load (on a shared machine, separate
// benchmarks minutes apart do not). It reports ns/word of each and
// "x-brr", their ratio over the whole run.
func BenchmarkTEMHammingVsBRR(b *testing.B) {
	a, err := wva.Default()
	if err != nil {
		b.Fatal(err)
	}
	build := func(name, level string) mechanism.Mechanism {
		eps, err := mechanism.Preset(a, name, level)
		if err != nil {
			b.Fatal(err)
		}
		m, err := mechanism.New(name, a, eps, mechanism.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	brr := build(mechanism.NameBRR, mechanism.LevelBalanced)
	cases := []struct{ name, level string }{
		{mechanism.NameTEMHamming, mechanism.LevelStrong},
		{mechanism.NameTEMHamming, mechanism.LevelBalanced},
		{mechanism.NameTEMHamming, mechanism.LevelLight},
		{mechanism.NameSanText, mechanism.LevelBalanced},
	}
	for _, c := range cases {
		m := build(c.name, c.level)
		b.Run(c.name+"/"+c.level, func(b *testing.B) {
			src := mechanism.NewSecureSource()
			var tBRR, tM time.Duration
			w := 0
			for b.Loop() {
				t0 := time.Now()
				if _, err := brr.Privatize(w, src); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := m.Privatize(w, src); err != nil {
					b.Fatal(err)
				}
				tBRR += t1.Sub(t0)
				tM += time.Since(t1)
				w = (w + 7919) % m.Len()
			}
			b.ReportMetric(float64(tBRR.Nanoseconds())/float64(b.N), "brr-ns/word")
			b.ReportMetric(float64(tM.Nanoseconds())/float64(b.N), "ns/word")
			b.ReportMetric(float64(tM)/float64(tBRR), "x-brr")
		})
	}
}

// benchWords privatizes one word per iteration, cycling through the
// vocabulary with a stride so caches see varied inputs.
func benchWords(b *testing.B, m mechanism.Mechanism) {
	src := mechanism.NewSecureSource()
	b.ReportAllocs()
	w := 0
	for b.Loop() {
		if _, err := m.Privatize(w, src); err != nil {
			b.Fatal(err)
		}
		w = (w + 7919) % m.Len()
	}
}
