package hamming

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// kernelsOf returns the batch kernels of kernel k.
func kernelsOf(k int) batchKernels {
	return batchKernels{
		multi: func(qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
			return distMultiWith(k, qs, codes, thr, marks, ms)
		},
		row: func(q *Code, codes []Code, out []uint16) int { return distBlockWith(k, q, codes, out) },
	}
}

// kernelsPre returns the batch kernels of kernel k given each block
// transposed beforehand (transposeCodes, as an index keeps it for bulk
// searches), where this CPU has such a layout.
func kernelsPre(k int) batchKernels {
	ks := kernelsOf(k)
	ks.multi = func(qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
		ms.setPre(transposeCodes(codes))
		return distMultiWith(k, qs, codes, thr, marks, ms)
	}
	return ks
}

// offByOne is a deliberately broken pair of kernels: right everywhere
// except that code 5 of every block is one bit farther than it is. The
// exactness tests must catch it (the negative controls).
var offByOne = batchKernels{
	multi: func(qs []Code, codes []Code, thr []int, marks []blockMarks, ms *multiScratch) uint64 {
		return marksByRow(offByOneRow, qs, codes, thr, marks, make([]uint16, len(codes)))
	},
	row: offByOneRow,
}

func offByOneRow(q *Code, codes []Code, out []uint16) int {
	distBlockGeneric(q, codes, out)
	if len(codes) > 5 {
		out[5]++
	}
	return minDist(out[:len(codes)])
}

// checkMulti compares the multi-query kernel of ks with the portable one
// on codes for queries qs, with each query's threshold at, below and
// above its minimum distance, at 0, and above Bits (no threshold yet):
// the hits, every hit's marks, and nothing written past them.
func checkMulti(ks batchKernels, qs, codes []Code) error {
	nq := len(qs)
	mins := make([]int, nq)
	for j := range qs {
		mins[j] = noDistance
		for _, c := range codes {
			mins[j] = min(mins[j], Distance(qs[j], c))
		}
	}
	for _, delta := range []int{0, -1, 1, 5, -noDistance, noDistance} {
		thr := make([]int, nq+1)
		for j := range qs {
			thr[j] = min(max(mins[j]+delta, 0), noDistance)
		}
		want := make([]blockMarks, nq)
		wantHits := distMultiGeneric(qs, codes, thr, want)
		got := make([]blockMarks, nq+1)
		for j := range got {
			got[j] = blockMarks{1, 2, 3, 4} // stale marks, to be overwritten
		}
		var ms multiScratch
		hits := ks.multi(qs, codes, thr[:nq], got[:nq], &ms)
		if hits != wantHits {
			return fmt.Errorf("n=%d, %d queries, thresholds %v: hits %b, want %b", len(codes), nq, thr[:nq], hits, wantHits)
		}
		for j := range qs {
			if hits>>j&1 == 1 && got[j] != want[j] {
				return fmt.Errorf("n=%d query %d threshold %d: marks %x, want %x", len(codes), j, thr[j], got[j], want[j])
			}
		}
		if got[nq] != (blockMarks{1, 2, 3, 4}) {
			return fmt.Errorf("n=%d, %d queries: wrote past the end", len(codes), nq)
		}
	}
	return nil
}

// TestMultiKernelsAgree checks every multi-query kernel this CPU can run
// (also reading blocks transposed beforehand) against the portable one, for every block length up to blockSize
// (unrolled groups of 8 and their tails) and batch sizes up to MaxBatch,
// on extreme codes too (distance 0 and 256).
func TestMultiKernelsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ones := Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	codes := randomCodes(r, blockSize)
	codes[3], codes[9], codes[200] = Code{}, ones, ones
	qs := randomCodes(r, MaxBatch)
	qs[0], qs[1], qs[2] = Code{}, ones, codes[77]
	for _, k := range availableKernels() {
		for _, nq := range []int{1, 2, 3, 7, MaxBatch} {
			for n := 0; n <= blockSize; n++ {
				if n > 40 && n%13 != 0 && n != blockSize {
					continue
				}
				if err := checkMulti(kernelsOf(k), qs[:nq], codes[:n]); err != nil {
					t.Fatalf("kernel %s: %v", kernelNames[k], err)
				}
				if err := checkMulti(kernelsPre(k), qs[:nq], codes[:n]); err != nil {
					t.Fatalf("kernel %s, block transposed beforehand: %v", kernelNames[k], err)
				}
			}
		}
	}
	// Negative control: the same check catches an off-by-one kernel
	// (query 2 is codes[77], so code 77 of a block at 72 is its code 5).
	if err := checkMulti(offByOne, qs[:3], codes[72:]); err == nil {
		t.Fatal("checkMulti passed an off-by-one kernel")
	}
	t.Logf("active kernel: %s; tested %v", Kernel(), availableKernels())
}

