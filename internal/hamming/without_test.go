package hamming

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bits-and-blooms/bitset"
)

// copyIndex is the reference a restricted index must match: what the
// mechanisms built before Index.Without, an index over a copy of the codes
// left (in id order), whose i-th id stands for ids[i].
type copyIndex struct {
	x   *Index
	ids []int32
}

func newCopyIndex(t testing.TB, codes []Code, skip []int32) copyIndex {
	t.Helper()
	skipped := map[int32]bool{}
	for _, id := range skip {
		skipped[id] = true
	}
	var sub []Code
	var ids []int32
	for i, c := range codes {
		if !skipped[int32(i)] {
			sub = append(sub, c)
			ids = append(ids, int32(i))
		}
	}
	x, err := NewIndex(sub)
	if err != nil {
		t.Fatal(err)
	}
	return copyIndex{x, ids}
}

// word maps the copy's neighbours to the original ids.
func (c copyIndex) word(ns []Neighbor) []Neighbor {
	out := make([]Neighbor, len(ns))
	for i, n := range ns {
		out[i] = Neighbor{ID: c.ids[n.ID], Dist: n.Dist}
	}
	return out
}

// sub maps an exclusion bitset over the original ids to the copy's ids.
func (c copyIndex) sub(ex *bitset.BitSet) *bitset.BitSet {
	if ex == nil {
		return nil
	}
	out := bitset.New(uint(len(c.ids)))
	for i, id := range c.ids {
		if ex.Test(uint(id)) {
			out.Set(uint(i))
		}
	}
	return out
}

// skipSets are the restrictions every test runs: none, one id, a few
// hundred spread out (as the default asset's exclusion list), a run of
// consecutive ids longer than a kernel block, every other id, and all but
// one, plus every id (an empty index).
func skipSets(r *rand.Rand, n int) map[string][]int32 {
	sets := map[string][]int32{"empty": nil}
	if n == 0 {
		return sets
	}
	sets["one"] = []int32{int32(r.IntN(n))}
	sets["first-last"] = []int32{0, int32(n - 1)}
	var spread, run, odd, allButOne, all []int32
	for i := range n {
		if r.IntN(200) == 0 {
			spread = append(spread, int32(i))
		}
		if i >= n/3 && i < n/3+700 {
			run = append(run, int32(i))
		}
		if i%2 == 1 {
			odd = append(odd, int32(i))
		}
		all = append(all, int32(i))
	}
	keep := r.IntN(n)
	for i := range n {
		if i != keep {
			allButOne = append(allButOne, int32(i))
		}
	}
	// Unsorted and with duplicates: Without must not care.
	spread = append(spread, spread[:len(spread)/2]...)
	r.Shuffle(len(spread), func(i, j int) { spread[i], spread[j] = spread[j], spread[i] })
	sets["spread"], sets["run"], sets["odd"], sets["all-but-one"], sets["all"] = spread, run, odd, allButOne, all
	return sets
}

// tieCodes is a database where most queries have many tied minimizers in
// many blocks: 64 distinct codes repeated.
func tieCodes(r *rand.Rand, n int) []Code {
	base := randomCodes(r, 64)
	out := make([]Code, n)
	for i := range out {
		out[i] = base[r.IntN(len(base))]
	}
	return out
}

// TestWithoutMatchesCopy: on every dataset and skip set, each query of the
// restricted index gives what the copy gives (ids mapped back), in the same
// order, and draws the same values from its source; and both agree with
// brute force over the codes left.
func TestWithoutMatchesCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	type dataset struct {
		name    string
		codes   []Code
		queries int
	}
	sets := []dataset{
		{"empty", nil, 2},
		{"one", randomCodes(r, 1), 3},
		{"random-700", randomCodes(r, 700), 12},
		{"ties-3k", tieCodes(r, 3000), 12},
		{"clustered-6k", clusteredCodes(r, 6000), 16},
	}
	if !testing.Short() {
		sets = append(sets, dataset{"clustered-50k", clusteredCodes(r, 50000), 16})
	}
	for _, ds := range sets {
		x, err := NewIndex(ds.codes)
		if err != nil {
			t.Fatal(err)
		}
		nq := ds.queries
		if testing.Short() { // the race run: a third of the queries
			nq = max(2, nq/3)
		}
		qs := queriesFor(r, ds.codes, nq)
		for name, skip := range skipSets(r, len(ds.codes)) {
			t.Run(ds.name+"/"+name, func(t *testing.T) {
				y, err := x.Without(skip)
				if err != nil {
					t.Fatal(err)
				}
				ref := newCopyIndex(t, ds.codes, skip)
				checkRankID(t, y, ref)
				excl := bitset.New(uint(len(ds.codes)))
				for i := range ds.codes {
					if r.IntN(4) == 0 {
						excl.Set(uint(i))
					}
				}
				for qi, q := range qs {
					matchNearest(t, y, ref, q, qi)
					matchKNN(t, y, ref, q, qi, excl)
					matchRange(t, y, ref, q, qi)
					matchHistogram(t, y, ref, q, qi)
				}
			})
		}
	}
}

