package hamming

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// naiveHistogram is the histogram and running counts written from the
// definition, one Distance per code, sharing no code with fill.
func naiveHistogram(codes []Code, q Code) (count [Bits + 1]int32, cum [][Bits + 1]int32) {
	for i, c := range codes {
		count[Distance(q, c)]++
		if (i+1)%histChunk == 0 || i+1 == len(codes) {
			cum = append(cum, count)
		}
	}
	return count, cum
}

// checkAgainstNaive fills a histogram of codes from q with kernel k and
// compares counts and running counts with naiveHistogram; it reports the
// first difference, or "".
func checkAgainstNaive(h *Histogram, codes []Code, q Code, k int) string {
	h.fill(codes, q, k, nil, nil, Bits)
	count, cum := naiveHistogram(codes, q)
	if h.count != count {
		for d := range count {
			if h.count[d] != count[d] {
				return fmt.Sprintf("Count(%d) = %d, naive %d", d, h.count[d], count[d])
			}
		}
	}
	if len(h.cum) != len(cum) {
		return fmt.Sprintf("%d chunks, naive %d", len(h.cum), len(cum))
	}
	for c := range cum {
		if h.cum[c] != cum[c] {
			return fmt.Sprintf("running counts of chunk %d differ", c)
		}
	}
	// A distance is at most 256: the unused half of every row stays zero
	// (no kernel indexes past its row).
	for r := range h.sub {
		for d := Bits + 1; d < len(h.sub[r]); d++ {
			if h.sub[r][d] != 0 {
				return fmt.Sprintf("sub-histogram %d counted distance %d", r, d)
			}
		}
	}
	return ""
}

// TestHistogramOddSizes: for every kernel this CPU can run, on random and
// clustered code sets of sizes around 8 (the AVX-512 step), the block, the
// chunk and the counting pipeline's lag, the histogram and its running
// counts equal the naive ones. One Histogram is refilled throughout, so
// nothing may leak from one fill to the next. A negative control checks
// that the comparison sees a single code moved by one bit.
func TestHistogramOddSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	sizes := []int{0, 1, 3, 7, 8, 9, 15, 17, 127, 128, 129, 135, 255, 257,
		histChunk - 1, histChunk + 1, histChunk + 9, 2*histChunk + 131, 5*histChunk + 7}
	sets := map[string][]Code{
		"random":    randomCodes(r, 5*histChunk+7),
		"clustered": clusteredCodes(r, 5*histChunk+7),
	}
	var h Histogram
	for name, all := range sets {
		for _, n := range sizes {
			codes := all[:n]
			q := randomCodes(r, 1)[0]
			if n > 0 {
				q = codes[r.IntN(n)]
			}
			for _, k := range availableKernels() {
				if msg := checkAgainstNaive(&h, codes, q, k); msg != "" {
					t.Fatalf("%s n=%d kernel %s: %s", name, n, kernelNames[k], msg)
				}
			}
		}
	}
	// Negative control: the naive histogram of a set with one code changed
	// by one bit must differ from the fast one of the original set.
	codes := sets["random"][:histChunk+9]
	q := codes[3]
	for _, k := range availableKernels() {
		h.fill(codes, q, k, nil, nil, Bits)
		moved := append([]Code(nil), codes...)
		moved[histChunk+4] = moved[histChunk+4].xor(Code{1})
		if count, _ := naiveHistogram(moved, q); count == h.count {
			t.Fatalf("negative control, kernel %s: a moved code left the histogram unchanged", kernelNames[k])
		}
	}
	t.Logf("kernels %v, %d sizes", availableKernels(), len(sizes))
}

// TestHistogramKernelEdges: codes at distance 0 and 256 from the query
// (the ends of a row) and every length 0..300 at the kernel level, so the
// AVX-512 prologue, steady and epilogue loops each run alone and together.
func TestHistogramKernelEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	q := randomCodes(r, 1)[0]
	not := Code{^q[0], ^q[1], ^q[2], ^q[3]}
	codes := randomCodes(r, 300)
	for i := range codes {
		switch i % 5 {
		case 0:
			codes[i] = q
		case 1:
			codes[i] = not
		}
	}
	var h Histogram
	for n := 0; n <= len(codes); n++ {
		for _, k := range availableKernels() {
			if msg := checkAgainstNaive(&h, codes[:n], q, k); msg != "" {
				t.Fatalf("n=%d kernel %s: %s", n, kernelNames[k], msg)
			}
		}
	}
	if h.Count(0) == 0 || h.Count(Bits) == 0 {
		t.Fatalf("the edge codes are missing: Count(0)=%d Count(256)=%d", h.Count(0), h.Count(Bits))
	}
}

// FuzzHistogram: on any code set and query, every kernel's histogram and
// running counts equal the naive ones, and Select(d, d, j) finds a code at
// distance d.
func FuzzHistogram(f *testing.F) {
	f.Add([]byte{}, uint64(0), uint16(0))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint64(3), uint16(1))
	f.Add(make([]byte, 4*(histChunk+9)), uint64(7), uint16(histChunk+9))
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, extra uint16) {
		// 4 bytes per code, mixed into four words, then extra random
		// codes so that sizes past a chunk are reached from small inputs.
		var codes []Code
		for i := 0; i+4 <= len(data) && len(codes) < 3*histChunk; i += 4 {
			v := uint64(data[i]) | uint64(data[i+1])<<8 | uint64(data[i+2])<<16 | uint64(data[i+3])<<24
			codes = append(codes, Code{v * 0x9E3779B97F4A7C15, ^v, v << 32, v >> 3})
		}
		r := rand.New(rand.NewPCG(seed, 2))
		codes = append(codes, randomCodes(r, int(extra)%(2*histChunk+1))...)
		q := Code{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
		if len(codes) > 0 && seed%2 == 0 {
			q = codes[int(seed/2%uint64(len(codes)))]
		}
		var h Histogram
		for _, k := range availableKernels() {
			if msg := checkAgainstNaive(&h, codes, q, k); msg != "" {
				t.Fatalf("%d codes kernel %s: %s", len(codes), kernelNames[k], msg)
			}
		}
		for d := 0; d <= Bits; d++ {
			if n := h.Count(d); n > 0 {
				j := int(seed % uint64(n))
				id, err := h.Select(d, d, j)
				if err != nil || Distance(q, codes[id]) != d {
					t.Fatalf("Select(%d, %d, %d) = %d, %v", d, d, j, id, err)
				}
			}
		}
	})
}

// BenchmarkHistogramKernel: one histogram fill of 50k random codes with
// each kernel this CPU can run, per code (the active kernel is what
// BenchmarkHistogram measures).
func BenchmarkHistogramKernel(b *testing.B) {
	codes := benchData()["random/N=50k"]
	qs := benchQueries(codes, 0)
	var h Histogram
	for _, k := range availableKernels() {
		b.Run("kernel="+kernelNames[k], func(b *testing.B) {
			i := 0
			for b.Loop() {
				h.fill(codes, qs[i%len(qs)], k, nil, nil, Bits)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(codes)), "ns/code")
		})
	}
}
