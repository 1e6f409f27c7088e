package wordveil

import (
	"runtime"
	"testing"

	"github.com/wordveil/wordveil/internal/assets"
	"github.com/wordveil/wordveil/internal/wva"
)

// The keyboard footprint per open on the embedded asset (issue 26's
// acceptance; docs/BENCHMARKS.md, "Keyboard footprint per open"):
//
//	go test . -run '^$' -bench 'Open' -benchmem
//
// BenchmarkOpenFresh is a keyboard process's first open: the embedded bytes
// decoded anew (bypassing slimDefault, the process-wide cache) and composed
// by Open's own code (openWith). BenchmarkOpenWarm is a second open in the
// same process, the asset already decoded. Both report kept-MiB, the live
// heap one open keeps while its privatizer is alive (for the fresh open,
// the decoded asset included).

// footprintMechanisms are the mechanisms a keyboard uses on the embedded
// asset (TEM needs the TEM lists, which the slim asset leaves out).
var footprintMechanisms = []Mechanism{BRR, OneDG, OneDT}

// freshDefault decodes the embedded asset anew, as Open's first call in a
// process does, with the options Open uses for cfg.
func freshDefault(cfg *Config) (*wva.Asset, error) {
	return decode(assets.DefaultBytes(), decodeOptions(cfg))
}

func BenchmarkOpenFresh(b *testing.B) {
	for _, m := range footprintMechanisms {
		b.Run(string(m), func(b *testing.B) {
			benchmarkOpen(b, func() (*Privatizer, error) { return openWith(Config{Mechanism: m}, freshDefault) })
		})
	}
}

func BenchmarkOpenWarm(b *testing.B) {
	for _, m := range footprintMechanisms {
		b.Run(string(m), func(b *testing.B) {
			open := func() (*Privatizer, error) { return Open(Config{Mechanism: m}) }
			warm(b, open)
			benchmarkOpen(b, open)
		})
	}
}

// benchmarkOpen times open (each privatizer closed again) and reports the
// heap one privatizer keeps.
func benchmarkOpen(b *testing.B, open func() (*Privatizer, error)) {
	b.ReportAllocs()
	for b.Loop() {
		p, err := open()
		if err != nil {
			b.Fatal(err)
		}
		_ = p.Close()
	}
	b.ReportMetric(keptMiB(b, open), "kept-MiB")
}

// warm opens once, so that what a process shares between opens is built.
func warm(tb testing.TB, open func() (*Privatizer, error)) {
	tb.Helper()
	p, err := open()
	if err != nil {
		tb.Fatal(err)
	}
	_ = p.Close()
}

// keptMiB is the live heap after a GC with the privatizer open returns
// alive, minus before (the approach of internal/assets' heap-MiB).
func keptMiB(tb testing.TB, open func() (*Privatizer, error)) float64 {
	tb.Helper()
	before := settledHeap()
	p, err := open()
	if err != nil {
		tb.Fatal(err)
	}
	after := settledHeap()
	runtime.KeepAlive(p)
	_ = p.Close()
	return float64(int64(after)-int64(before)) / (1 << 20)
}

// settledHeap is the live heap once collections stop freeing anything: the
// state an asset shares (internal/mechanism's assetShared) is dropped by a
// cleanup that runs after the collection that found the asset dead, so one
// runtime.GC can leave a previous open's shared state to be freed during
// the measurement, which would make it negative.
func settledHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	for range 10 {
		last := ms.HeapAlloc
		runtime.Gosched() // let pending cleanups run
		runtime.GC()
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc >= last {
			break
		}
	}
	return ms.HeapAlloc
}