func checkRankID(t *testing.T, y *Index, ref copyIndex) {
	t.Helper()
	if y.Len() != len(ref.ids) {
		t.Fatalf("Len %d, want %d", y.Len(), len(ref.ids))
	}
	for j, id := range ref.ids {
		if y.ID(j) != int(id) || y.Rank(int(id)) != j {
			t.Fatalf("ID(%d) = %d, Rank(%d) = %d; want %d, %d", j, y.ID(j), id, y.Rank(int(id)), id, j)
		}
	}
	n := len(y.Codes())
	if y.Rank(n) != y.Len() || y.Rank(-1) != -1 || y.Rank(n+1) != -1 || y.ID(-1) != -1 || y.ID(y.Len()) != -1 {
		t.Fatalf("Rank/ID out of range: Rank(%d) = %d, Rank(-1) = %d, Rank(n+1) = %d, ID(-1) = %d, ID(Len) = %d",
			n, y.Rank(n), y.Rank(-1), y.Rank(n+1), y.ID(-1), y.ID(y.Len()))
	}
}

// matchNearest compares Nearest under both tie rules and radius hints that
// send the planner to a scan or to MIH, with twin seeded sources.
func matchNearest(t *testing.T, y *Index, ref copyIndex, q Code, qi int) {
	t.Helper()
	codes := y.Codes()
	for _, ties := range []Ties{TiesAll, TiesRandom} {
		for _, hint := range []int{0, 2, 20, 120} {
			seed := uint64(qi*1000 + hint)
			gs, ws := rand.NewPCG(seed, 7), rand.NewPCG(seed, 7)
			got, gerr := y.Nearest(q, Options{Ties: ties, Rand: gs, ExpectedRadius: hint})
			want, werr := ref.x.Nearest(q, Options{Ties: ties, Rand: ws, ExpectedRadius: hint})
			if werr == nil {
				want.ID = ref.ids[want.ID]
			}
			if !errors.Is(gerr, werr) || got != want {
				t.Fatalf("query %d ties %d hint %d: Nearest = %v (%v), copy %v (%v)", qi, ties, hint, got, gerr, want, werr)
			}
			if gs.Uint64() != ws.Uint64() {
				t.Fatalf("query %d ties %d hint %d: Nearest drew differently from the copy", qi, ties, hint)
			}
			if gerr == nil && (isSkipped(y.scan.skip, uint32(got.ID)) || Distance(q, codes[got.ID]) != int(got.Dist)) {
				t.Fatalf("query %d: Nearest returned skipped or wrong %v", qi, got)
			}
		}
	}
}

func matchKNN(t *testing.T, y *Index, ref copyIndex, q Code, qi int, excl *bitset.BitSet) {
	t.Helper()
	allSkip := skipBits(y)
	for _, k := range []int{1, 3, 40} {
		for _, ex := range []*bitset.BitSet{nil, excl} {
			want := bruteKNN(y.Codes(), q, k, union(allSkip, ex))
			for _, ties := range []Ties{TiesAll, TiesRandom} {
				for _, hint := range []int{0, 3, 100} {
					seed := uint64(qi*1000 + k*10 + hint)
					gs, ws := rand.NewPCG(seed, 9), rand.NewPCG(seed, 9)
					got, err := y.KNN(nil, q, k, Options{Ties: ties, Rand: gs, Exclude: ex, ExpectedRadius: hint})
					if err != nil {
						t.Fatal(err)
					}
					cp, err := ref.x.KNN(nil, q, k, Options{Ties: ties, Rand: ws, Exclude: ref.sub(ex), ExpectedRadius: hint})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, ref.word(cp)) || gs.Uint64() != ws.Uint64() {
						t.Fatalf("query %d k %d ties %d excl %v: KNN = %v, copy %v (or drew differently)", qi, k, ties, ex != nil, head(got), head(ref.word(cp)))
					}
					if ties == TiesAll && !slices.Equal(got, want) {
						t.Fatalf("query %d k %d: KNN = %v, brute force %v", qi, k, head(got), head(want))
					}
				}
			}
		}
	}
}