// batchCase is a database and queries for NearestBatch.
type batchCase struct {
	name    string
	codes   []Code
	queries []Code
}

// batchCases are random codes with far queries (BRR's case), clustered
// codes with near queries and duplicates, and planted ties: minimizers
// spread over several blocks, some in a last partial block, with
// transient ties at distances later beaten.
func batchCases(r *rand.Rand) []batchCase {
	random := randomCodes(r, 3*blockSize+77)
	clustered := clusteredCodes(r, 4000)
	tied := make([]Code, 5*blockSize+3)
	for i := range tied {
		tied[i] = flip(r, Code{}, 30+r.IntN(20))
	}
	for _, id := range []int{0, 1, 300, 301, 900, 1200, len(tied) - 1} {
		tied[id] = flip(r, Code{}, 12) // the minimizers of Code{}
	}
	for _, id := range []int{2, 3, 4, 5} {
		tied[id] = flip(r, Code{}, 20) // tied first, beaten later
	}
	tq := []Code{{}, {}, flip(r, Code{}, 1), {}}
	return []batchCase{
		{"random", random, randomCodes(r, 70)},
		{"clustered", clustered, queriesFor(r, clustered, 45)},
		{"tied", tied, append(tq, randomCodes(r, 40)...)},
		{"one code", random[:1], randomCodes(r, 3)},
		{"short", random[:13], randomCodes(r, 33)},
	}
}

// checkBatch checks res against brute force: one answer per query, at the
// minimum distance, a minimizer, the lowest id with TiesAll.
func checkBatch(codes, qs []Code, res []Neighbor, ties Ties) error {
	if len(res) != len(qs) {
		return fmt.Errorf("%d answers for %d queries", len(res), len(qs))
	}
	for j, q := range qs {
		ref := bruteKNN(codes, q, 1, nil)
		if res[j].Dist != ref[0].Dist || !slices.Contains(ref, res[j]) {
			return fmt.Errorf("query %d: %v, minimizers %v", j, res[j], head(ref))
		}
		if ties == TiesAll && res[j] != ref[0] {
			return fmt.Errorf("query %d TiesAll: %v, want the lowest id %v", j, res[j], ref[0])
		}
	}
	return nil
}

// TestNearestBatchMatchesBruteForce runs the batch search with every
// kernel this CPU can run (forced, with and without the codes transposed
// beforehand), and through Index, against brute force; and the same check with an off-by-one kernel must fail.
func TestNearestBatchMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, c := range batchCases(r) {
		s, _ := newScan(c.codes)
		for _, ties := range []Ties{TiesAll, TiesRandom} {
			opt := Options{Ties: ties, Rand: r}
			for _, k := range availableKernels() {
				var sc batchScratch
				var res []Neighbor
				for _, tcodes := range [][]uint64{nil, transposeCodes(c.codes)} {
					res = res[:0]
					for qs := c.queries; len(qs) > 0; qs = qs[min(len(qs), MaxBatch):] {
						var err error
						res, err = s.nearestBatch(res, qs[:min(len(qs), MaxBatch)], &opt, &sc, kernelsOf(k), tcodes)
						if err != nil {
							t.Fatal(err)
						}
					}
					if err := checkBatch(c.codes, c.queries, res, ties); err != nil {
						t.Fatalf("%s kernel %s, transposed codes %t: %v", c.name, kernelNames[k], tcodes != nil, err)
					}
				}
			}
			x, _ := NewIndex(c.codes)
			res, err := x.NearestBatch(nil, c.queries, opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkBatch(c.codes, c.queries, res, ties); err != nil {
				t.Fatalf("%s Index.NearestBatch: %v", c.name, err)
			}
		}
	}
	// Negative control: the off-by-one kernels make code 5 of a block
	// look farther, so a query at code 5 itself, tied with its copy at
	// code 6, gets code 6: a minimizer, but not the lowest-id one TiesAll
	// must return (the search recomputes a marked code's distance, so
	// only a minimizer left unmarked is an error it can make).
	codes := randomCodes(r, blockSize)
	codes[6] = codes[5]
	s, _ := newScan(codes)
	var sc batchScratch
	qs := []Code{codes[5], codes[7]}
	res, err := s.nearestBatch(nil, qs, &Options{}, &sc, offByOne, nil)
	if err != nil {
		t.Fatal(err)
	}
	if checkBatch(codes, qs, res, TiesAll) == nil {
		t.Fatal("the brute-force check passed an off-by-one kernel")
	}
}

