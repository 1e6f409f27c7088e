package hamming

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"
)

// Benchmarks for docs/BENCHMARKS.md. Run them all in one go with
//
//	go test ./hamming/ -run '^$' -bench . -count 6 | tee bench.txt; benchstat bench.txt
//
// Databases are synthetic with a fixed seed: "random" (uniform bits) and
// "clustered" (groups of ~50 codes within 40 bits of a centre, 10% exact
// duplicates), which gives MIH the dense buckets real word codes give it.

var benchData = sync.OnceValue(func() map[string][]Code {
	r := rand.New(rand.NewPCG(42, 42))
	sets := map[string][]Code{
		"random/N=50k":     randomCodes(r, 50000),
		"random/N=200k":    randomCodes(r, 200000),
		"clustered/N=50k":  clusteredCodes(r, 50000),
		"clustered/N=200k": clusteredCodes(r, 200000),
	}
	// Real word codes, when given: WV_BENCH_CODES names a file of at least
	// 200k raw codes in frequency order (wordveil assets build -codes-out).
	if p := os.Getenv("WV_BENCH_CODES"); p != "" {
		raw, err := os.ReadFile(p)
		if err != nil {
			panic(err)
		}
		codes, err := DecodeCodes(raw)
		if err != nil || len(codes) < 200000 {
			panic(fmt.Sprintf("WV_BENCH_CODES=%s: %d codes, %v (want ≥ 200000)", p, len(codes), err))
		}
		sets["glove/N=50k"], sets["glove/N=200k"] = codes[:50000], codes[:200000]
	}
	return sets
})

var benchSets = func() []string {
	s := []string{"random/N=50k", "random/N=200k", "clustered/N=50k", "clustered/N=200k"}
	if os.Getenv("WV_BENCH_CODES") != "" {
		s = append(s, "glove/N=50k", "glove/N=200k")
	}
	return s
}()

func benchQueries(codes []Code, flips int) []Code {
	r := rand.New(rand.NewPCG(uint64(flips), 1))
	qs := make([]Code, 4096)
	for i := range qs {
		qs[i] = flip(r, codes[r.IntN(len(codes))], flips)
	}
	return qs
}

// BenchmarkScan: one exact 1-NN scan (random ties) of a far query, reported
// per code.
func BenchmarkScan(b *testing.B) {
	for _, name := range benchSets {
		codes := benchData()[name]
		s, _ := newScan(codes)
		qs := benchQueries(codes, 96)
		rng := rand.NewChaCha8([32]byte{})
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				s.Nearest(qs[i%len(qs)], Options{Ties: TiesRandom, Rand: rng})
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
		})
	}
}

type benchStrategy struct {
	name string
	s    searcher
}

func benchStrategies(b *testing.B, codes []Code) []benchStrategy {
	s, _ := newScan(codes)
	m, _ := newMIH(codes)
	x, _ := NewIndex(codes)
	// The planner gets the same MIH tables as the "mih" row, so the two
	// differ only by planning, not by where the tables sit in memory.
	x.tables.once.Do(func() { x.tables.m = m })
	return []benchStrategy{{"scan", s}, {"mih", m}, {"planner", x}}
}

// interleaved times MIH and the planner in alternating batches of 64
// queries, so both see the same machine state (cache, frequency, noise from
// other work), which sequential sub-benchmarks do not: on these
// memory-bound microsecond queries that noise is ±30%. The two take
// disjoint halves of the query set, so neither warms the other's buckets.
// It reports each one's ns per query and planner ÷ min(scan, mih), where
// scanNs comes from the scan's own row (bandwidth-bound and stable).
func interleaved(b *testing.B, qs []Code, scanNs float64, mih, planner func(Code)) {
	const batch = 64
	var el [2]time.Duration
	fns := [2]func(Code){mih, planner}
	n := 0
	for b.Loop() {
		for s, f := range fns {
			off := n*batch + s*len(qs)/2
			t0 := time.Now()
			for j := 0; j < batch; j++ {
				f(qs[(off+j)%len(qs)])
			}
			el[s] += time.Since(t0)
		}
		n++
	}
	m := float64(el[0].Nanoseconds()) / float64(n*batch)
	p := float64(el[1].Nanoseconds()) / float64(n*batch)
	b.ReportMetric(m, "mih-ns/query")
	b.ReportMetric(p, "planner-ns/query")
	b.ReportMetric(p/min(m, scanNs), "planner/best")
	b.ReportMetric(scanNs/m, "scan/mih")
}

// scanTime measures the scan's mean time per query over qs, in ns.
func scanTime(f func(Code), qs []Code) float64 {
	t0 := time.Now()
	for _, q := range qs[:512] {
		f(q)
	}
	return float64(time.Since(t0).Nanoseconds()) / 512
}

// BenchmarkRange: every code within r of a database code, r = 0..48. The
// scan and mih rows are ns/op, each strategy alone (as a device running only
// that kind of query sees it); the mih+planner row times the two
// interleaved, for the planner's ratio to the better strategy.
func BenchmarkRange(b *testing.B) {
	for _, name := range benchSets {
		codes := benchData()[name]
		qs := benchQueries(codes, 0)
		st := benchStrategies(b, codes)
		buf := make([]Neighbor, 0, 1024)
		for _, r := range []int{0, 8, 16, 32, 48} {
			scan := func(q Code) { buf, _ = st[0].s.Range(buf, q, r, Options{}) }
			b.Run(fmt.Sprintf("%s/r=%d/scan", name, r), func(b *testing.B) {
				i := 0
				for b.Loop() {
					scan(qs[i%len(qs)])
					i++
				}
			})
			b.Run(fmt.Sprintf("%s/r=%d/mih", name, r), func(b *testing.B) {
				i := 0
				for b.Loop() {
					buf, _ = st[1].s.Range(buf, qs[i%len(qs)], r, Options{})
					i++
				}
			})
			b.Run(fmt.Sprintf("%s/r=%d/mih+planner", name, r), func(b *testing.B) {
				interleaved(b, qs, scanTime(scan, qs),
					func(q Code) { buf, _ = st[1].s.Range(buf, q, r, Options{}) },
					func(q Code) { buf, _ = st[2].s.Range(buf, q, r, Options{}) })
			})
		}
	}
}

// BenchmarkNN: exact 1-NN (all minimizers) of a database code with 5, 40 or
// 80 bits flipped.
func BenchmarkNN(b *testing.B) {
	for _, name := range benchSets {
		codes := benchData()[name]
		st := benchStrategies(b, codes)
		buf := make([]Neighbor, 0, 64)
		for _, flips := range []int{5, 40, 80} {
			qs := benchQueries(codes, flips)
			scan := func(q Code) { buf, _ = st[0].s.KNN(buf, q, 1, Options{}) }
			b.Run(fmt.Sprintf("%s/flips=%d/scan", name, flips), func(b *testing.B) {
				i := 0
				for b.Loop() {
					scan(qs[i%len(qs)])
					i++
				}
			})
			b.Run(fmt.Sprintf("%s/flips=%d/mih", name, flips), func(b *testing.B) {
				i := 0
				for b.Loop() {
					buf, _ = st[1].s.KNN(buf, qs[i%len(qs)], 1, Options{})
					i++
				}
			})
			b.Run(fmt.Sprintf("%s/flips=%d/mih+planner", name, flips), func(b *testing.B) {
				interleaved(b, qs, scanTime(scan, qs),
					func(q Code) { buf, _ = st[1].s.KNN(buf, q, 1, Options{}) },
					func(q Code) { buf, _ = st[2].s.KNN(buf, q, 1, Options{}) })
			})
		}
	}
}
