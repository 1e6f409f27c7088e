package hamming

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/bits-and-blooms/bitset"
	"github.com/wordveil/wordveil/internal/sample"
)

type searcher interface {
	Len() int
	KNN(dst []Neighbor, q Code, k int, opt Options) ([]Neighbor, error)
	Range(dst []Neighbor, q Code, r int, opt Options) ([]Neighbor, error)
}

func strategies(t testing.TB, codes []Code) map[string]searcher {
	s, err := newScan(codes)
	if err != nil {
		t.Fatal(err)
	}
	m, err := newMIH(codes)
	if err != nil {
		t.Fatal(err)
	}
	x, err := NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]searcher{"scan": s, "mih": m, "index": x}
}

// queriesFor mixes database codes, database codes with 1..100 flipped bits
// (BRR-like far queries included) and unrelated random codes.
func queriesFor(r *rand.Rand, codes []Code, n int) []Code {
	qs := randomCodes(r, n/4+1)
	for i := 0; i < n && len(codes) > 0; i++ {
		c := codes[r.IntN(len(codes))]
		qs = append(qs, flip(r, c, []int{0, 1, 3, 8, 17, 33, 50, 80, 100}[i%9]))
	}
	return qs
}

func TestSearchMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	type dataset struct {
		name    string
		codes   []Code
		queries int
	}
	sets := []dataset{
		{"empty", nil, 3},
		{"one", randomCodes(r, 1), 5},
		{"two-equal", []Code{{1, 2, 3, 4}, {1, 2, 3, 4}}, 5},
		{"random-1k", randomCodes(r, 1000), 30},
		{"clustered-5k", clusteredCodes(r, 5000), 40},
	}
	if !testing.Short() { // generated only when used: 200k codes cost seconds under -race
		sets = append(sets, dataset{"random-50k", randomCodes(r, 50000), 12}, dataset{"clustered-200k", clusteredCodes(r, 200000), 12})
	}
	for _, ds := range sets {
		excl := bitset.New(uint(len(ds.codes)))
		for i := range ds.codes {
			if r.IntN(3) == 0 {
				excl.Set(uint(i))
			}
		}
		nq, radii := ds.queries, []int{0, 1, 8, 16, 17, 31, 32, 48, 64, 100, 256, 1000}
		if testing.Short() { // the race run: fewer queries, radii MIH can afford
			nq, radii = max(2, nq/4), []int{0, 1, 16, 17, 33, 48}
		}
		qs := queriesFor(r, ds.codes, nq)
		for name, s := range strategies(t, ds.codes) {
			t.Run(ds.name+"/"+name, func(t *testing.T) {
				for qi, q := range qs {
					for _, k := range []int{1, 2, 10, 100} {
						for _, ex := range []*bitset.BitSet{nil, excl} {
							ref := bruteKNN(ds.codes, q, k, ex)
							got, err := s.KNN(nil, q, k, Options{Exclude: ex})
							if err != nil {
								t.Fatal(err)
							}
							if !slices.Equal(got, ref) {
								t.Fatalf("query %d k=%d excl=%v: KNN = %v, want %v", qi, k, ex != nil, head(got), head(ref))
							}
							got, err = s.KNN(nil, q, k, Options{Ties: TiesRandom, Rand: r, Exclude: ex})
							if err != nil {
								t.Fatal(err)
							}
							checkRandomTies(t, got, ref, k)
						}
					}
					for _, rad := range radii {
						ref := bruteRange(ds.codes, q, rad, nil)
						got, err := s.Range(nil, q, rad, Options{})
						if err != nil {
							t.Fatal(err)
						}
						if !slices.Equal(sortedCopy(got), sortedCopy(ref)) {
							t.Fatalf("query %d r=%d: Range has %d codes, want %d", qi, rad, len(got), len(ref))
						}
					}
				}
			})
		}
	}
}

