package wva

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// synthStandIns100k is the shape the default asset ships: 100,000
// stand-ins over the synthetic 50k-word vocabulary.
var synthStandIns100k = sync.OnceValues(func() (*StandIns, []string) {
	a, _ := synth50k()
	words, ids := genStandIns(rand.New(rand.NewPCG(100, 1)), a.WordList(), 100000)
	s, err := NewStandIns(a.Len(), words, ids)
	if err != nil {
		panic(err)
	}
	return s, words
})

func BenchmarkStandInLookup(b *testing.B) {
	s, words := synthStandIns100k()
	// 1,024 probes spread over the set, so lookups do not all hit one
	// cached block.
	r := rand.New(rand.NewPCG(7, 7))
	hits := make([]string, 1024)
	misses := make([]string, 1024)
	for i := range hits {
		w := words[r.IntN(len(words))]
		// Words carry '-' only before a number, so w+"-" is absent; it
		// sorts right after w, so the miss scans to w's position.
		hits[i], misses[i] = w, w+"-"
	}
	for _, bc := range []struct {
		name   string
		probes []string
		want   bool
	}{{"hit", hits, true}, {"miss", misses, false}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, ok := s.Lookup(bc.probes[i&1023]); ok != bc.want {
					b.Fatal("wrong result")
				}
				i++
			}
		})
	}
}

// BenchmarkDecode50kStandIns100k is BenchmarkDecode50k with 100,000
// stand-ins added: the cost the section adds to a load, and its size.
func BenchmarkDecode50kStandIns100k(b *testing.B) {
	base, _ := synth50k()
	s, _ := synthStandIns100k()
	a := &Asset{Header: base.Header, Codes: base.Codes, Lists: base.Lists, TEM: base.TEM, StandIns: s}
	a.words = base.words
	file, err := Marshal(a)
	if err != nil {
		b.Fatal(err)
	}
	in, err := Inspect(file)
	if err != nil {
		b.Fatal(err)
	}
	sec, _ := in.section(kindStandIns)
	benchDecode(b, file)
	b.ReportMetric(float64(sec.Stored)/1000, "standins-stored-KB")
	b.ReportMetric(float64(sec.Raw)/1000, "standins-raw-KB")
}
