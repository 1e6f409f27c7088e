package wva

// The embedded default asset (package assets) through this package's
// decoder: its shape, what decoding it keeps, and Default's sharing.

import (
	"math"
	"runtime"
	"testing"

	"github.com/wordveil/wordveil/assets"
)

// TestDefaultLoads: the embedded asset decodes, once, to the shape its
// README describes.
func TestDefaultLoads(t *testing.T) {
	a, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if a.Len() != 50000 || len(a.Codes) != 50000 || len(a.Lists) != 2 || a.TEM == nil {
		t.Fatalf("unexpected shape: %d words, %d codes, %d lists, TEM %v", a.Len(), len(a.Codes), len(a.Lists), a.TEM != nil)
	}
	if a.Header.Licence.SPDX != "PDDL-1.0" || a.Header.Licence.Notice == "" {
		t.Fatalf("licence missing: %+v", a.Header.Licence)
	}
	// Everyday and typed words, clitic pieces, numbers, chat forms.
	for _, w := range []string{"the", "privacy", "keyboard", "thousand", "a", "i", "n't", "'s", "'m", "ca", "5", "1990", "lol", "okay"} {
		if _, ok := a.Lookup(w); !ok {
			t.Errorf("%q not in the default vocabulary", w)
		}
	}
	if b, _ := Default(); b != a {
		t.Fatal("Default decoded twice")
	}
	// The TEM lists were cut to the pair budget: γ_max is what fits.
	if g := a.TEM.GammaMax(); g != a.Header.TEM.GammaMax || g < 3.5 || a.TEM.Pairs() > 600000 {
		t.Fatalf("gamma_max %v, %d pairs", g, a.TEM.Pairs())
	}
	if a.Header.Presets == nil || a.Header.Excluded == nil || len(a.Header.Excluded.IDs) < 100 || a.Header.Excluded.Licence != "MIT" {
		t.Fatal("the default asset lacks presets or its exclusion list")
	}
}

// BenchmarkLoadDefault measures decode + verify of the embedded asset and
// reports the Go heap the decoded asset keeps alive (heap-MiB: live heap
// after a GC with the asset held, minus before), for docs/BENCHMARKS.md.
func BenchmarkLoadDefault(b *testing.B) {
	for b.Loop() {
		if _, err := Decode(assets.DefaultBytes()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(retainedHeapMB(func() any {
		a, _ := Decode(assets.DefaultBytes())
		return a
	}), "heap-MiB")
}

// retainedHeapMB returns the live heap that the value f returns keeps.
func retainedHeapMB(f func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := f()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / (1 << 20)
}

// BenchmarkLoadDefaultInPlace is what a keyboard's first open decodes:
// the embedded asset in place, without its TEM lists (package core's
// slimDefault), and the heap that keeps.
func BenchmarkLoadDefaultInPlace(b *testing.B) {
	opt := DecodeOptions{InPlace: true, SkipTEM: true, SkipFloats: true}
	for b.Loop() {
		if _, err := DecodeWith(assets.DefaultBytes(), opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(retainedHeapMB(func() any {
		a, _ := DecodeWith(assets.DefaultBytes(), opt)
		return a
	}), "heap-MiB")
}

// TestDefaultHeapBudget guards the Go heap a decoded default asset keeps
// (copied: ≤ 12 MiB; in place without the TEM lists, as a keyboard opens
// it: ≤ 1 MiB, the lists' inverses and the stand-ins' block index). The
// file's sizes are package assets' TestSizeBudget; timing is a benchmark,
// not a test.
func TestDefaultHeapBudget(t *testing.T) {
	if mb := retainedHeapMB(func() any { a, _ := Decode(assets.DefaultBytes()); return a }); mb > 12 {
		t.Errorf("decoded asset keeps %.1f MiB of heap, budget 12 MiB", mb)
	}
	opt := DecodeOptions{InPlace: true, SkipTEM: true, SkipFloats: true}
	if mb := retainedHeapMB(func() any { a, _ := DecodeWith(assets.DefaultBytes(), opt); return a }); mb > 1 {
		t.Errorf("asset decoded in place keeps %.2f MiB of heap, budget 1 MiB", mb)
	}
}

// TestDecodeSkipTEM: a keyboard that never runs Euclidean TEM can skip the
// TEM lists' in-memory form; the section is still verified.
func TestDecodeSkipTEM(t *testing.T) {
	a, err := DecodeWith(assets.DefaultBytes(), DecodeOptions{SkipTEM: true})
	if err != nil || a.TEM != nil || a.Len() != 50000 || len(a.Lists) != 2 {
		t.Fatalf("skip TEM: %v, TEM %v", err, a != nil && a.TEM != nil)
	}
	in, err := Inspect(assets.DefaultBytes())
	if err != nil {
		t.Fatal(err)
	}
	var s SectionInfo
	for _, sec := range in.Sections {
		if sec.Kind.String() == "TEMLISTS" {
			s = sec
		}
	}
	if s.Stored == 0 {
		t.Fatal("no TEMLISTS section")
	}
	b := append([]byte(nil), assets.DefaultBytes()...)
	b[s.Offset+s.Stored/2] ^= 1
	if _, err := DecodeWith(b, DecodeOptions{SkipTEM: true}); err == nil {
		t.Fatal("a corrupt TEMLISTS section passed when skipped")
	}
	full := retainedHeapMB(func() any { a, _ := Decode(assets.DefaultBytes()); return a })
	slim := retainedHeapMB(func() any { a, _ := DecodeWith(assets.DefaultBytes(), DecodeOptions{SkipTEM: true}); return a })
	t.Logf("heap kept: %.1f MB full, %.1f MB without TEM lists", full, slim)
	if slim >= full {
		t.Fatalf("skipping TEM saved nothing: %.1f vs %.1f MB", slim, full)
	}
}

// TestStoredListsMean: the P_avg of the lists that the default asset
// stores is the one ListsMeanDistance computes from its lists, bit for
// bit (1-DG's and 1-DT's bills and ledger charges use the stored one).
func TestStoredListsMean(t *testing.T) {
	a, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	stored, ok := a.StoredListsMean()
	if !ok {
		t.Fatal("the default asset stores no P_avg of its lists")
	}
	if got := ListsMeanDistance(a.Lists); math.Float64bits(got) != math.Float64bits(stored) {
		t.Fatalf("stored P_avg %v, the lists' %v", stored, got)
	}
}
