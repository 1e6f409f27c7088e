package hamming

import (
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
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
		s, _ := NewScan(codes)
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
	s, _ := NewScan(codes)
	m, _ := NewMIH(codes)
	x, _ := NewIndex(codes)
	// The planner gets the same MIH tables as the "mih" row, so the two
	// rows differ only by planning, not by where the tables sit in memory.
	x.mihOnce.Do(func() { x.mih = m })
	return []benchStrategy{{"scan", s}, {"mih", m}, {"planner", x}}
}

// BenchmarkRange: every code within r of a database code, r = 0..48.
func BenchmarkRange(b *testing.B) {
	for _, name := range benchSets {
		codes := benchData()[name]
		qs := benchQueries(codes, 0)
		for _, st := range benchStrategies(b, codes) {
			for _, r := range []int{0, 8, 16, 32, 48} {
				b.Run(fmt.Sprintf("%s/r=%d/%s", name, r, st.name), func(b *testing.B) {
					buf := make([]Neighbor, 0, 1024)
					i := 0
					for b.Loop() {
						buf, _ = st.s.Range(buf, qs[i%len(qs)], r, Options{})
						i++
					}
				})
			}
		}
	}
}

// BenchmarkNN: exact 1-NN (all minimizers) of a database code with 5, 40 or
// 80 bits flipped.
func BenchmarkNN(b *testing.B) {
	for _, name := range benchSets {
		codes := benchData()[name]
		for _, st := range benchStrategies(b, codes) {
			for _, flips := range []int{5, 40, 80} {
				qs := benchQueries(codes, flips)
				b.Run(fmt.Sprintf("%s/flips=%d/%s", name, flips, st.name), func(b *testing.B) {
					buf := make([]Neighbor, 0, 64)
					i := 0
					for b.Loop() {
						buf, _ = st.s.KNN(buf, qs[i%len(qs)], 1, Options{})
						i++
					}
				})
			}
		}
	}
}