// matchRange compares Range in order: TEM draws from the ball in Range's
// order, which is the strategy's (bucket order for MIH, id order for a
// scan), so the restricted index must pick the copy's strategy.
func matchRange(t *testing.T, y *Index, ref copyIndex, q Code, qi int) {
	t.Helper()
	allSkip := skipBits(y)
	for _, rad := range []int{0, 1, 8, 16, 17, 33, 40, 48, 64, 100, 256, 1000} {
		m0, s0 := ref.x.stats.MIHs.Load(), ref.x.stats.Scans.Load()
		ym0, ys0 := y.stats.MIHs.Load(), y.stats.Scans.Load()
		got, err := y.Range(nil, q, rad, Options{})
		if err != nil {
			t.Fatal(err)
		}
		cp, err := ref.x.Range(nil, q, rad, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, ref.word(cp)) {
			t.Fatalf("query %d r %d: Range = %v, copy %v", qi, rad, head(got), head(ref.word(cp)))
		}
		if y.stats.MIHs.Load()-ym0 != ref.x.stats.MIHs.Load()-m0 || y.stats.Scans.Load()-ys0 != ref.x.stats.Scans.Load()-s0 {
			t.Fatalf("query %d r %d: Range chose another strategy than the copy", qi, rad)
		}
		if want := bruteRange(y.Codes(), q, rad, allSkip); !slices.Equal(sortedCopy(got), sortedCopy(want)) {
			t.Fatalf("query %d r %d: Range has %d codes, brute force %d", qi, rad, len(got), len(want))
		}
	}
}

func matchHistogram(t *testing.T, y *Index, ref copyIndex, q Code, qi int) {
	t.Helper()
	h := y.Histogram(nil, q)
	hc := ref.x.Histogram(nil, q)
	if h.Len() != hc.Len() {
		t.Fatalf("query %d: Histogram.Len %d, copy %d", qi, h.Len(), hc.Len())
	}
	for d := -1; d <= Bits+1; d++ {
		if h.Count(d) != hc.Count(d) {
			t.Fatalf("query %d: Count(%d) = %d, copy %d", qi, d, h.Count(d), hc.Count(d))
		}
	}
	for _, lh := range [][2]int{{0, 0}, {0, 120}, {100, 140}, {128, 128}, {129, Bits}, {0, Bits}} {
		n := 0
		for d := lh[0]; d <= lh[1]; d++ {
			n += hc.Count(d)
		}
		for _, j := range []int{0, 1, n / 3, n / 2, n - 2, n - 1, n} {
			got, gerr := h.Select(lh[0], lh[1], j)
			want, werr := hc.Select(lh[0], lh[1], j)
			if werr == nil {
				want = int(ref.ids[want])
			}
			if got != want || !errors.Is(gerr, werr) {
				t.Fatalf("query %d: Select(%d, %d, %d) = %d (%v), copy %d (%v)", qi, lh[0], lh[1], j, got, gerr, want, werr)
			}
		}
	}
}

// skipBits is y's skip set as a bitset (nil when empty).
func skipBits(y *Index) *bitset.BitSet {
	if len(y.scan.skip) == 0 {
		return nil
	}
	b := bitset.New(uint(len(y.Codes())))
	for _, id := range y.scan.skip {
		b.Set(uint(id))
	}
	return b
}

func union(a, b *bitset.BitSet) *bitset.BitSet {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return a.Union(b)
}

// TestWithoutErrors: ids outside the index and a nil or zero index are
// refused; skipping again adds to what is skipped; skipping everything
// leaves an empty index.
func TestWithoutErrors(t *testing.T) {
	codes := randomCodes(rand.New(rand.NewPCG(2, 6)), 10)
	x, _ := NewIndex(codes)
	for _, bad := range [][]int32{{-1}, {10}, {3, 10}, {-5, 2}} {
		if _, err := x.Without(bad); !errors.Is(err, ErrSkipRange) {
			t.Errorf("Without(%v): %v, want ErrSkipRange", bad, err)
		}
	}
	var zero Index
	for _, ix := range []*Index{nil, &zero} {
		if _, err := ix.Without([]int32{1}); !errors.Is(err, ErrNoIndex) {
			t.Errorf("Without on %v: %v, want ErrNoIndex", ix, err)
		}
		if ix.Rank(0) != -1 || ix.ID(0) != -1 {
			t.Errorf("Rank/ID on %v: %d, %d, want -1", ix, ix.Rank(0), ix.ID(0))
		}
	}
	y, err := x.Without([]int32{1, 3})
	if err != nil {
		t.Fatal(err)
	}
	z, err := y.Without([]int32{3, 7})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(z.scan.skip, []int32{1, 3, 7}) || z.Len() != 7 || x.Len() != 10 || y.Len() != 8 {
		t.Fatalf("nested Without: skip %v, Len %d (x %d, y %d)", z.scan.skip, z.Len(), x.Len(), y.Len())
	}
	all := make([]int32, 10)
	for i := range all {
		all[i] = int32(i)
	}
	e, err := x.Without(all)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Nearest(codes[0], Options{}); !errors.Is(err, ErrNoResult) {
		t.Fatalf("Nearest on an empty restriction: %v", err)
	}
	if res, _ := e.Range(nil, codes[0], Bits, Options{}); len(res) != 0 {
		t.Fatalf("Range on an empty restriction: %v", res)
	}
	if h := e.Histogram(nil, codes[0]); h.Len() != 0 || h.Count(0) != 0 {
		t.Fatalf("Histogram on an empty restriction: Len %d, Count(0) %d", h.Len(), h.Count(0))
	}
}