// TestNearestBatchWithout checks that a batch over an index made by
// Without draws exactly what a batch over a copy of the codes left does
// (same seed, same answers, ids mapped), and matches brute force.
func TestNearestBatchWithout(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	codes := tieCodes(r, 3*blockSize+50)
	qs := queriesFor(r, codes, 50)
	for name, skip := range skipSets(r, len(codes)) {
		ref := newCopyIndex(t, codes, skip)
		x, _ := NewIndex(codes)
		y, err := x.Without(skip)
		if err != nil {
			t.Fatal(err)
		}
		for _, ties := range []Ties{TiesAll, TiesRandom} {
			got, err1 := y.NearestBatch(nil, qs, Options{Ties: ties, Rand: rand.NewPCG(1, 2)})
			want, err2 := ref.x.NearestBatch(nil, qs, Options{Ties: ties, Rand: rand.NewPCG(1, 2)})
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("%s: errors %v and %v", name, err1, err2)
			}
			if err1 != nil {
				if !errors.Is(err1, ErrNoResult) {
					t.Fatalf("%s: %v", name, err1)
				}
				continue
			}
			if w := ref.word(want); !slices.Equal(got, w) {
				t.Fatalf("%s ties=%d: without %v, copy %v", name, ties, head(got), head(w))
			}
		}
	}
}

// TestNearestBatchTiesUniform draws, in batches, the nearest code among 8
// tied minimizers spread over several blocks (and a transient tie in the
// first) and checks uniformity with a chi-square test (7 degrees of
// freedom, critical value 24.32 at a false-failure rate of 0.001).
func TestNearestBatchTiesUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	codes := make([]Code, 5000)
	for i := range codes {
		codes[i] = flip(r, Code{}, 20+r.IntN(30))
	}
	codes[0], codes[1] = flip(r, Code{}, 15), flip(r, Code{}, 15)
	tied := []int{3, 4, 700, 1500, 2600, 3000, 4001, 4999}
	for _, id := range tied {
		codes[id] = flip(r, Code{}, 10)
	}
	x, _ := NewIndex(codes)
	qs := make([]Code, 40) // all Code{}: independent draws within a batch too
	const rounds = 1000
	counts := map[int32]int{}
	var res []Neighbor
	for range rounds {
		var err error
		if res, err = x.NearestBatch(res, qs, Options{Ties: TiesRandom, Rand: r}); err != nil {
			t.Fatal(err)
		}
		for _, n := range res {
			counts[n.ID]++
		}
	}
	chi, exp := 0.0, float64(rounds*len(qs))/float64(len(tied))
	for _, id := range tied {
		o := float64(counts[int32(id)])
		chi += (o - exp) * (o - exp) / exp
	}
	if len(counts) != len(tied) || chi > 24.32 {
		t.Fatalf("tie-breaking not uniform: counts %v, chi2 = %.1f", counts, chi)
	}
}

func TestNearestBatchErrors(t *testing.T) {
	x, _ := NewIndex(randomCodes(rand.New(rand.NewPCG(1, 1)), 10))
	if _, err := x.NearestBatch(nil, []Code{{}}, Options{Ties: TiesRandom}); !errors.Is(err, ErrNoRand) {
		t.Errorf("TiesRandom without Rand: %v", err)
	}
	if res, err := x.NearestBatch(nil, nil, Options{}); err != nil || len(res) != 0 {
		t.Errorf("no queries: %v, %v", res, err)
	}
	empty, _ := NewIndex(nil)
	if _, err := empty.NearestBatch(nil, []Code{{}}, Options{}); !errors.Is(err, ErrNoResult) {
		t.Errorf("empty index: %v", err)
	}
}

// TestNearestBatchAllocs: in the steady state (the codes kept transposed,
// where this CPU does) a batch allocates nothing.
func TestNearestBatchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts do not hold under the race detector (sync.Pool drops items on purpose)")
	}
	r := rand.New(rand.NewPCG(19, 20))
	x, _ := NewIndex(randomCodes(r, 2000))
	qs := randomCodes(r, 2*MaxBatch+5)
	res := make([]Neighbor, 0, len(qs))
	opt := Options{Ties: TiesRandom, Rand: r, ExpectedRadius: 100}
	for range transposeAfter {
		res, _ = x.NearestBatch(res, qs, opt) // past the one-time transposed copy (transposed.go)
	}
	if a := testing.AllocsPerRun(20, func() { res, _ = x.NearestBatch(res, qs, opt) }); a > 0 {
		t.Fatalf("NearestBatch allocates %.1f times per call", a)
	}
}