// TestConcurrentSearch shares one Index between goroutines: the lazy MIH
// build, the scratch pool and the planner's running estimate must be safe
// (run under -race by make test), and every result still exact.
func TestConcurrentSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	codes := clusteredCodes(r, 4000)
	x, _ := NewIndex(codes)
	qs := queriesFor(r, codes, 16)
	want := make([][]Neighbor, len(qs))
	wantR := make([][]Neighbor, len(qs))
	for i, q := range qs {
		want[i] = bruteKNN(codes, q, 5, nil)
		wantR[i] = sortedCopy(bruteRange(codes, q, 20, nil))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.NewPCG(uint64(g), 0)
			for i := range qs {
				q := qs[(i+g)%len(qs)]
				got, err := x.KNN(nil, q, 5, Options{})
				if err != nil || !slices.Equal(got, want[(i+g)%len(qs)]) {
					errs <- fmt.Errorf("goroutine %d: KNN mismatch (%v)", g, err)
					return
				}
				gr, err := x.Range(nil, q, 20, Options{})
				if err != nil || !slices.Equal(sortedCopy(gr), wantR[(i+g)%len(qs)]) {
					errs <- fmt.Errorf("goroutine %d: Range mismatch (%v)", g, err)
					return
				}
				if _, err := x.Nearest(q, Options{Ties: TiesRandom, Rand: rng}); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func head(ns []Neighbor) string {
	if len(ns) > 6 {
		return fmt.Sprintf("%v...(%d)", ns[:6], len(ns))
	}
	return fmt.Sprint(ns)
}

func TestNearestMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	codes := clusteredCodes(r, 20000)
	x, _ := NewIndex(codes)
	s, _ := newScan(codes)
	for _, q := range queriesFor(r, codes, 60) {
		ref := bruteKNN(codes, q, 1, nil)
		for _, ties := range []Ties{TiesAll, TiesRandom} {
			for name, f := range map[string]func(Code, Options) (Neighbor, error){"scan": s.Nearest, "index": x.Nearest} {
				got, err := f(q, Options{Ties: ties, Rand: r})
				if err != nil {
					t.Fatal(err)
				}
				if got.Dist != ref[0].Dist || !slices.Contains(ref, got) {
					t.Fatalf("%s Nearest = %v, minimizers %v", name, got, head(ref))
				}
				if ties == TiesAll && got != ref[0] {
					t.Fatalf("%s Nearest TiesAll = %v, want lowest id %v", name, got, ref[0])
				}
			}
		}
	}
}

// TestRandomTiesUniform draws the nearest code among 8 tied minimizers spread
// over several kernel blocks and checks uniformity with a chi-square test
// (7 degrees of freedom, critical value 24.32 at a false-failure rate of 0.001).
func TestRandomTiesUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	codes := randomCodes(r, 5000)
	q := Code{}
	tied := []int{3, 4, 700, 1500, 2600, 3000, 4001, 4999}
	for i := range codes {
		codes[i] = flip(r, Code{}, 20+r.IntN(30)) // all farther than 10
	}
	for _, id := range tied {
		codes[id] = flip(r, q, 10)
	}
	x, _ := NewIndex(codes)
	s, _ := newScan(codes)
	for name, f := range map[string]func(Code, Options) (Neighbor, error){"scan": s.Nearest, "index": x.Nearest} {
		const draws = 40000
		counts := map[int32]int{}
		for i := 0; i < draws; i++ {
			n, err := f(q, Options{Ties: TiesRandom, Rand: r})
			if err != nil {
				t.Fatal(err)
			}
			counts[n.ID]++
		}
		chi := 0.0
		exp := float64(draws) / float64(len(tied))
		for _, id := range tied {
			o := float64(counts[int32(id)])
			chi += (o - exp) * (o - exp) / exp
		}
		if len(counts) != len(tied) || chi > 24.32 {
			t.Fatalf("%s: tie-breaking not uniform: counts %v, chi2 = %.1f", name, counts, chi)
		}
	}
}