// TestSkippedEntries: both ways of counting the skipped codes' entries in
// the buckets a range search visits agree with counting them one by one.
func TestSkippedEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 26))
	codes := clusteredCodes(r, 4000)
	m, _ := newMIH(codes)
	for name, skip := range skipSets(r, len(codes)) {
		skip, _ := normalizeSkip(skip, nil, len(codes))
		for _, q := range queriesFor(r, codes, 6) {
			for _, rad := range []int{0, 5, 16, 20, 33, 47, 64} {
				sc := m.scratch()
				entries := m.rangeSpans(sc, &q, rad)
				want := 0
				for _, sp := range sc.spans {
					for _, id := range m.ids[sp.j][sp.lo:sp.hi] {
						if slices.Contains(skip, int32(id)) {
							want++
						}
					}
				}
				got := m.skippedEntries(sc, &q, rad, entries, skip)
				// The other way, forced by the entries it is told.
				other := m.skippedEntries(sc, &q, rad, len(skip)*substrings-1, skip)
				if len(skip)*substrings > entries {
					other = m.skippedEntries(sc, &q, rad, len(skip)*substrings, skip)
				}
				sc.spans = sc.spans[:0]
				m.release(sc)
				if got != want || other != want {
					t.Fatalf("%s r %d: skipped entries %d and %d, want %d", name, rad, got, other, want)
				}
			}
		}
	}
}

// TestRangeDecisionCountsSkipped: a restriction's Range decides by the
// entries of the searched codes alone. The case is made so that the
// decision on every entry (skipped ones included) differs: a run of
// skipped codes all alike to the query.
func TestRangeDecisionCountsSkipped(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 26))
	codes := randomCodes(r, 6000)
	q := codes[0]
	var skip []int32
	for i := 1; i < 400; i++ {
		codes[i] = flip(r, q, 1+r.IntN(3))
		skip = append(skip, int32(i))
	}
	x, _ := NewIndex(codes)
	y, _ := x.Without(skip)
	ref := newCopyIndex(t, codes, skip)
	differs := 0
	for rad := 0; rad <= 64; rad++ {
		if !y.worthCounting(rad) {
			continue
		}
		m := y.getMIH()
		sc := m.scratch()
		entries := m.rangeSpans(sc, &q, rad)
		naive := mihCost(rad, entries, y.Len()) <= y.scanCost()
		sc.spans = sc.spans[:0]
		m.release(sc)
		rm := ref.x.getMIH()
		rsc := rm.scratch()
		want := mihCost(rad, rm.rangeSpans(rsc, &q, rad), ref.x.Len()) <= ref.x.scanCost()
		rsc.spans = rsc.spans[:0]
		rm.release(rsc)
		if naive != want {
			differs++
		}
		matchRange(t, y, ref, q, rad)
	}
	if differs == 0 {
		t.Fatal("vacuous: no radius where the skipped entries change the decision")
	}
}

// TestWithoutConcurrent: a parent and its restriction share the lazily
// built MIH tables; concurrent queries on both stay exact (-race).
func TestWithoutConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 26))
	codes := clusteredCodes(r, 4000)
	x, _ := NewIndex(codes)
	y, _ := x.Without(skipSets(r, len(codes))["spread"])
	qs := queriesFor(r, codes, 8)
	done := make(chan error, 4)
	for g := range 4 {
		go func() {
			ix := []*Index{x, y}[g%2]
			for _, q := range qs {
				got, err := ix.KNN(nil, q, 3, Options{ExpectedRadius: 4})
				want := bruteKNN(codes, q, 3, skipBits(ix))
				if err != nil || !slices.Equal(got, want) {
					done <- fmt.Errorf("goroutine %d: KNN %v (%v), want %v", g, head(got), err, head(want))
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