// FuzzMultiKernel compares every multi-query kernel with the portable one
// on codes and queries made from the fuzzer's bytes.
func FuzzMultiKernel(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(3), uint64(1))
	f.Add(make([]byte, 4*300), uint8(32), uint64(2))
	f.Fuzz(func(t *testing.T, data []byte, nq uint8, seed uint64) {
		codes := fuzzCodes(data)
		codes = codes[:min(len(codes), blockSize)]
		r := rand.New(rand.NewPCG(seed, 3))
		qs := randomCodes(r, int(nq)%MaxBatch+1)
		if len(codes) > 0 {
			qs[0] = codes[int(seed%uint64(len(codes)))]
		}
		for _, k := range availableKernels() {
			if err := checkMulti(kernelsOf(k), qs, codes); err != nil {
				t.Fatalf("kernel %s: %v", kernelNames[k], err)
			}
			if err := checkMulti(kernelsPre(k), qs, codes); err != nil {
				t.Fatalf("kernel %s, block transposed beforehand: %v", kernelNames[k], err)
			}
		}
	})
}

// TestNearestBatchTransposed: once an index keeps its codes transposed
// (after transposeAfter full passes; here at once), a batch gives the same
// answers, ties drawn alike, as one that transposes each block as it goes
// (same seeds), on the index and on one Without derives from it, and
// matches brute force; the copy exists exactly when this CPU's kernel
// reads it, and is shared with the derived index. The negative control:
// a wrong copy is caught.
func TestNearestBatchTransposed(t *testing.T) {
	defer func(n int64) { transposeAfter = n }(transposeAfter)
	r := rand.New(rand.NewPCG(23, 24))
	codes := tieCodes(r, 3*blockSize+50)
	qs := queriesFor(r, codes, 3*MaxBatch+9)
	skip := []int32{0, 5, 300, int32(len(codes) - 1)}
	for _, after := range []int64{1 << 40, 0} {
		transposeAfter = after
		x, _ := NewIndex(codes)
		y, _ := x.Without(skip)
		ref, _ := NewIndex(codes)
		refY, _ := ref.Without(skip)
		ref.tposed, refY.tposed = nil, nil // never transposed beforehand
		for _, pair := range [][2]*Index{{x, ref}, {y, refY}} {
			for _, ties := range []Ties{TiesAll, TiesRandom} {
				got, err1 := pair[0].NearestBatch(nil, qs, Options{Ties: ties, Rand: rand.NewPCG(3, 4)})
				want, err2 := pair[1].NearestBatch(nil, qs, Options{Ties: ties, Rand: rand.NewPCG(3, 4)})
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("transposeAfter %d ties=%d: %v, want %v", after, ties, head(got), head(want))
				}
			}
		}
		if err := checkBatch(codes, qs, mustBatch(t, x, qs), TiesAll); err != nil {
			t.Fatal(err)
		}
		kept := x.tposed.t != nil
		if want := after == 0 && activeKernel == kernelAVX512; kept != want {
			t.Fatalf("transposeAfter %d, kernel %s: codes kept transposed %t, want %t", after, Kernel(), kept, want)
		}
		if x.tposed != y.tposed {
			t.Fatal("an index made by Without does not share the transposed codes")
		}
	}
	// Negative control: a transposed copy of other codes (the codes
	// rotated by one group) gives answers brute force refuses.
	if activeKernel == kernelAVX512 {
		x, _ := NewIndex(codes)
		rotated := append(slices.Clone(codes[8:]), codes[:8]...)
		x.tposed.once.Do(func() {})
		x.tposed.t = transposeCodes(rotated)
		if checkBatch(codes, qs, mustBatch(t, x, qs), TiesAll) == nil {
			t.Fatal("the brute-force check passed a batch over wrong transposed codes")
		}
	}
}

func mustBatch(t *testing.T, x *Index, qs []Code) []Neighbor {
	t.Helper()
	res, err := x.NearestBatch(nil, qs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTransposedDistance: the distance to code i read from the codes
// transposed (as walkMarked reads a marked code) is Distance's, for every
// position in a block; where this CPU keeps no transposed codes there is
// nothing to read.
func TestTransposedDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	codes := randomCodes(r, blockSize)
	tc := transposeCodes(codes)
	if tc == nil {
		t.Skipf("kernel %s reads no transposed codes", Kernel())
	}
	q := randomCodes(r, 1)[0]
	for i := range codes {
		if got, want := transposedDistance(&q, tc, i), Distance(q, codes[i]); got != want {
			t.Fatalf("code %d: %d, want %d", i, got, want)
		}
	}
}
