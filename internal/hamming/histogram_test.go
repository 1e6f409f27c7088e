package hamming

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// histCase is one database and query for the histogram tests.
type histCase struct {
	name  string
	codes []Code
	q     Code
}

// histCases are random codes and adversarial shapes: every code equal to
// the query (one full bucket), every code at the same far distance, one
// code at each distance 0..256 (all buckets distinct, the maximum 256
// included), clustered codes, and sizes around the block and chunk edges.
func histCases() []histCase {
	r := rand.New(rand.NewPCG(7, 7))
	ones := Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	q := randomCodes(r, 1)[0]
	var cases []histCase
	for _, n := range []int{0, 1, blockSize - 1, blockSize, histChunk, histChunk + 1, 3*histChunk + 13} {
		cases = append(cases, histCase{fmt.Sprintf("random/n=%d", n), randomCodes(r, n), q})
	}
	equal := make([]Code, 2*histChunk+5)
	for i := range equal {
		equal[i] = q
	}
	cases = append(cases, histCase{"all-equal", equal, q})
	far := make([]Code, histChunk+7)
	for i := range far {
		far[i] = ones
	}
	cases = append(cases, histCase{"all-at-256", far, Code{}})
	// Code i has its low i bits set: distance i from the zero query. Repeated
	// in reverse so every distance occurs exactly twice, in two chunks.
	var each []Code
	for d := 0; d <= Bits; d++ {
		var c Code
		for b := range d {
			c = c.SetBit(b, true)
		}
		each = append(each, c)
	}
	for i := Bits; i >= 0; i-- {
		each = append(each, each[i])
	}
	cases = append(cases, histCase{"each-distance-twice", each, Code{}})
	clustered := clusteredCodes(r, 5*histChunk)
	cases = append(cases, histCase{"clustered", clustered, clustered[17]})
	return cases
}

// bruteIDs lists, by distance, the ids of the codes at that distance from q
// in id order.
func bruteIDs(codes []Code, q Code) [Bits + 1][]int {
	var ids [Bits + 1][]int
	for i, c := range codes {
		d := Distance(q, c)
		ids[d] = append(ids[d], i)
	}
	return ids
}

// TestHistogramMatchesBruteForce: Count equals the brute-force count at
// every distance, and Select(d, d, j) is the brute-force j-th id at d for
// every j, with ErrNoResult one past the end.
func TestHistogramMatchesBruteForce(t *testing.T) {
	var h *Histogram
	for _, c := range histCases() {
		t.Run(c.name, func(t *testing.T) {
			s, err := newScan(c.codes)
			if err != nil {
				t.Fatal(err)
			}
			h = s.Histogram(h, c.q) // reused across cases: refills must not leak
			if h.Len() != len(c.codes) {
				t.Fatalf("Len = %d, want %d", h.Len(), len(c.codes))
			}
			want := bruteIDs(c.codes, c.q)
			for d := 0; d <= Bits; d++ {
				if got := h.Count(d); got != len(want[d]) {
					t.Fatalf("Count(%d) = %d, brute force %d", d, got, len(want[d]))
				}
				for j, id := range want[d] {
					got, err := h.Select(d, d, j)
					if err != nil || got != id {
						t.Fatalf("Select(%d, %d, %d) = %d, %v; want %d", d, d, j, got, err, id)
					}
				}
				if got, err := h.Select(d, d, len(want[d])); !errors.Is(err, ErrNoResult) {
					t.Fatalf("Select(%d, %d, %d) past the end = %d, %v", d, d, len(want[d]), got, err)
				}
			}
		})
	}
}