func TestErrors(t *testing.T) {
	codes := randomCodes(rand.New(rand.NewPCG(1, 1)), 10)
	for name, s := range strategies(t, codes) {
		if _, err := s.KNN(nil, Code{}, 0, Options{}); !errors.Is(err, ErrInvalidK) {
			t.Errorf("%s: k=0 err = %v", name, err)
		}
		if _, err := s.KNN(nil, Code{}, 1, Options{Ties: TiesRandom}); !errors.Is(err, ErrNoRand) {
			t.Errorf("%s: TiesRandom without Rand err = %v", name, err)
		}
		if _, err := s.Range(nil, Code{}, -1, Options{}); !errors.Is(err, ErrInvalidRadius) {
			t.Errorf("%s: r=-1 err = %v", name, err)
		}
	}
	x, _ := NewIndex(nil)
	if _, err := x.Nearest(Code{}, Options{}); !errors.Is(err, ErrNoResult) {
		t.Errorf("Nearest on empty index err = %v", err)
	}
	all := bitset.New(10)
	all.FlipRange(0, 10)
	x, _ = NewIndex(codes)
	if _, err := x.Nearest(Code{}, Options{Exclude: all}); !errors.Is(err, ErrNoResult) {
		t.Errorf("Nearest with all excluded err = %v", err)
	}
}

func TestUniformUnbiased(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	const n, draws = 3, 30000
	var c [n]int
	for i := 0; i < draws; i++ {
		c[sample.UniformInt(r, n)]++
	}
	for _, v := range c {
		if math.Abs(float64(v)-draws/n) > 5*math.Sqrt(draws/n) {
			t.Fatalf("sample.UniformInt(3) counts %v", c)
		}
	}
}

func TestDecodeCodesRoundTrip(t *testing.T) {
	codes := randomCodes(rand.New(rand.NewPCG(2, 2)), 17)
	got, err := DecodeCodes(AppendBytes(nil, codes))
	if err != nil || !slices.Equal(got, codes) {
		t.Fatalf("round trip failed: %v", err)
	}
	if _, err := DecodeCodes(make([]byte, 33)); !errors.Is(err, ErrCodeLength) {
		t.Fatalf("33 bytes: err = %v", err)
	}
}

// TestKNNWarmStart checks the planner's hand-over: k-NN resumed from the
// buckets of a range search of any radius (substring boundaries included)
// equals brute force.
func TestKNNWarmStart(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	codes := clusteredCodes(r, 3000)
	m, _ := newMIH(codes)
	// Every warm radius (each boundary of the substring radii) with every
	// query; -short takes 3 queries (the same first 3), the full test 12:
	// the large radii enumerate whole substring tables, slow under -race.
	queries := queriesFor(r, codes, 12)
	if testing.Short() {
		queries = queries[:3]
	}
	for _, q := range queries {
		for _, warm := range []int{0, 1, 5, 15, 16, 17, 31, 32, 40, 70, 255, 256} {
			for _, k := range []int{1, 7} {
				sc := m.scratch()
				m.rangeSpans(sc, &q, warm)
				got, err := m.knn(sc, warm, nil, q, k, Options{}, 0, nil)
				m.release(sc)
				if want := bruteKNN(codes, q, k, nil); err != nil || !slices.Equal(got, want) {
					t.Fatalf("warm %d k %d: %v (%v), want %v", warm, k, head(got), err, head(want))
				}
			}
		}
	}
}

// TestMasksByWeight: masks() lists each 16-bit mask once, in order of
// weight, with maskStart (binomial sums) where each weight begins.
func TestMasksByWeight(t *testing.T) {
	ms := masks()
	if len(ms) != buckets || maskStart[subBits+1] != buckets {
		t.Fatalf("%d masks, maskStart ends at %d, want %d", len(ms), maskStart[subBits+1], buckets)
	}
	seen := make([]bool, buckets)
	for w := 0; w <= subBits; w++ {
		for _, m := range ms[maskStart[w]:maskStart[w+1]] {
			if bits.OnesCount16(m) != w || seen[m] {
				t.Fatalf("mask %#x at weight %d (seen before: %t)", m, w, seen[m])
			}
			seen[m] = true
		}
	}
}
