package hamming_test

import (
	"cmp"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wordveil/wordveil/hamming"
	"github.com/wordveil/wordveil/internal/stattest"
)

// randomCode returns a uniformly random code.
func randomCode(r *rand.Rand) hamming.Code {
	return hamming.Code{r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()}
}

// flip returns c with n distinct random bits flipped.
func flip(r *rand.Rand, c hamming.Code, n int) hamming.Code {
	for _, b := range r.Perm(hamming.Bits)[:n] {
		c = c.SetBit(b, !c.Bit(b))
	}
	return c
}

// clustered returns n codes in groups of 20 within 12 bits of a centre,
// one in ten an exact copy of another: near queries meet many ties, and
// at n ≥ 2048 the planner answers them by multi-index hashing.
func clustered(r *rand.Rand, n int) []hamming.Code {
	codes := make([]hamming.Code, n)
	var centre hamming.Code
	for i := range codes {
		switch {
		case i%20 == 0:
			centre = randomCode(r)
			codes[i] = centre
		case i%10 == 3:
			codes[i] = codes[i-1]
		default:
			codes[i] = flip(r, centre, r.IntN(13))
		}
	}
	return codes
}

// brute returns every code of codes (but the skipped ids) within r of q,
// by (distance, id): the reference the index must equal.
func brute(codes []hamming.Code, skip map[int]bool, q hamming.Code, r int) []hamming.Neighbor {
	var out []hamming.Neighbor
	for id, c := range codes {
		if d := hamming.Distance(q, c); d <= r && !skip[id] {
			out = append(out, hamming.Neighbor{ID: id, Dist: d})
		}
	}
	slices.SortFunc(out, func(a, b hamming.Neighbor) int {
		return cmp.Or(cmp.Compare(a.Dist, b.Dist), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// checkKNN checks a k-NN answer against the full brute-force order: the
// right count, sorted, every code nearer than the k-th distance present,
// the rest drawn from the codes at the k-th distance, no id twice.
func checkKNN(t *testing.T, got, all []hamming.Neighbor, k int) {
	t.Helper()
	want := all[:min(k, len(all))]
	if len(got) != len(want) {
		t.Fatalf("k=%d: %d results, want %d", k, len(got), len(want))
	}
	if len(got) == 0 {
		return
	}
	kth := want[len(want)-1].Dist
	dist := make(map[int]int, len(all))
	for _, n := range all {
		dist[n.ID] = n.Dist
	}
	seen := map[int]bool{}
	for i, n := range got {
		if d, ok := dist[n.ID]; !ok || d != n.Dist || seen[n.ID] {
			t.Fatalf("k=%d: result %d = %+v is not an eligible code at its distance, or repeated", k, i, n)
		}
		seen[n.ID] = true
		if n.Dist != want[i].Dist {
			t.Fatalf("k=%d: result %d at distance %d, want %d", k, i, n.Dist, want[i].Dist)
		}
		if i > 0 && cmp.Or(cmp.Compare(got[i-1].Dist, n.Dist), cmp.Compare(got[i-1].ID, n.ID)) >= 0 {
			t.Fatalf("k=%d: results not sorted by (distance, id) at %d", k, i)
		}
	}
	for _, n := range want {
		if n.Dist < kth && !seen[n.ID] {
			t.Fatalf("k=%d: id %d at distance %d < k-th %d missing", k, n.ID, n.Dist, kth)
		}
	}
}

// TestAgainstBruteForce: Nearest, KNN and Range, on indexes small enough
// to be scanned and large enough for multi-index hashing, with and
// without excluded ids, equal a scan of every code.
func TestAgainstBruteForce(t *testing.T) {
	cases := []struct {
		name    string
		codes   func(r *rand.Rand) []hamming.Code
		skip    int // how many ids Without excludes (0: the index itself)
		queries int
	}{
		{"random 300", func(r *rand.Rand) []hamming.Code { return randomCodes(r, 300) }, 0, 40},
		{"clustered 300", func(r *rand.Rand) []hamming.Code { return clustered(r, 300) }, 0, 40},
		{"clustered 300 without 50", func(r *rand.Rand) []hamming.Code { return clustered(r, 300) }, 50, 40},
		{"clustered 6000 (multi-index hashing)", func(r *rand.Rand) []hamming.Code { return clustered(r, 6000) }, 0, 30},
		{"clustered 6000 without 400", func(r *rand.Rand) []hamming.Code { return clustered(r, 6000) }, 400, 30},
		{"one code", func(r *rand.Rand) []hamming.Code { return randomCodes(r, 1) }, 0, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(35, uint64(len(c.name))))
			codes := c.codes(r)
			x, err := hamming.NewIndex(codes)
			if err != nil {
				t.Fatal(err)
			}
			skip := map[int]bool{}
			if c.skip > 0 {
				ids := r.Perm(len(codes))[:c.skip]
				for _, id := range ids {
					skip[id] = true
				}
				if x, err = x.Without(ids); err != nil {
					t.Fatal(err)
				}
			}
			if x.Len() != len(codes)-len(skip) {
				t.Fatalf("Len %d, want %d", x.Len(), len(codes)-len(skip))
			}
			rng := rand.NewChaCha8(stattest.Seed("hamming brute force"))
			for qi := range c.queries {
				// Near queries (a stored code with a few bits flipped),
				// which meet ties and multi-index hashing, and far ones.
				q := flip(r, codes[r.IntN(len(codes))], []int{0, 3, 10, 40, 100}[qi%5])
				all := brute(codes, skip, q, hamming.Bits)
				for _, radius := range []int{0, 5, 12, 40, 128, hamming.Bits} {
					got, err := x.Range(q, radius)
					if err != nil {
						t.Fatal(err)
					}
					if want := brute(codes, skip, q, radius); !slices.Equal(got, want) {
						t.Fatalf("query %d: Range(%d) = %d codes, want %d", qi, radius, len(got), len(want))
					}
				}
				for _, k := range []int{1, 2, 5, 37, len(codes) + 3} {
					got, err := x.KNN(q, k, rng)
					if err != nil {
						t.Fatal(err)
					}
					checkKNN(t, got, all, k)
				}
				n, err := x.Nearest(q, rng)
				if err != nil {
					t.Fatal(err)
				}
				if n.Dist != all[0].Dist || skip[n.ID] || hamming.Distance(q, codes[n.ID]) != n.Dist {
					t.Fatalf("query %d: Nearest = %+v, want distance %d", qi, n, all[0].Dist)
				}
			}
		})
	}
}

func randomCodes(r *rand.Rand, n int) []hamming.Code {
	codes := make([]hamming.Code, n)
	for i := range codes {
		codes[i] = randomCode(r)
	}
	return codes
}

// TestBruteForceComparisonHasTeeth is the negative control of
// TestAgainstBruteForce: answers that are wrong by one bit of radius, or
// by one code, do not pass the comparisons it makes.
func TestBruteForceComparisonHasTeeth(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	codes := clustered(r, 300)
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	q := flip(r, codes[7], 3)
	got, err := x.Range(q, 11)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(got, brute(codes, nil, q, 12)) {
		t.Fatal("Range(11) equals the brute-force answer at radius 12: the data does not tell radii apart")
	}
	missing, err := x.Without([]int{got[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	if got2, _ := missing.Range(q, 11); slices.Equal(got2, brute(codes, nil, q, 11)) {
		t.Fatal("an index without a code in the ball gave the full ball")
	}
}

// TestUniformTies: Nearest returns each of several codes at the minimum
// distance equally often, on a scanned index and on one large enough for
// multi-index hashing, and KNN keeps each subset of the tied codes
// equally often. The control, a lowest-id choice (what KNN's order puts
// first), fails the same chi-square test.
func TestUniformTies(t *testing.T) {
	const tied, draws = 6, 12000
	for _, n := range []int{100, 5000} {
		r := rand.New(rand.NewPCG(3, uint64(n)))
		codes := randomCodes(r, n)
		q := randomCode(r)
		// Six codes at distance 2 from q, at spread ids; everything else
		// is random, about 128 bits away.
		ids := []int{1, n / 5, n / 3, n / 2, n - 2, n - 1}
		for i, id := range ids {
			codes[id] = q.SetBit(2*i, !q.Bit(2*i)).SetBit(2*i+1, !q.Bit(2*i+1))
		}
		x, err := hamming.NewIndex(codes)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.NewChaCha8(stattest.Seed("hamming uniform ties"))
		nearest := make([]int, tied)
		lowest := make([]int, tied)
		pairs := map[[2]int]int{}
		for range draws {
			nb, err := x.Nearest(q, rng)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.Index(ids, nb.ID)
			if i < 0 || nb.Dist != 2 {
				t.Fatalf("n=%d: Nearest = %+v, not one of the tied codes", n, nb)
			}
			nearest[i]++
			ns, err := x.KNN(q, 2, rng)
			if err != nil {
				t.Fatal(err)
			}
			pairs[[2]int{ns[0].ID, ns[1].ID}]++
			lowest[slices.Index(ids, ns[0].ID)]++
		}
		p := make([]float64, tied)
		for i := range p {
			p[i] = 1.0 / tied
		}
		if _, _, pv := stattest.ChiSquare(nearest, p); pv < stattest.FalseFailureRate {
			t.Errorf("n=%d: Nearest's ties are not uniform: %v (p = %g)", n, nearest, pv)
		}
		pairCounts := make([]int, 0, tied*(tied-1)/2)
		for a := range ids {
			for b := a + 1; b < tied; b++ {
				pairCounts = append(pairCounts, pairs[[2]int{ids[a], ids[b]}])
			}
		}
		pp := make([]float64, len(pairCounts))
		for i := range pp {
			pp[i] = 1 / float64(len(pp))
		}
		if _, _, pv := stattest.ChiSquare(pairCounts, pp); pv < stattest.FalseFailureRate {
			t.Errorf("n=%d: KNN's tied subsets are not uniform: %v (p = %g)", n, pairCounts, pv)
		}
		// The control: the first of KNN's two, the lower id of a
		// uniform pair, is not uniform over the tied codes.
		if _, _, pv := stattest.ChiSquare(lowest, p); pv >= stattest.FalseFailureRate {
			t.Errorf("n=%d: control: a lowest-id choice passed as uniform: %v (p = %g)", n, lowest, pv)
		}
	}
}

// TestInvalidArguments: bad arguments and nil or zero indexes give
// ErrInvalid, never a panic; an empty index answers with nothing.
func TestInvalidArguments(t *testing.T) {
	codes := randomCodes(rand.New(rand.NewPCG(5, 5)), 10)
	x, err := hamming.NewIndex(codes)
	if err != nil {
		t.Fatal(err)
	}
	var q hamming.Code
	var nilIndex *hamming.Index
	calls := []struct {
		name string
		call func() error
	}{
		{"k = 0", func() error { _, err := x.KNN(q, 0, nil); return err }},
		{"k = -1", func() error { _, err := x.KNN(q, -1, nil); return err }},
		{"radius -1", func() error { _, err := x.Range(q, -1); return err }},
		{"radius 257", func() error { _, err := x.Range(q, hamming.Bits+1); return err }},
		{"Without id -1", func() error { _, err := x.Without([]int{2, -1}); return err }},
		{"Without id 10", func() error { _, err := x.Without([]int{10}); return err }},
		{"Without a huge id", func() error { _, err := x.Without([]int{math.MaxInt}); return err }},
		{"nil Nearest", func() error { _, err := nilIndex.Nearest(q, nil); return err }},
		{"nil KNN", func() error { _, err := nilIndex.KNN(q, 1, nil); return err }},
		{"nil Range", func() error { _, err := nilIndex.Range(q, 3); return err }},
		{"nil Without", func() error { _, err := nilIndex.Without(nil); return err }},
		{"zero Nearest", func() error { _, err := new(hamming.Index).Nearest(q, nil); return err }},
		{"zero KNN", func() error { _, err := new(hamming.Index).KNN(q, 1, nil); return err }},
		{"zero Range", func() error { _, err := new(hamming.Index).Range(q, 3); return err }},
		{"zero Without", func() error { _, err := new(hamming.Index).Without([]int{0}); return err }},
	}
	for _, c := range calls {
		if err := c.call(); !errors.Is(err, hamming.ErrInvalid) {
			t.Errorf("%s: error %v, want ErrInvalid", c.name, err)
		}
	}
	if nilIndex.Len() != 0 || new(hamming.Index).Len() != 0 {
		t.Error("a nil or zero Index has a length")
	}

	// Empty indexes, made empty or emptied by Without, answer with no
	// codes; Nearest has none to give.
	empty, err := hamming.NewIndex(nil)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, len(codes))
	for i := range all {
		all[i] = i
	}
	emptied, err := x.Without(all)
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]*hamming.Index{"empty": empty, "emptied": emptied} {
		if _, err := e.Nearest(q, nil); !errors.Is(err, hamming.ErrEmpty) {
			t.Errorf("%s: Nearest error %v, want ErrEmpty", name, err)
		}
		if ns, err := e.KNN(q, 3, nil); err != nil || len(ns) != 0 {
			t.Errorf("%s: KNN = %v, %v", name, ns, err)
		}
		if ns, err := e.Range(q, hamming.Bits); err != nil || len(ns) != 0 {
			t.Errorf("%s: Range = %v, %v", name, ns, err)
		}
		if e.Len() != 0 {
			t.Errorf("%s: Len %d", name, e.Len())
		}
	}
	// A valid call on the same index still works: the errors above were
	// about the arguments (the control).
	if ns, err := x.KNN(q, 3, nil); err != nil || len(ns) != 3 {
		t.Fatalf("KNN(3) = %v, %v", ns, err)
	}
}

// TestDistanceAndBits: Distance counts differing bits, and Bit and SetBit
// follow the documented layout (bit i is bit i%64 of word i/64).
func TestDistanceAndBits(t *testing.T) {
	cases := []struct {
		a, b hamming.Code
		want int
	}{
		{hamming.Code{}, hamming.Code{}, 0},
		{hamming.Code{}, hamming.Code{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}, 256},
		{hamming.Code{1}, hamming.Code{}, 1},
		{hamming.Code{0, 0, 0, 1 << 63}, hamming.Code{}, 1},
		{hamming.Code{0xff, 0, 0xf0}, hamming.Code{0x0f, 0, 0xff}, 8},
	}
	for _, c := range cases {
		if got := hamming.Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%x, %x) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	for _, i := range []int{0, 63, 64, 130, 255} {
		c := hamming.Code{}.SetBit(i, true)
		if c[i/64] != 1<<(i%64) || !c.Bit(i) {
			t.Errorf("SetBit(%d) = %x", i, c)
		}
	}
	if k := hamming.Kernel(); !slices.Contains([]string{"avx512", "popcnt", "neon", "generic"}, k) {
		t.Errorf("Kernel() = %q", k)
	}
}