// TestHistogramSelectRange: Select over a distance range is the j-th id in
// id order among all codes whose distance lies in the range.
func TestHistogramSelectRange(t *testing.T) {
	for _, c := range histCases() {
		h := (&scan{codes: c.codes}).Histogram(nil, c.q)
		for _, rg := range [][2]int{{0, Bits}, {100, 130}, {129, Bits}, {-5, 3}, {250, 999}} {
			var want []int
			for i, code := range c.codes {
				if d := Distance(c.q, code); d >= rg[0] && d <= rg[1] {
					want = append(want, i)
				}
			}
			for j := 0; j <= len(want); j += max(1, len(want)/37) {
				got, err := h.Select(rg[0], rg[1], j)
				if j == len(want) {
					if !errors.Is(err, ErrNoResult) {
						t.Fatalf("%s %v j=%d past the end: %d, %v", c.name, rg, j, got, err)
					}
					continue
				}
				if err != nil || got != want[j] {
					t.Fatalf("%s %v j=%d: %d, %v; want %d", c.name, rg, j, got, err, want[j])
				}
			}
		}
	}
}

// TestHistogramKernelsAgree: the histogram built with every kernel this CPU
// can run equals the one built by the portable kernel, running counts
// included. A negative control checks that the comparison sees a change.
func TestHistogramKernelsAgree(t *testing.T) {
	for _, c := range histCases() {
		var want Histogram
		want.fill(c.codes, c.q, kernelGeneric, nil, nil, Bits)
		for _, k := range availableKernels() {
			var got Histogram
			got.fill(c.codes, c.q, k, nil, nil, Bits)
			if got.count != want.count {
				t.Fatalf("%s kernel %s: counts differ from generic", c.name, kernelNames[k])
			}
			if len(got.cum) != len(want.cum) {
				t.Fatalf("%s kernel %s: %d chunks, generic %d", c.name, kernelNames[k], len(got.cum), len(want.cum))
			}
			for i := range got.cum {
				if got.cum[i] != want.cum[i] {
					t.Fatalf("%s kernel %s: chunk %d differs from generic", c.name, kernelNames[k], i)
				}
			}
		}
		if len(c.codes) > 0 {
			var other Histogram
			other.fill(c.codes, c.q.xor(Code{1}), kernelGeneric, nil, nil, Bits)
			if other.count == want.count {
				// Flipping one query bit moves every code by one, so
				// the histogram must change (the highest non-empty
				// distance cannot stay the same).
				t.Fatalf("%s: negative control: a different query gave the same histogram", c.name)
			}
		}
	}
	t.Logf("active kernel: %s; tested %v", Kernel(), availableKernels())
}

// TestHistogramSkipKernelsAgree: with skipped ids (every third, and a run
// longer than a kernel block), every kernel's histogram, running counts
// included, equals the generic kernel's over a copy of the codes left,
// chunk for chunk in the codes' positions.
func TestHistogramSkipKernelsAgree(t *testing.T) {
	for _, c := range histCases() {
		var skip []int32
		for i := range c.codes {
			if i%3 == 0 || i >= 700 && i < 1100 {
				skip = append(skip, int32(i))
			}
		}
		for _, k := range availableKernels() {
			var got Histogram
			got.fill(c.codes, c.q, k, skip, skippedCodes(c.codes, skip), Bits)
			var want [Bits + 1]int32
			s := skip
			for i, code := range c.codes {
				if len(s) > 0 && int(s[0]) == i {
					s = s[1:]
				} else {
					want[Distance(c.q, code)]++
				}
				if (i+1)%histChunk == 0 || i+1 == len(c.codes) {
					if got.cum[i/histChunk] != want {
						t.Fatalf("%s kernel %s: chunk %d differs from a count of the codes left", c.name, kernelNames[k], i/histChunk)
					}
				}
			}
			if got.count != want || got.Len() != len(c.codes)-len(skip) {
				t.Fatalf("%s kernel %s: counts differ from a count of the codes left", c.name, kernelNames[k])
			}
		}
	}
}

// TestHistogramZeroAndNil: the zero Histogram and a nil one are empty and
// never panic; Scan.Histogram(nil, q) allocates one.
func TestHistogramZeroAndNil(t *testing.T) {
	var zero Histogram
	var null *Histogram
	for name, h := range map[string]*Histogram{"zero": &zero, "nil": null} {
		if h.Len() != 0 || h.Count(0) != 0 || h.Count(-1) != 0 || h.Count(Bits+1) != 0 {
			t.Errorf("%s: not empty", name)
		}
		if _, err := h.Select(0, Bits, 0); !errors.Is(err, ErrNoResult) {
			t.Errorf("%s: Select: %v", name, err)
		}
	}
	s, _ := newScan(nil)
	if h := s.Histogram(nil, Code{}); h == nil || h.Len() != 0 {
		t.Fatal("Histogram(nil) over no codes")
	}
	s, _ = newScan(randomCodes(rand.New(rand.NewPCG(1, 1)), 10))
	h := s.Histogram(nil, Code{})
	for _, args := range [][3]int{{0, Bits, -1}, {5, 4, 0}, {300, 400, 0}} {
		if _, err := h.Select(args[0], args[1], args[2]); !errors.Is(err, ErrNoResult) {
			t.Errorf("Select%v: %v", args, err)
		}
	}
}

// TestHistogramNoAllocs: refilling a histogram and selecting from it do not
// allocate.
func TestHistogramNoAllocs(t *testing.T) {
	codes := randomCodes(rand.New(rand.NewPCG(3, 3)), 3*histChunk+1)
	x, _ := NewIndex(codes)
	h := x.Histogram(nil, codes[0])
	i := 0
	allocs := testing.AllocsPerRun(20, func() {
		q := codes[i%len(codes)]
		i++
		h = x.Histogram(h, q)
		if _, err := h.Select(0, Bits, len(codes)/2); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per histogram", allocs)
	}
}

// TestRangeCanBeatScan: small radii on a large database may use MIH, the
// whole code length never, and a small database never does.
func TestRangeCanBeatScan(t *testing.T) {
	big, _ := NewIndex(randomCodes(rand.New(rand.NewPCG(4, 4)), 50000))
	small, _ := NewIndex(randomCodes(rand.New(rand.NewPCG(4, 4)), 100))
	for _, c := range []struct {
		x    *Index
		r    int
		want bool
	}{{big, 0, true}, {big, 8, true}, {big, Bits, false}, {big, -1, false}, {small, 0, false}} {
		if got := c.x.RangeCanBeatScan(c.r); got != c.want {
			t.Errorf("N=%d r=%d: %v, want %v", c.x.Len(), c.r, got, c.want)
		}
	}
}

// BenchmarkHistogram: one histogram scan and one Select of a uniform
// element of the most populated distance, next to one 1-NN scan
// (BenchmarkScan's kind) of the same query, per code.
func BenchmarkHistogram(b *testing.B) {
	for _, name := range benchSets {
		codes := benchData()[name]
		s, _ := newScan(codes)
		qs := benchQueries(codes, 0)
		rng := rand.New(rand.NewChaCha8([32]byte{}))
		perCode := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
		}
		b.Run(name+"/nearest", func(b *testing.B) {
			i := 0
			for b.Loop() {
				s.Nearest(qs[i%len(qs)], Options{Ties: TiesRandom, Rand: rng})
				i++
			}
			perCode(b)
		})
		h := s.Histogram(nil, qs[0])
		b.Run(name+"/histogram", func(b *testing.B) {
			i := 0
			for b.Loop() {
				s.Histogram(h, qs[i%len(qs)])
				i++
			}
			perCode(b)
		})
		b.Run(name+"/histogram+select", func(b *testing.B) {
			i := 0
			for b.Loop() {
				s.Histogram(h, qs[i%len(qs)])
				mode := 0
				for d := range Bits + 1 {
					if h.Count(d) > h.Count(mode) {
						mode = d
					}
				}
				if _, err := h.Select(mode, mode, rng.IntN(h.Count(mode))); err != nil {
					b.Fatal(err)
				}
				i++
			}
			perCode(b)
		})
	}
}
